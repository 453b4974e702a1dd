import type { TThreadDetail } from "@solserver/contracts";
import { ClaimsView } from "./claims-view";

// As the tRPC client infers it: an `unknown` field comes out optional.
type TraceEvent = Omit<TThreadDetail["turns"][number]["trace"][number], "metadata"> & { metadata?: unknown };
type Turn = Omit<TThreadDetail["turns"][number], "trace"> & { trace: TraceEvent[] };

function record(value: unknown): Record<string, unknown> {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function statusClass(status: string): string {
  if (/^(ok|done|succeeded|success|stored|completed)$/i.test(status)) return "badge ok";
  if (/fail|error|refused|rejected/i.test(status)) return "badge bad";
  if (/^skipped$/i.test(status)) return "badge skipped";
  return "badge";
}

/** The turn's breakpoint decision (MUST / SHOULD / SKIP), from the metadata or else the summary. */
function decisionOf(event: TraceEvent | undefined): string | null {
  if (!event) return null;
  const decision = record(event.metadata).decision;
  if (typeof decision === "string" && decision) return decision.toUpperCase();
  return event.summary.match(/Breakpoint decision:\s*(\w+)/i)?.[1]?.toUpperCase() ?? null;
}

/** "+12 ms" from the turn's first event; the first event reads "+0 ms". */
function offset(ts: string, start: number): string {
  const ms = Date.parse(ts) - start;
  return Number.isFinite(ms) ? `+${ms.toLocaleString("en-US")} ms` : "";
}

function Metadata({ value }: { value: unknown }) {
  if (value === null || value === undefined) return null;
  if (typeof value === "object" && Object.keys(value).length === 0) return null;
  return (
    <details className="trace-meta">
      <summary>Metadata</summary>
      <pre>{JSON.stringify(value, null, 2)}</pre>
    </details>
  );
}

/** One turn of a thread: a header with its decision, guardrail and attempts, then its timeline. */
export function TraceTimeline({ turn, index }: { turn: Turn; index: number }) {
  const headingId = `turn-${turn.packet_id}`;
  const breakpoint = turn.trace.find((e) => e.phase === "breakpoint");
  const decision = decisionOf(breakpoint);
  const peak = record(breakpoint?.metadata).peakGuardrailActive === true;
  const attempts = turn.trace.filter((e) => e.phase === "attempt").length;
  // The output gate's verdict on the attempt that was delivered (the last one judged).
  const gateStatus = record(turn.trace.filter((e) => e.phase === "gate").at(-1)?.metadata).status;
  const gate = typeof gateStatus === "string" ? gateStatus : null;
  const times = turn.trace.map((e) => Date.parse(e.created_ts)).filter(Number.isFinite);
  const start = times.length > 0 ? Math.min(...times) : 0;
  // Retention pruned this turn's trace: the decision, gate verdict and attempts went with it.
  const prunedDays = turn.trace_pruned_after_days;
  return (
    <article className="card stack" aria-labelledby={headingId} data-testid="turn">
      <h3 id={headingId}>Turn {index + 1}</h3>
      <p className="row turn-header">
        {decision ? (
          <span className={`badge decision-${decision.toLowerCase()}`} data-testid="breakpoint-decision">
            {decision}
          </span>
        ) : prunedDays === null ? (
          <span className="muted">no decision</span>
        ) : null}
        {peak ? <span className="badge warn">peak guardrail</span> : null}
        {gate ? (
          <span
            className={`badge ${gate === "ALLOW" ? "ok" : gate === "WARN" ? "warn" : "bad"}`}
            data-testid="gate-decision"
          >
            gate {gate}
          </span>
        ) : null}
        {turn.router_domain ? (
          <span className="badge" data-testid="router-domain" title={`modeLabel ${turn.mode_label ?? ""}`}>
            {turn.router_domain}
          </span>
        ) : null}
        {prunedDays === null ? (
          <span className="muted">
            {attempts} {attempts === 1 ? "attempt" : "attempts"}
          </span>
        ) : null}
        <span className="muted trace-ids">
          {turn.packet_id}
          {turn.transmission_id ? ` · ${turn.transmission_id}` : ""}
        </span>
      </p>
      {turn.answer ? <ClaimsView answer={turn.answer} /> : null}
      {prunedDays !== null ? (
        <p className="muted" data-testid="trace-pruned">
          Trace pruned after {prunedDays} {prunedDays === 1 ? "day" : "days"} (retention); the messages and the answer
          are kept.
        </p>
      ) : turn.trace.length === 0 ? (
        <p className="muted">No trace events.</p>
      ) : (
        <ol className="plain timeline" aria-label={`Trace of turn ${index + 1}`}>
          {turn.trace.map((e) => (
            <li key={e.seq} className={`timeline-event status-${e.status.toLowerCase()}`} data-phase={e.phase}>
              <div className="row">
                <code className="phase">{e.phase}</code>
                <span className={statusClass(e.status)} data-testid="trace-status">
                  {e.status}
                </span>
                <time className="muted nowrap" dateTime={e.created_ts} title={e.created_ts}>
                  {offset(e.created_ts, start)}
                </time>
              </div>
              <p className="message">{e.summary}</p>
              <Metadata value={e.metadata} />
            </li>
          ))}
        </ol>
      )}
    </article>
  );
}
