/** The job of job-kill.test.ts: a try not finished within 2 s is taken for dead and retried. */
export const KILL_TEST_SPECS = { "kill-test": { retryLimit: 2, retryDelayMs: 1_000, expireMs: 2_000 } };
