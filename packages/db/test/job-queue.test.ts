// Background jobs (docs/operations.md#background-work) behind one interface: the in-process queue
// on SQLite, pg-boss on PostgreSQL (this file runs on both). A job runs once and is shown done with
// what it returned; a key keeps one waiting job; a failing job is retried after a delay, then
// failed with its error, and can be queued again; a try whose process stopped expires and runs
// again, once.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createJobQueue, createPrismaClient, type DbClient, type TJobQueue } from "../src";
import { createTestDatabase, type TTestDatabase } from "../src/testing";

const SPECS = {
  once: { retryLimit: 0, retryDelayMs: 1_000, expireMs: 60_000 },
  flaky: { retryLimit: 1, retryDelayMs: 1_000, expireMs: 60_000 },
  hangs: { retryLimit: 2, retryDelayMs: 1_000, expireMs: 1_000 },
};

let database: TTestDatabase;
let db: DbClient;
const opened: TJobQueue[] = [];

async function queue(): Promise<TJobQueue> {
  const q = await createJobQueue(db, database.url, { specs: SPECS });
  opened.push(q);
  return q;
}

/** Waits until the job is in `state` (the engine polls; this asserts the outcome, not a time). */
async function settled(q: TJobQueue, id: string, state: string) {
  return vi.waitFor(
    async () => {
      const job = (await q.list({ limit: 50 })).find((j) => j.id === id);
      if (job?.state !== state) throw new Error(`job ${id} is ${job?.state ?? "missing"}, not ${state}`);
      return job;
    },
    { timeout: 60_000, interval: 100 },
  );
}

beforeAll(async () => {
  database = await createTestDatabase("job-queue");
  db = await createPrismaClient(database.url);
});
afterAll(async () => {
  for (const q of opened) await q.stop();
  await db.$disconnect();
  await database.cleanup();
});

describe("the job queue", () => {
  it("runs a job once, and shows it done; a key keeps one job waiting", async () => {
    const q = await queue();
    const ran: unknown[] = [];
    const later = new Date(Date.now() + 3_600_000);
    const first = await q.send("once", { n: 1 }, { key: "k", startAfter: later });
    expect(first).toEqual(expect.any(String));
    expect(await q.send("once", { n: 2 }, { key: "k", startAfter: later })).toBeNull();
    const id = (await q.send("once", { n: 3 })) as string;
    await q.work({ once: async (job) => ({ ran: ran.push(job.data) }) });
    const done = await settled(q, id, "completed");
    expect(ran).toEqual([{ n: 3 }]);
    expect(done).toMatchObject({ name: "once", retryCount: 0, error: null, output: { ran: 1 } });
    expect(await q.get(id)).toEqual(done);
    expect(await q.get("no-such-job")).toBeNull();
    expect(done.finishedAt).toBeInstanceOf(Date);
    expect((await q.list({ state: "created", limit: 10 })).map((j) => j.id)).toEqual([first]);
    await expect(q.send("nobody", {})).rejects.toThrow('no job kind "nobody"');
  });

  it("retries a failing job after a delay, then fails it with its error; a failed job can be queued again", async () => {
    const q = await queue();
    let tries = 0;
    let healed = false;
    await q.work({
      flaky: async () => {
        tries++;
        if (!healed) throw new Error(`receiver answered 503 (try ${tries})`);
      },
    });
    const id = (await q.send("flaky", {})) as string;
    const failed = await settled(q, id, "failed");
    expect(tries).toBe(2);
    expect(failed).toMatchObject({ retryCount: 1, retryLimit: 1, error: "receiver answered 503 (try 2)" });
    expect((await q.list({ state: "failed", limit: 10 })).map((j) => j.id)).toContain(id);

    healed = true;
    expect(await q.retry(id)).toBe(true);
    await settled(q, id, "completed");
    expect(tries).toBe(3);
    expect(await q.retry(id)).toBe(false);
  });

  it("runs a try again once it expires (its process stopped), and only the new try's outcome counts", async () => {
    const stuck = await queue();
    const started: string[] = [];
    // The first process starts the job and never finishes it (as if killed mid-job).
    await stuck.work({ hangs: () => new Promise<void>(() => void started.push("first")) });
    const id = (await stuck.send("hangs", {})) as string;
    await vi.waitFor(() => expect(started).toEqual(["first"]), { timeout: 60_000 });
    await stuck.stop().catch(() => {});

    const next = await queue();
    await next.work({ hangs: async () => void started.push("second") });
    const done = await settled(next, id, "completed");
    expect(started).toEqual(["first", "second"]);
    expect(done.retryCount).toBe(1);
  });
});
