import { describe, expect, it } from "vitest";
import { formatMs, waterfall } from "@/components/chat/trace-waterfall";

const at = (ms: number) => new Date(Date.UTC(2026, 10, 27, 12, 0, 0, ms)).toISOString();

describe("trace waterfall", () => {
  it("places a step that recorded its duration that long before its event, others since the previous event", () => {
    const { rows, totalMs } = waterfall([
      { seq: 0, phase: "packet", created_ts: at(0) },
      { seq: 1, phase: "breakpoint", created_ts: at(2), metadata: { duration_ms: 1.5 } },
      { seq: 2, phase: "attempt", created_ts: at(340), metadata: { latency_ms: 335 } },
      { seq: 3, phase: "store", created_ts: at(345) },
    ]);
    expect(rows).toEqual([
      { seq: 0, startMs: 0, durationMs: 0 },
      { seq: 1, startMs: 0.5, durationMs: 1.5 },
      { seq: 2, startMs: 5, durationMs: 335 },
      { seq: 3, startMs: 340, durationMs: 5 },
    ]);
    expect(totalMs).toBe(345);
  });

  it("never starts a step before the turn, even when its recorded duration is longer than the clock says", () => {
    const { rows } = waterfall([
      { seq: 0, phase: "packet", created_ts: at(0) },
      { seq: 1, phase: "selector", created_ts: at(3), metadata: { duration_ms: 26 } },
    ]);
    expect(rows[1]?.startMs).toBe(0);
    expect(rows[1]?.durationMs).toBeLessThanOrEqual(26);
  });

  it("is empty without events or timestamps; formats durations for people", () => {
    expect(waterfall([])).toEqual({ rows: [], totalMs: 0 });
    expect([formatMs(0.4), formatMs(12.4), formatMs(1234), formatMs(15_000)]).toEqual([
      "<1 ms",
      "12 ms",
      "1.23 s",
      "15.0 s",
    ]);
  });
});
