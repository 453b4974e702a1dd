// The web server's schedule timer: one tick per interval, never two at once in a process (a slow
// tick delays the next), quiet when nothing was due, errors logged without stopping the loop, and
// timers that do not keep the process alive. Its interval comes from SOLSERVER_SCHEDULER_INTERVAL_MS.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { loadServerEnv } from "../src/env";
import type { TTickReport } from "../src/services/schedules";
import { startScheduler } from "../src/workflows/scheduler";

const idle: TTickReport = { now_ts: "2025-03-03T06:00:00.000Z", handled: [], upcoming: [], checkpoints: [] };
const started: TTickReport = {
  ...idle,
  handled: [
    {
      workflow: "umbra-beat",
      due_ts: "2025-03-03T06:00:00.000Z",
      outcome: "started",
      run_id: "WR-0007",
      detail: null,
      next_run_ts: "2025-03-04T06:00:00.000Z",
    },
  ],
};

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("startScheduler", () => {
  it("ticks every interval, logs only what happened, and goes on after a failed tick", async () => {
    const reports = [idle, started, new Error("database is locked"), idle];
    const tick = vi.fn(async () => {
      const next = reports.shift() ?? idle;
      if (next instanceof Error) throw next;
      return next;
    });
    const log: string[] = [];
    const loop = startScheduler({ tick, intervalMs: 1000, log: (l) => log.push(l), error: (l) => log.push(`E ${l}`) });
    expect(tick).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(4000);
    expect(tick).toHaveBeenCalledTimes(4);
    expect(log).toEqual([
      "scheduler: umbra-beat (due 2025-03-03T06:00:00.000Z): started WR-0007; next 2025-03-04T06:00:00.000Z",
      "E scheduler: tick failed: database is locked",
    ]);
    loop.stop();
    await vi.advanceTimersByTimeAsync(5000);
    expect(tick).toHaveBeenCalledTimes(4);
  });

  it("never runs two ticks at once: the next interval starts when a slow tick ends", async () => {
    let running = 0;
    let most = 0;
    const tick = vi.fn(async () => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 2500));
      running--;
      return idle;
    });
    const loop = startScheduler({ tick, intervalMs: 1000, log: () => {}, error: () => {} });
    await vi.advanceTimersByTimeAsync(10_000);
    loop.stop();
    expect(most).toBe(1);
    // 1 s wait + 2.5 s tick per round: three rounds started in ten seconds, not ten.
    expect(tick).toHaveBeenCalledTimes(3);
  });

  it("does not keep the process alive", () => {
    const spy = vi.spyOn(globalThis, "setTimeout");
    const loop = startScheduler({ tick: async () => idle, intervalMs: 1000, log: () => {}, error: () => {} });
    const timer = spy.mock.results[0]?.value as NodeJS.Timeout;
    expect(timer.hasRef()).toBe(false);
    loop.stop();
    spy.mockRestore();
  });
});

describe("SOLSERVER_SCHEDULER_INTERVAL_MS", () => {
  const env = (value?: string) =>
    loadServerEnv({
      BETTER_AUTH_SECRET: "test-secret-test-secret-test-secret-0123",
      ...(value === undefined ? {} : { SOLSERVER_SCHEDULER_INTERVAL_MS: value }),
    }).SOLSERVER_SCHEDULER_INTERVAL_MS;

  it("defaults to a minute; 0 turns the timer off", () => {
    expect(env()).toBe(60_000);
    expect(env("0")).toBe(0);
    expect(env("5000")).toBe(5000);
  });

  it.each([
    ["500", "must be 0 (off) or at least 1000 (milliseconds)"],
    ["-1", "must be 0 (off) or at least 1000 (milliseconds)"],
    ["1.5", "must be a whole number of milliseconds (0 turns the scheduler off)"],
    ["100000000", "must be at most 86400000 (a day)"],
  ])("refuses %s, naming the variable", (value, rule) => {
    expect(() => env(value)).toThrow(`SOLSERVER_SCHEDULER_INTERVAL_MS: ${rule}`);
  });
});
