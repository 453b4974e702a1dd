// The web server's pruning timer: a first prune after the start-up delay, then one per interval,
// a line in the log only when something was deleted, errors logged without stopping the loop,
// and timers that do not keep the process alive. Pruning itself is retention.test.ts's.
import type { TRepositories } from "@solserver/db";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startRetentionTimer } from "../src/retention/timer";
import { DEFAULT_LIMITS, DEFAULT_RETENTION } from "../src/services/deps";

const storage = { fileBytes: 8 * 1_048_576, freeBytes: 2 * 1_048_576, tables: {} };

/** Repositories whose retention part answers from a script: old rows the first time, then none. */
function fakeRepos(failFirst: boolean) {
  let counted = 0;
  const retention = {
    count: vi.fn(async () => {
      counted++;
      if (failFirst && counted === 1) throw new Error("database is locked");
      return counted <= (failFirst ? 2 : 1)
        ? { traceRuns: 3, traceEvents: 30, gateEvaluations: 2 }
        : { traceRuns: 0, traceEvents: 0, gateEvaluations: 0 };
    }),
    pruneTraceBatch: vi.fn(async () => ({ runs: 3, events: 30 })),
    pruneGateBatch: vi.fn(async () => 2),
    countLimitStates: vi.fn(async () => 0),
    pruneLimitStateBatch: vi.fn(async () => 0),
    storage: vi.fn(async () => storage),
    vacuum: vi.fn(async () => {}),
    analyze: vi.fn(async () => {}),
  };
  return { repos: { retention } as unknown as TRepositories, retention };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("startRetentionTimer", () => {
  it("prunes after the first delay and then every interval, logging only what it deleted", async () => {
    const { repos, retention } = fakeRepos(true);
    const log: string[] = [];
    const timer = startRetentionTimer({
      deps: async () => ({
        repos,
        retention: DEFAULT_RETENTION,
        limits: DEFAULT_LIMITS,
        now: () => new Date("2026-11-27T03:00:00Z"),
      }),
      intervalMs: 3_600_000,
      firstDelayMs: 60_000,
      log: (l) => log.push(l),
      error: (l) => log.push(`E ${l}`),
    });
    await vi.advanceTimersByTimeAsync(59_000);
    expect(retention.count).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(log).toEqual(["E retention: prune failed: database is locked"]);
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(log[1]).toBe(
      "retention: deleted 3 trace runs (30 events), 2 gate decisions in 2 batches, 0 ms; 2 MB free for new rows",
    );
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(retention.count).toHaveBeenCalledTimes(3);
    expect(log).toHaveLength(2);
    timer.stop();
    await vi.advanceTimersByTimeAsync(10 * 3_600_000);
    expect(retention.count).toHaveBeenCalledTimes(3);
  });

  it("does not keep the process alive", () => {
    const spy = vi.spyOn(globalThis, "setTimeout");
    const { repos } = fakeRepos(false);
    const timer = startRetentionTimer({
      deps: async () => ({ repos, retention: DEFAULT_RETENTION, limits: DEFAULT_LIMITS, now: () => new Date() }),
      intervalMs: 1000,
      firstDelayMs: 1000,
      log: () => {},
      error: () => {},
    });
    const armed = spy.mock.results[0]?.value as NodeJS.Timeout;
    expect(armed.hasRef()).toBe(false);
    timer.stop();
    spy.mockRestore();
  });
});
