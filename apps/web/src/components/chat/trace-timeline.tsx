import type { TThreadDetail } from "@solserver/contracts";
import Link from "next/link";
import { ClaimsView } from "../knowledge/claims-view";
import { formatTs } from "../ui/format";
import { formatMs, PHASE_WORDS, waterfall } from "./trace-waterfall";

// As the tRPC client infers it: an `unknown` field comes out optional.
type TraceEvent = Omit<TThreadDetail["turns"][number]["trace"][number], "metadata"> & { metadata?: unknown };
export type Turn = Omit<TThreadDetail["turns"][number], "trace"> & { trace: TraceEvent[] };

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

/** What the thread page's filter reads of a turn: SKIP, a gate WARN on the delivered answer, any attempt BLOCKed. */
export function turnFlags(turn: Turn): { skip: boolean; warn: boolean; block: boolean } {
  const gates = turn.trace.filter((e) => e.phase === "gate").map((e) => record(e.metadata).status);
  return {
    skip: decisionOf(turn.trace.find((e) => e.phase === "breakpoint")) === "SKIP",
    warn: gates.at(-1) === "WARN",
    block: gates.includes("BLOCK"),
  };
}

/** What a turn's model calls cost in tokens (and dollars, when the provider said). */
function usageOf(trace: readonly TraceEvent[]): string | null {
  const model = record(trace.find((e) => e.phase === "model")?.metadata);
  const tokensIn = typeof model.tokens_in === "number" ? model.tokens_in : null;
  const tokensOut = typeof model.tokens_out === "number" ? model.tokens_out : null;
  const cost = typeof model.cost_usd === "number" ? ` · $${model.cost_usd.toFixed(4)}` : "";
  if (tokensIn === null && tokensOut === null) return null;
  return `${(tokensIn ?? 0) + (tokensOut ?? 0)} tokens (${tokensIn ?? "?"} in, ${tokensOut ?? "?"} out)${cost}`;
}

/** Why retrieval injected a CFB: the message's words it holds, and how close its meaning is. */
function why(c: Turn["context_window"][number]): string | null {
  const parts: string[] = [];
  if (c.matched && c.matched.length > 0) parts.push(`words: ${c.matched.join(", ")}`);
  if (c.similarity !== null) parts.push(`meaning ${Math.round(Math.max(0, c.similarity) * 100)}% alike`);
  if (parts.length === 0 && c.score !== null) parts.push(`match ${c.score.toFixed(2)}`);
  return parts.length > 0 ? parts.join(" · ") : null;
}

