"use client";
import type { TChatRespondRequest, TChatRespondResponse, TProcedureChoice, TProcedureView } from "@solserver/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { type FormEvent, useEffect, useState } from "react";
import { streamTurn } from "@/lib/stream-turn";
import { useTRPC } from "@/lib/trpc";
import { ProposalCard } from "../review/proposal-card";
import { ChatHistory } from "./chat-history";
import { ProcedurePanel } from "./procedure-panel";

/** The thread the chat is on, kept per browser so a reload (or coming back later) continues it. */
const THREAD_KEY = "solserver-chat-thread";

/** Procedure mode for a new thread: the catalog's systems, detection, or a plain chat. */
function ProcedurePicker({ value, onChange }: { value: TProcedureChoice; onChange: (v: TProcedureChoice) => void }) {
  const trpc = useTRPC();
  const catalog = useQuery(trpc.procedures.catalog.queryOptions());
  return (
    <div className="row">
      <label htmlFor="chat-procedure" className="muted">
        Guided diagnosis
      </label>
      <select id="chat-procedure" value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="none">None: plain chat</option>
        <option value="auto">Detect the system from my message</option>
        {catalog.data?.systems.map((s) => (
          <option key={s.system_id} value={s.system_id}>
            {s.title} ({s.steps} steps)
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * The thread to continue: ?thread=<id> (from the threads list), else the one this browser was on
 * (kept in localStorage as it changes).
 */
function useStoredThread() {
  const params = useSearchParams();
  const [threadId, setThreadIdState] = useState<string | undefined>(undefined);
  const setThreadId = (id: string | undefined) => {
    setThreadIdState(id);
    if (id) window.localStorage.setItem(THREAD_KEY, id);
    else window.localStorage.removeItem(THREAD_KEY);
  };
  const wanted = params.get("thread");
  useEffect(() => {
    const id = wanted ?? window.localStorage.getItem(THREAD_KEY);
    if (id) setThreadIdState(id);
  }, [wanted]);
  return { threadId, setThreadId, wanted };
}

/** What to say here: a guided diagnosis, or decisions and questions for the knowledge base. */
function ChatIntro({ guided }: { guided: boolean }) {
  return guided ? (
    <p className="muted">
      A guided diagnosis: answer the active step, ask where, how or why, or correct an earlier answer (&ldquo;actually
      the fuse was blown&rdquo;). The context engine picks every next step.
    </p>
  ) : (
    <p className="muted">
      Say what you decided (&ldquo;we decided to &hellip;&rdquo;, &ldquo;remember that &hellip;&rdquo;) or ask a
      question. Answers come from the knowledge base; new knowledge is proposed for review. Pick a system under Guided
      diagnosis to be walked through a repair procedure.
    </p>
  );
}

/** The turns sent from this page, and the answer streaming in. */
function Turns({
  turns,
  streaming,
}: {
  turns: readonly { message: string; response: TChatRespondResponse }[];
  streaming: { message: string; text: string } | null;
}) {
  return (
    <>
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
      {streaming ? (
        <div className="stack" aria-live="polite">
          <div className="muted">You: {streaming.message}</div>
          <div className="reply" data-testid="streaming-reply" aria-busy="true">
            {streaming.text === "" ? <span className="muted">…</span> : streaming.text}
          </div>
        </div>
      ) : null}
    </>
  );
}

export function ChatPanel() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [message, setMessage] = useState("");
  const { threadId, setThreadId, wanted } = useStoredThread();
  const [turns, setTurns] = useState<{ message: string; response: TChatRespondResponse }[]>([]);
  // Procedure mode: chosen before the first message; once the server binds the thread, its view.
  const [procedureChoice, setProcedureChoice] = useState<TProcedureChoice>("none");
  const [procedure, setProcedure] = useState<TProcedureView | null>(null);
  // The request_id of a send that has not succeeded yet. Sending the same request again (the same
  // message, thread and procedure choice, after a timeout or a lost answer) reuses it, so the
  // server replays instead of storing the turn twice; anything else is a new request.
  const [unconfirmed, setUnconfirmed] = useState<{ id: string; body: string } | null>(null);
  // The answer as it streams in: which attempt is writing and its text so far (see stream-turn.ts).
  const [streaming, setStreaming] = useState<{ message: string; n: number; text: string } | null>(null);
  const respond = useMutation({
    mutationFn: (input: TChatRespondRequest) =>
      streamTurn(input, {
        onDelta: (n, text) =>
          setStreaming((prev) => ({
            message: input.message,
            n,
            text: prev !== null && prev.n === n ? prev.text + text : text,
          })),
        // An attempt the gate refused: what it showed is not the answer.
        onRetract: (n) => setStreaming((prev) => (prev !== null && prev.n === n ? { ...prev, text: "" } : prev)),
      }),
    onSuccess: async (response, variables) => {
      setUnconfirmed(null);
      setThreadId(response.thread_id);
      setTurns((prev) => [...prev, { message: variables.message, response }]);
      if (response.procedure) setProcedure(response.procedure);
      // Clear the box only if it still holds what was sent (an option button sends other text).
      setMessage((current) => (current === variables.message ? "" : current));
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: trpc.proposals.pathKey() }),
        queryClient.invalidateQueries({ queryKey: trpc.threads.pathKey() }),
      ]);
    },
    onSettled: () => setStreaming(null),
  });

  function send(text: string) {
    if (text.trim().length === 0) return;
    const request = {
      message: text,
      ...(threadId ? { thread_id: threadId } : {}),
      // A bound thread keeps its procedure; the choice matters until the server binds one.
      ...(procedure === null && procedureChoice !== "none" ? { procedure: procedureChoice } : {}),
    };
    const body = JSON.stringify(request);
    const requestId = unconfirmed?.body === body ? unconfirmed.id : crypto.randomUUID();
    setUnconfirmed({ id: requestId, body });
    setStreaming({ message: text, n: 0, text: "" });
    respond.mutate({ ...request, request_id: requestId });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    send(message);
  }

  return (
    <section className="panel stack" aria-labelledby="chat-heading">
      <div className="row spread">
        <h1 id="chat-heading" className="page-title">
          Chat
        </h1>
        {threadId ? (
          <button
            type="button"
            // Not while a turn is on its way: its answer would land in the new thread.
            disabled={respond.isPending}
            onClick={() => {
              setThreadId(undefined);
              if (wanted) window.history.replaceState(null, "", "/chat");
              setTurns([]);
              setUnconfirmed(null);
              setProcedure(null);
            }}
          >
            New thread
          </button>
        ) : null}
      </div>
      <ChatIntro guided={procedure !== null} />
      {procedure === null && !threadId ? (
        <ProcedurePicker value={procedureChoice} onChange={setProcedureChoice} />
      ) : null}
      {threadId ? (
        <ChatHistory
          threadId={threadId}
          shownHere={turns.length}
          onMissing={() => setThreadId(undefined)}
          onProcedure={setProcedure}
        />
      ) : null}
      <Turns turns={turns} streaming={streaming} />
      {procedure ? <ProcedurePanel view={procedure} onAnswer={send} busy={respond.isPending} /> : null}
      <form onSubmit={submit} className="stack" data-thread-id={threadId ?? ""}>
        <label htmlFor="chat-message" className="muted">
          Message
        </label>
        <textarea
          id="chat-message"
          rows={3}
          value={message}
          onChange={(e) => setMessage(e.target.value)}
          // Ctrl+Enter (⌘+Enter on a Mac) sends; Enter alone is a new line.
          onKeyDown={(e) => {
            if (e.key === "Enter" && (e.ctrlKey || e.metaKey) && !respond.isPending) {
              e.preventDefault();
              send(message);
            }
          }}
          aria-keyshortcuts="Control+Enter Meta+Enter"
          maxLength={8000}
        />
        <div className="row">
          <button type="submit" className="primary" disabled={respond.isPending || message.trim().length === 0}>
            {respond.isPending ? "Sending…" : "Send"}
          </button>
          <span className="muted hide-narrow">
            <kbd>Ctrl</kbd>+<kbd>Enter</kbd> sends
          </span>
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
