// The server's background jobs (docs/operations.md#background-work): a recurring job queues its
// next occurrence before it works, so one waits at a time whichever process runs it and however
// many processes start; a failed occurrence does not end the series. The embedding backfill is a
// job too: it embeds what is pending, and a model that cannot be reached fails the try. And
// `pnpm jobs` from a shell.
import { testCfb } from "@solserver/db/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createOpenAICompatibleEmbeddings } from "../src/embeddings/openai-embeddings";
import { openJobQueue, startJobWorkers } from "../src/jobs/jobs";
import { runJobsCli } from "../src/jobs/jobs-cli";
import { openTestControlPlane } from "../src/testing";
import { startTestEmbedder } from "../src/testing-embedder";

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

describe("the embedding backfill", () => {
  it("embeds the knowledge base as a job, its count the output; an unreachable model is a failed try", async () => {
    const embedder = await startTestEmbedder();
    const semantic = await openTestControlPlane({
      label: "jobs-embeddings",
      embeddings: createOpenAICompatibleEmbeddings({ baseUrl: embedder.url, model: "test-embedder", timeoutMs: 5000 }),
    });
    const queue = await openJobQueue(semantic.db, semantic.database.url);
    try {
      await semantic.repos.cfbs.import(
        ["pump fuse", "slide motor", "furnace sail switch"].map((title) =>
          testCfb({ title, summary: `Where the ${title} is and how to check it.` }),
        ),
      );
      const opts = { schedulerIntervalMs: 0, pruneIntervalMs: 0, firstPruneDelayMs: 0, log: () => {} };
      expect(await startJobWorkers(semantic.deps, queue, opts)).toBe(
        "jobs: running workflow-webhooks, resolve-refit, embeddings-backfill (sqlite)",
      );
      const backfill = await vi.waitFor(
        async () => {
          const [job] = (await queue.list({ limit: 10 })).filter((j) => j.name === "embeddings-backfill");
          if (job?.state !== "completed") throw new Error(`the backfill is ${job?.state}`);
          return job;
        },
        { timeout: 60_000, interval: 100 },
      );
      expect(backfill.output).toEqual({ embedded: 3 });
      expect(await semantic.db.cfbEmbedding.count()).toBe(3);

      embedder.failWith = 503;
      await semantic.repos.cfbs.import([testCfb({ title: "awning arm", summary: "The awning arm rivets." })]);
      const id = (await queue.send("embeddings-backfill", {}, { key: "embeddings-backfill" })) as string;
      const failed = await vi.waitFor(
        async () => {
          const job = await queue.get(id);
          if (job?.state !== "retry") throw new Error(`the backfill is ${job?.state}`);
          return job;
        },
        { timeout: 60_000, interval: 100 },
      );
      expect(failed.error).toContain("503");
      expect(await semantic.db.cfbEmbedding.count()).toBe(3);
    } finally {
      await queue.stop();
      await semantic.close();
      await embedder.close();
    }
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