/** The CFBs retrieval put in front of the model, best first, why, and which the answer says it used. */
function ContextWindow({ cfbs }: { cfbs: Turn["context_window"] }) {
  return (
    <div className="stack" data-testid="context-window">
      <span className="muted">
        Context window: {cfbs.length === 0 ? "no CFBs injected" : `${cfbs.length} CFB${cfbs.length === 1 ? "" : "s"}`}
      </span>
      {cfbs.length > 0 ? (
        <ul className="plain context-window">
          {cfbs.map((c) => (
            <li key={c.cfb_id} className="row" data-used={c.used}>
              <span className={`badge ${c.used ? "ok" : "skipped"}`}>{c.used ? "used" : "not used"}</span>
              <Link href={`/cfbs/${c.cfb_id}`}>{c.title ?? c.cfb_id}</Link>
              {why(c) ? <span className="muted">{why(c)}</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/**
 * One turn of a thread: the message and the answer, the CFBs in its context window, then its
 * steps as a waterfall (where each started and how long it took on the turn's time axis), each
 * with its summary and metadata.
 */
/**
 * One turn: its verdicts, message and answer, the CFBs injected and why, and its trace, whose
 * steps fold away (a trace is ~1,000 px): open for the latest turn, or when `expanded`.
 */
export function TraceTimeline({ turn, index, expanded }: { turn: Turn; index: number; expanded: boolean }) {
  const headingId = `turn-${turn.packet_id}`;
  const breakpoint = turn.trace.find((e) => e.phase === "breakpoint");
  const decision = decisionOf(breakpoint);
  const peak = record(breakpoint?.metadata).peakGuardrailActive === true;
  const attempts = turn.trace.filter((e) => e.phase === "attempt").length;
  // The output gate's verdict on the attempt that was delivered (the last one judged).
  const gateStatus = record(turn.trace.filter((e) => e.phase === "gate").at(-1)?.metadata).status;
  const gate = typeof gateStatus === "string" ? gateStatus : null;
  const { rows, totalMs } = waterfall(turn.trace);
  const rowOf = new Map(rows.map((r) => [r.seq, r]));
  const usage = usageOf(turn.trace);
  // Retention pruned this turn's trace: the decision, gate verdict and attempts went with it.
  const prunedDays = turn.trace_pruned_after_days;
  return (
    <article className="card stack" aria-labelledby={headingId} data-testid="turn">
      <div className="row spread">
        <h3 id={headingId}>Turn {index + 1}</h3>
        <time className="muted" dateTime={turn.created_ts}>
          {formatTs(turn.created_ts)}
        </time>
      </div>
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
        {rows.length > 0 ? (
          <span className="muted" data-testid="turn-total">
            {formatMs(totalMs)} in all
          </span>
        ) : null}
        {usage ? <span className="muted">{usage}</span> : null}
      </p>
      <div className="stack turn-exchange">
        <p className="message" data-testid="turn-message">
          <span className="muted">Message: </span>
          {turn.message}
        </p>
        {turn.answer ? (
          <p className="reply" data-testid="turn-answer">
            {turn.answer.assistant_text}
          </p>
        ) : (
          <p className="muted">No answer was delivered.</p>
        )}
      </div>
      <ContextWindow cfbs={turn.context_window} />
      {turn.answer ? <ClaimsView answer={turn.answer} /> : null}
      {prunedDays !== null ? (
        <p className="muted" data-testid="trace-pruned">
          Trace pruned after {prunedDays} {prunedDays === 1 ? "day" : "days"} (retention); the messages and the answer
          are kept.
        </p>
      ) : turn.trace.length === 0 ? (
        <p className="muted">No trace events.</p>
      ) : (
        <details className="trace-steps" open={expanded} data-testid="trace-steps">
          <summary>
            Trace: {turn.trace.length} {turn.trace.length === 1 ? "step" : "steps"}
            {rows.length > 0 ? `, ${formatMs(totalMs)}` : ""}
          </summary>
          <ol className="plain timeline" aria-label={`Trace of turn ${index + 1}`}>
            {turn.trace.map((e) => {
              const row = rowOf.get(e.seq);
              return (
                <li key={e.seq} className={`timeline-event status-${e.status.toLowerCase()}`} data-phase={e.phase}>
                  <div className="row">
                    <span className="phase" title={e.phase}>
                      {PHASE_WORDS[e.phase] ?? e.phase}
                    </span>
                    <span className={statusClass(e.status)} data-testid="trace-status">
                      {e.status}
                    </span>
                    {row ? (
                      <span className="muted nowrap" data-testid="step-duration">
                        {formatMs(row.durationMs)}
                      </span>
                    ) : null}
                  </div>
                  {row ? (
                    <svg className="waterfall-bar" viewBox="0 0 1000 8" preserveAspectRatio="none" aria-hidden="true">
                      <rect
                        x={(row.startMs / totalMs) * 1000}
                        y={0}
                        width={Math.max(4, (row.durationMs / totalMs) * 1000)}
                        height={8}
                        rx={2}
                      />
                    </svg>
                  ) : null}
                  <p className="message">{e.summary}</p>
                  <Metadata value={e.metadata} />
                </li>
              );
            })}
          </ol>
        </details>
      )}
    </article>
  );
}
