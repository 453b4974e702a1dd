"use client";
import type { TProcedureView } from "@solserver/contracts";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect } from "react";
import { useTRPC } from "@/lib/trpc";
import { trpcCode } from "@/lib/trpc-errors";

/**
 * The earlier messages of the thread the chat continues (after a reload, or picked from the
 * threads list); the turns sent on this page show below it as usual. A thread that is gone or
 * not the caller's is dropped (a new one starts); a guided diagnosis picks up where it stood.
 */
export function ChatHistory({
  threadId,
  shownHere,
  onMissing,
  onProcedure,
}: {
  threadId: string;
  /** Turns sent on this page (two messages each), already shown below. */
  shownHere: number;
  onMissing: () => void;
  onProcedure: (view: TProcedureView) => void;
}) {
  const trpc = useTRPC();
  const thread = useQuery(trpc.threads.get.queryOptions({ thread_id: threadId }, { retry: false }));
  const bound = thread.data?.procedure_system_id ?? null;
  const procedure = useQuery(trpc.procedures.get.queryOptions({ thread_id: threadId }, { enabled: bound !== null }));
  const code = trpcCode(thread.error);
  useEffect(() => {
    if (code === "NOT_FOUND" || code === "FORBIDDEN") onMissing();
  }, [code, onMissing]);
  useEffect(() => {
    if (procedure.data) onProcedure(procedure.data);
  }, [procedure.data, onProcedure]);
  if (!thread.data) return null;
  const earlier = thread.data.messages.slice(0, Math.max(0, thread.data.messages.length - shownHere * 2));
  if (earlier.length === 0) return null;
  return (
    <div className="stack" data-testid="chat-history">
      <p className="muted">
        Continuing <Link href={`/threads/${threadId}`}>{thread.data.title || "this thread"}</Link>
      </p>
      {earlier.map((m) =>
        m.role === "assistant" ? (
          <div key={m.id} className="reply">
            {m.content}
          </div>
        ) : (
          <div key={m.id} className="muted">
            You: {m.content}
          </div>
        ),
      )}
    </div>
  );
}
