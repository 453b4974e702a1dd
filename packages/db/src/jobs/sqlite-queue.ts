import { connectionOf, type DbClient } from "../client";
import { jobRepository } from "../repositories/jobs";
import type { TJobHandler, TJobQueue, TJobQueueOptions } from "./job-queue";

// The job queue of the embedded SQLite default: pg-boss's rules (jobs/job-queue.ts) for the one
// process that serves the database. Jobs are rows (the Job table), so they survive a restart: a
// try that was running when the process died expires and is retried when the next process starts.
// Each kind of job has its own loop, so a slow webhook never holds up a schedule tick.

/** How often a loop looks for jobs that became due (a send wakes it at once). */
const POLL_MS = 1_000;
/** Finished jobs are kept this long (pg-boss is told the same: pg-boss-queue.ts). */
const KEEP_MS = 14 * 86_400_000;

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${Math.round(ms / 1000)} s`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

export function sqliteQueue(db: DbClient, options: TJobQueueOptions): TJobQueue {
  const jobs = jobRepository({ prisma: db, sql: connectionOf(db).driver });
  const now = options.now ?? (() => new Date());
  const specOf = (name: string) => {
    const spec = options.specs[name];
    if (!spec) throw new Error(`no job kind "${name}" (known: ${Object.keys(options.specs).join(", ")})`);
    return spec;
  };
  const loops = new Map<string, { handler: TJobHandler; running: Promise<void> | null; again: boolean }>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  async function drain(name: string, handler: TJobHandler): Promise<void> {
    while (!stopped) {
      const job = await jobs.claim([name], now());
      if (!job) break;
      try {
        const output = await within(handler({ id: job.id, data: job.data }), specOf(name).expireMs);
        await jobs.complete(job, now(), output);
      } catch (error) {
        await jobs.fail(job, message(error), now());
      }
    }
  }

  function wake(name: string): void {
    const loop = loops.get(name);
    if (!loop || stopped) return;
    if (loop.running) {
      loop.again = true;
      return;
    }
    loop.running = drain(name, loop.handler)
      .catch((error: unknown) => options.onError?.(`jobs: ${name}: ${message(error)}`))
      .finally(() => {
        loop.running = null;
        if (loop.again) {
          loop.again = false;
          wake(name);
        }
      });
  }

  return {
    engine: "sqlite",
    async send(name, data, opts = {}) {
      if (stopped) throw new Error("the job queue is stopped");
      const spec = specOf(name);
      const startAfter = opts.startAfter ?? now();
      const id = await jobs.send({ name, key: opts.key ?? null, data, ...spec, startAfter }, now());
      if (id && startAfter <= now()) wake(name);
      return id;
    },
    async work(handlers) {
      for (const name of Object.keys(handlers)) specOf(name);
      await jobs.expire(now());
      await jobs.purge(new Date(now().getTime() - KEEP_MS));
      for (const [name, handler] of Object.entries(handlers)) loops.set(name, { handler, running: null, again: false });
      const poll = async () => {
        try {
          await jobs.expire(now());
        } catch (error) {
          options.onError?.(`jobs: ${message(error)}`);
        }
        for (const name of loops.keys()) wake(name);
      };
      timer = setInterval(() => void poll(), POLL_MS);
      // A test process or a build worker that opens the queue must still be able to exit.
      timer.unref();
      void poll();
    },
    list: (filter) => jobs.list(filter),
    get: (id) => jobs.get(id),
    retry: async (id) => {
      const done = await jobs.retry(id, now());
      if (done) for (const name of loops.keys()) wake(name);
      return done;
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await Promise.all([...loops.values()].map((l) => l.running));
    },
  };
}
