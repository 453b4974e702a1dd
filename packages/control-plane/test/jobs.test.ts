// The server's background jobs (docs/operations.md#background-work): a recurring job queues its
// next occurrence before it works, so one waits at a time whichever process runs it and however
// many processes start; a failed occurrence does not end the series. And `pnpm jobs` from a shell.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openJobQueue, startJobWorkers } from "../src/jobs/jobs";
import { runJobsCli } from "../src/jobs/jobs-cli";
import { openTestControlPlane } from "../src/testing";

let opened: Awaited<ReturnType<typeof openTestControlPlane>>;
const queues: Awaited<ReturnType<typeof openJobQueue>>[] = [];

beforeAll(async () => {
  opened = await openTestControlPlane({ label: "jobs" });
});
afterAll(async () => {
  for (const q of queues) await q.stop();
  await opened.close();
});

const HOUR = 3_600_000;

describe("recurring jobs", () => {
  it("a tick queues the next before it works: one waits, whatever number of processes start", async () => {
    const logged: string[] = [];
    for (let process = 0; process < 2; process++) {
      const queue = await openJobQueue(opened.db, opened.database.url);
      queues.push(queue);
      await startJobWorkers(opened.deps, queue, {
        schedulerIntervalMs: HOUR,
        pruneIntervalMs: 24 * HOUR,
        firstPruneDelayMs: HOUR,
        log: (line) => logged.push(line),
      });
    }
    const queue = queues[0] as (typeof queues)[number];
    await vi.waitFor(async () => {
      const ticks = (await queue.list({ limit: 20 })).filter((j) => j.name === "schedules-tick");
      expect(ticks.filter((j) => j.state !== "completed").map((j) => j.state)).toEqual(["created"]);
      expect(ticks.some((j) => j.state === "completed")).toBe(true);
    });
    const waiting = await queue.list({ state: "created", limit: 20 });
    expect(waiting.map((j) => j.name).sort()).toEqual(["retention-prune", "schedules-tick"]);
    for (const job of waiting) expect(job.startAfter.getTime()).toBeGreaterThan(Date.now() + HOUR / 2);
    expect(logged).toEqual([]);
  });
});

describe("pnpm jobs", () => {
  const io = () => {
    const out: string[] = [];
    const err: string[] = [];
    return {
      out,
      err,
      io: {
        out: (l: string) => void out.push(l),
        err: (l: string) => void err.push(l),
        env: {
          DATABASE_URL: opened.database.url,
          BETTER_AUTH_SECRET: "test-secret-test-secret-test-secret-0123",
          SOLSERVER_EMBEDDINGS: "off",
        },
        stopped: Promise.resolve(),
      },
    };
  };

  it("lists the jobs newest first, of one state when asked", async () => {
    const all = io();
    expect(await runJobsCli(["list"], all.io)).toBe(0);
    expect(all.out.join("\n")).toMatch(/schedules-tick\s+completed\s+try 1\/3/);
    const failed = io();
    expect(await runJobsCli(["list", "--state", "failed"], failed.io)).toBe(0);
    expect(failed.out).toEqual(["no failed jobs"]);
  });

  it("names the argument and the rule on a usage error; a job that has not failed is not retried", async () => {
    const bad = io();
    expect(await runJobsCli(["list", "--state", "stuck"], bad.io)).toBe(2);
    expect(bad.err[0]).toContain("--state: must be one of created, retry, active, completed, failed, cancelled");
    const noId = io();
    expect(await runJobsCli(["retry"], noId.io)).toBe(2);
    expect(noId.err[0]).toContain("retry: name the job id");
    const missing = io();
    expect(await runJobsCli(["retry", "01a25193-0000-7000-8000-000000000000"], missing.io)).toBe(1);
    expect(missing.err).toEqual(["refused: 01a25193-0000-7000-8000-000000000000 is not a failed job"]);
  });
});
