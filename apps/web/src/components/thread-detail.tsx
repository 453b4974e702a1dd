"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "@/lib/trpc";
import { formatTs } from "./format";
import { QueryError } from "./require-session";

function statusClass(status: string): string {
  if (/^(ok|done|succeeded|success|stored|completed)$/i.test(status)) return "badge ok";
  if (/fail|error|refused|rejected/i.test(status)) return "badge bad";
  return "badge";
}

/** One thread: its messages, then each turn with the trace its pipeline wrote. */
export function ThreadDetail({ threadId }: { threadId: string }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.threads.get.queryOptions({ thread_id: threadId }));
  if (query.isPending) return <p className="muted">Loading thread {threadId}…</p>;
  if (query.error) return <QueryError error={query.error} what={`thread ${threadId}`} />;
  const thread = query.data;
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
          {thread.thread_id}
          {thread.owner_email ? ` · ${thread.owner_email}` : ""} · updated {formatTs(thread.updated_ts)}
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
      <section className="panel stack" aria-labelledby="turns-heading">
        <h2 id="turns-heading">Turns and traces</h2>
        {thread.turns.length === 0 ? <p className="muted">No turns recorded.</p> : null}
        {thread.turns.map((turn) => (
          <article key={turn.packet_id} className="card stack" aria-label={`Turn ${turn.packet_id}`}>
            <div className="row">
              <strong>{turn.packet_id}</strong>
              {turn.transmission_id ? <span className="muted">{turn.transmission_id}</span> : null}
            </div>
            {turn.trace.length === 0 ? (
              <p className="muted">No trace events.</p>
            ) : (
              <div className="table-wrap">
                <table className="data">
                  <thead>
                    <tr>
                      <th>#</th>
                      <th>Phase</th>
                      <th>Status</th>
                      <th>Summary</th>
                      <th>Actor</th>
                      <th>When</th>
                    </tr>
                  </thead>
                  <tbody>
                    {turn.trace.map((e) => (
                      <tr key={e.seq}>
                        <td>{e.seq}</td>
                        <td>
                          <code>{e.phase}</code>
                        </td>
                        <td>
                          <span className={statusClass(e.status)}>{e.status}</span>
                        </td>
                        <td>{e.summary}</td>
                        <td className="muted">{e.actor}</td>
                        <td className="nowrap muted">{formatTs(e.created_ts)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </article>
        ))}
      </section>
    </div>
  );
}
