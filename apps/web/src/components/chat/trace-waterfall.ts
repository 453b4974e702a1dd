// A turn's steps on one time axis (the trace inspector's waterfall): where each step started and
// how long it took, from the events' timestamps and the durations the steps recorded.

export type TWaterfallEvent = { seq: number; phase: string; created_ts: string; metadata?: unknown };
export type TWaterfallRow = { seq: number; startMs: number; durationMs: number };

/** Each step's own duration when it recorded one (`duration_ms`, or a model attempt's `latency_ms`). */
function recordedMs(metadata: unknown): number | null {
  const m = (metadata ?? {}) as { duration_ms?: unknown; latency_ms?: unknown };
  const value = typeof m.duration_ms === "number" ? m.duration_ms : m.latency_ms;
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : null;
}

/**
 * Rows of the waterfall, in trace order, and the turn's total. An event is written when its step
 * ends: a step that recorded its duration started that long before; one that did not ran since
 * the previous event ended. Starts are clamped at the turn's start (clocks round to the ms).
 */
export function waterfall(events: readonly TWaterfallEvent[]): { rows: TWaterfallRow[]; totalMs: number } {
  const times = events.map((e) => Date.parse(e.created_ts));
  const start = Math.min(...times.filter(Number.isFinite));
  if (!Number.isFinite(start)) return { rows: [], totalMs: 0 };
  let previousEnd = 0;
  const rows = events.map((e, i) => {
    const end = Math.max(0, (times[i] ?? start) - start);
    const duration = recordedMs(e.metadata) ?? Math.max(0, end - previousEnd);
    const startMs = Math.max(0, Math.min(end, end - duration));
    previousEnd = Math.max(previousEnd, end);
    return { seq: e.seq, startMs, durationMs: Math.min(duration, end - startMs || duration) };
  });
  const totalMs = Math.max(1, ...rows.map((r) => r.startMs + r.durationMs));
  return { rows, totalMs };
}

/** "12 ms", "1.2 s": a duration at the precision a reader needs. */
export function formatMs(ms: number): string {
  if (ms < 1) return "<1 ms";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

/** Each step's name in words (the stored phase is the code's). */
export const PHASE_WORDS: Record<string, string> = {
  packet: "Request",
  breakpoint: "Breakpoint",
  selector: "Routing",
  context: "Context engine",
  retrieval: "Retrieval",
  attempt: "Model attempt",
  gate: "Output gate",
  model: "Model",
  claims: "Claim check",
  proposals: "Proposals",
  resolve: "Resolve",
  memento: "Thread summary",
  store: "Stored",
};
