// The job workers' settings (docs/operations.md#background-work): whether the web process runs
// jobs, and how often the recurring ones run, each refused with the variable and its rule.
import { describe, expect, it } from "vitest";
import { loadServerEnv } from "../src/env";

const base = { BETTER_AUTH_SECRET: "test-secret-test-secret-test-secret-0123" };

describe("SOLSERVER_JOB_WORKERS", () => {
  const env = (value?: string) =>
    loadServerEnv({ ...base, ...(value === undefined ? {} : { SOLSERVER_JOB_WORKERS: value }) }).jobWorkers;

  it("runs jobs in the web process unless it is off", () => {
    expect([env(), env("on"), env("off")]).toEqual([true, true, false]);
  });

  it("refuses anything else, naming the variable and the values", () => {
    expect(() => env("yes")).toThrow('SOLSERVER_JOB_WORKERS: must be "on" (the web process runs jobs) or "off"');
  });
});

describe("SOLSERVER_SCHEDULER_INTERVAL_MS", () => {
  const env = (value?: string) =>
    loadServerEnv({
      ...base,
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
