// A job survives kill -9 of the process running it and completes exactly once (issue 39), with
// two processes on one PostgreSQL database (pg-boss): the first starts the job and is killed; the
// second, once the try has expired, runs it again and completes it; the first try's work never
// completes and the job is completed once.
// Included only when SOLSERVER_TEST_POSTGRES_URL names a server (vitest.config.ts).
import { type ChildProcess, fork } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createJobQueue, createPrismaClient, type DbClient, type TJobQueue } from "../../src";
import { createTestDatabase, type TTestDatabase } from "../../src/testing";
import { KILL_TEST_SPECS } from "./job-kill-specs";

const WORKER = fileURLToPath(new URL("job-worker.ts", import.meta.url));

let database: TTestDatabase;
let db: DbClient;
let queue: TJobQueue;
const children: ChildProcess[] = [];

/** A worker process, resolved once it works jobs. */
function worker(mode: "hang" | "run", log: string): Promise<ChildProcess> {
  const child = fork(WORKER, [database.url, mode, log], { execArgv: ["--import", "tsx"], stdio: "inherit" });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.once("message", () => resolve(child));
    child.once("exit", (code) => reject(new Error(`the ${mode} worker exited (${code}) before working`)));
  });
}

const lines = (log: string) => (existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : []);

beforeAll(async () => {
  database = await createTestDatabase("job-kill");
  db = await createPrismaClient(database.url);
  queue = await createJobQueue(db, database.url, { specs: KILL_TEST_SPECS });
}, 120_000);
afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  await queue?.stop();
  await db?.$disconnect();
  await database?.cleanup();
});

describe("a job and kill -9", () => {
  it("runs again in another process once the killed try expires, and completes once", async () => {
    const log = path.join(database.dir, "jobs.log");
    const first = await worker("hang", log);
    const id = (await queue.send("kill-test", {})) as string;
    await vi.waitFor(() => expect(lines(log)).toEqual([`hang start ${id}`]), { timeout: 60_000, interval: 50 });
    first.kill("SIGKILL");

    await worker("run", log);
    const done = await vi.waitFor(
      async () => {
        const job = (await queue.list({ limit: 10 })).find((j) => j.id === id);
        if (job?.state !== "completed") throw new Error(`the job is ${job?.state}`);
        return job;
      },
      { timeout: 90_000, interval: 200 },
    );
    expect(lines(log)).toEqual([`hang start ${id}`, `run start ${id}`, `run done ${id}`]);
    expect(done.retryCount).toBe(1);
    expect(await queue.list({ state: "active", limit: 10 })).toEqual([]);
  });
});
