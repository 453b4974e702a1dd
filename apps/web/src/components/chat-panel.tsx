"use client";
import type { TChatRespondResponse } from "@solserver/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTRPC } from "@/lib/trpc";
import { ProposalCard } from "./proposal-card";

export function ChatPanel() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [message, setMessage] = useState("");
  const [threadId, setThreadId] = useState<string | undefined>(undefined);
  const [turns, setTurns] = useState<{ message: string; response: TChatRespondResponse }[]>([]);
  // The request_id of a send that has not succeeded yet. Sending the same message to the same
  // thread again (after a timeout or a lost answer) reuses it, so the server replays instead of
  // storing the turn twice.
  const [unconfirmed, setUnconfirmed] = useState<{ id: string; message: string; threadId?: string } | null>(null);
  const respond = useMutation(
    trpc.chat.respond.mutationOptions({
      onSuccess: async (response, variables) => {
        setUnconfirmed(null);
        setThreadId(response.thread_id);
        setTurns((prev) => [...prev, { message: variables.message, response }]);
        setMessage("");
        await queryClient.invalidateQueries({ queryKey: trpc.proposals.pathKey() });
      },
    }),
  );

  function submit(event: FormEvent) {
    event.preventDefault();
    if (message.trim().length === 0) return;
    const retry = unconfirmed && unconfirmed.message === message && unconfirmed.threadId === threadId;
    const requestId = retry ? unconfirmed.id : crypto.randomUUID();
    if (!retry) setUnconfirmed({ id: requestId, message, ...(threadId ? { threadId } : {}) });
    respond.mutate({ message, request_id: requestId, ...(threadId ? { thread_id: threadId } : {}) });
  }

  return (
    <section className="panel stack" aria-labelledby="chat-heading">
      <div className="row" style={{ justifyContent: "space-between" }}>
        <h2 id="chat-heading">Chat</h2>
        {threadId ? (
          <button
            type="button"
            onClick={() => {
              setThreadId(undefined);
              setTurns([]);
              setUnconfirmed(null);
            }}
          >
            New thread
          </button>
        ) : null}
      </div>
      <p className="muted">
        Say what you decided (&ldquo;we decided to &hellip;&rdquo;, &ldquo;remember that &hellip;&rdquo;) or ask a
        question. Answers come from the knowledge base; new knowledge is proposed for review.
      </p>
      {turns.map((t) => (
        <div key={t.response.response_id} className="stack">
          <div className="muted">You: {t.message}</div>
          <div className="reply" data-testid="assistant-reply">
            {t.response.assistant_text}
          </div>
          {t.response.ui_hints.proposal_previews.map((p) => (
            <ProposalCard key={p.proposal_id} proposal={p} status="pending" />
          ))}
        </div>
      ))}
      <form onSubmit={submit} className="stack">
        <label htmlFor="chat-message" className="muted">
          Message{threadId ? ` (thread ${threadId})` : ""}
        </label>
        <textarea
          id="chat-message"
          rows={3}
          value={message}
          onChange={(e) => setMessage(e.target.value)}
          maxLength={8000}
        />
        <div className="row">
          <button type="submit" className="primary" disabled={respond.isPending || message.trim().length === 0}>
            {respond.isPending ? "Sending…" : "Send"}
          </button>
          {respond.error ? (
            <span className="error" role="alert">
              {respond.error.message}
            </span>
          ) : null}
        </div>
      </form>
    </section>
  );
}
