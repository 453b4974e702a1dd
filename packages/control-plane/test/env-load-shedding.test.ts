// The load shedder's settings (issue 20): defaults by model, explicit values, and bad values
// refused at start-up naming the variable.
import { describe, expect, it } from "vitest";
import { DEFAULT_CONCURRENT_REQUESTS, loadServerEnv } from "../src/env";

const env = (vars: Record<string, string> = {}) =>
  loadServerEnv({ BETTER_AUTH_SECRET: "test-secret-test-secret-test-secret-0123", ...vars }).loadShedding;
const OPENAI = { SOLSERVER_MODEL: "openai", OPENAI_API_KEY: "local", SOLSERVER_OPENAI_MODEL: "m" };

describe("load shedding settings", () => {
  it("default to a small bound for the offline model, a larger one for a remote model", () => {
    expect(env()).toEqual({ concurrency: DEFAULT_CONCURRENT_REQUESTS.offline, queue: 16, maxWaitMs: 2000 });
    expect(env(OPENAI).concurrency).toBe(DEFAULT_CONCURRENT_REQUESTS.openai);
    expect(DEFAULT_CONCURRENT_REQUESTS.openai).toBeGreaterThan(DEFAULT_CONCURRENT_REQUESTS.offline);
  });

  it("take explicit values, 0 turning the bound off whatever the model", () => {
    expect(
      env({
        SOLSERVER_MAX_CONCURRENT_REQUESTS: "8",
        SOLSERVER_MAX_QUEUED_REQUESTS: "0",
        SOLSERVER_MAX_QUEUE_WAIT_MS: "250",
      }),
    ).toEqual({ concurrency: 8, queue: 0, maxWaitMs: 250 });
    expect(env({ ...OPENAI, SOLSERVER_MAX_CONCURRENT_REQUESTS: "0" }).concurrency).toBe(0);
  });

  it.each([
    ["SOLSERVER_MAX_CONCURRENT_REQUESTS", "-1", "must be between 0 (no bound) and 1000"],
    ["SOLSERVER_MAX_CONCURRENT_REQUESTS", "1001", "must be between 0 (no bound) and 1000"],
    ["SOLSERVER_MAX_QUEUED_REQUESTS", "10001", "must be between 0 and 10000"],
    ["SOLSERVER_MAX_QUEUE_WAIT_MS", "0", "must be between 1 and 60000 (milliseconds)"],
  ])("refuses %s=%s, naming the variable", (name, value, rule) => {
    expect(() => env({ [name]: value })).toThrow(`${name}: ${rule}`);
  });
});
