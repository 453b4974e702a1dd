"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { type TRouterOutputs, useTRPC } from "@/lib/trpc";
import { formatTs } from "../ui/format";
import { QueryState } from "../ui/query-state";
import { ProcedurePanel } from "./procedure-panel";
import { ThreadNotes } from "./thread-notes";
import { TraceTimeline, turnFlags } from "./trace-timeline";

const TURN_FILTERS = { all: "all turns", skip: "SKIP", warn: "gate WARN", block: "gate BLOCK" } as const;
type TTurnFilter = keyof typeof TURN_FILTERS;

/** A procedure thread's diagnosis (seed 004): the context engine's state and the final report. */
function ThreadProcedure({ threadId }: { threadId: string }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.procedures.get.queryOptions({ thread_id: threadId }));
  return (
    <QueryState query={query} what="the diagnosis">
      {(view) => <ProcedurePanel view={view} />}
    </QueryState>
  );
}

/** One thread: its messages, then each turn with a timeline of the trace its pipeline wrote. */
export function ThreadDetail({ threadId }: { threadId: string }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.threads.get.queryOptions({ thread_id: threadId }));
  return (
    <QueryState query={query} what={`thread ${threadId}`}>
      {(thread) => <Thread thread={thread} />}
    </QueryState>
  );
}

function Thread({ thread }: { thread: TRouterOutputs["threads"]["get"] }) {
  const [filter, setFilter] = useState<TTurnFilter>("all");
  const [expandAll, setExpandAll] = useState(false);
  const flagged = thread.turns.map((turn, i) => ({ turn, i, flags: turnFlags(turn) }));
  const shown = flagged.filter(({ flags }) => filter === "all" || flags[filter]);
  return (
    <div className="stack">
      <p>
        <Link href="/threads">← All threads</Link>
      </p>
      <section className="panel stack" aria-labelledby="thread-heading">
        <h1 id="thread-heading" className="page-title">
          {thread.title || thread.thread_id}
        </h1>
        <p className="muted">
          {thread.owner_email ? `${thread.owner_email} · ` : ""}updated {formatTs(thread.updated_ts)}
        </p>
        <h2>Messages</h2>
        {thread.messages.length === 0 ? <p className="muted">No messages.</p> : null}
        <ol className="stack plain" data-testid="thread-messages">
          {thread.messages.map((m) => (
            <li key={m.id} className={m.role === "assistant" ? "reply" : "card"}>
              <div className="row">
                <span className="badge">{m.role}</span>
                <span className="muted">{formatTs(m.created_ts)}</span>
              </div>
              <p className="message">{m.content}</p>
            </li>
          ))}
        </ol>
      </section>
      <ThreadNotes threadId={thread.thread_id} />
      {thread.procedure_system_id ? <ThreadProcedure threadId={thread.thread_id} /> : null}
      <section className="panel stack" aria-labelledby="turns-heading">
        <h2 id="turns-heading">Turns and traces</h2>
        {thread.turns.length === 0 ? <p className="muted">No turns recorded.</p> : null}
        {thread.turns.length > 1 ? (
          <button type="button" className="link-button" onClick={() => setExpandAll(!expandAll)}>
            {expandAll ? "Fold earlier traces" : "Unfold every trace"}
          </button>
        ) : null}
        {thread.turns.length > 1 ? (
          <fieldset className="tabs" aria-label="Show turns">
            {(Object.keys(TURN_FILTERS) as TTurnFilter[]).map((f) => (
              <button key={f} type="button" aria-pressed={filter === f} onClick={() => setFilter(f)}>
                {TURN_FILTERS[f]} ({f === "all" ? flagged.length : flagged.filter((t) => t.flags[f]).length})
              </button>
            ))}
          </fieldset>
        ) : null}
        {shown.length === 0 && thread.turns.length > 0 ? <p className="muted">No turn matches.</p> : null}
        {shown.map(({ turn, i }) => (
          <TraceTimeline
            key={turn.packet_id}
            turn={turn}
            index={i}
            expanded={expandAll || i === thread.turns.length - 1}
          />
        ))}
      </section>
    </div>
  );
}
