import { uuidv7 } from "uuidv7";
import { dateOf, jsonOf, type TSqlBase } from "../sql";
import { fragment, rows, run, typed } from "../typed-sql";
import type { TStore } from "./store";

// The SQLite job queue's table (jobs/sqlite-queue.ts runs it): pg-boss's states and retry rules
// over one table, for the one process an embedded database serves. Every change of state is one
// conditional UPDATE on the state read, so a job is claimed once and finished once.

export type TJobState = "created" | "retry" | "active" | "completed" | "failed" | "cancelled";

/** A job as the jobs page and `pnpm jobs list` show it, whichever engine holds it. */
export type TJobView = {
  id: string;
  name: string;
  state: TJobState;
  data: unknown;
  /** Retries made so far (0 while the first try runs). */
  retryCount: number;
  retryLimit: number;
  /** The last failure's message (kept while the job is retried). */
  error: string | null;
  /** What the job returned, once completed. */
  output: unknown;
  createdAt: Date;
  startAfter: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
};

export type TJobSend = {
  name: string;
  key: string | null;
  data: unknown;
  retryLimit: number;
  retryDelayMs: number;
  expireMs: number;
  startAfter: Date;
};

const WAITING: TJobState[] = ["created", "retry"];

function viewOf(row: {
  id: string;
  name: string;
  state: string;
  data: unknown;
  retryCount: number;
  retryLimit: number;
  error: string | null;
  output: unknown;
  createdAt: Date | string;
  startAfter: Date | string;
  startedAt: Date | string | null;
  finishedAt: Date | string | null;
}): TJobView {
  return {
    id: row.id,
    name: row.name,
    state: row.state as TJobState,
    data: jsonOf(row.data),
    retryCount: row.retryCount,
    retryLimit: row.retryLimit,
    error: row.error,
    output: row.output === null ? null : jsonOf(row.output),
    createdAt: dateOf(row.createdAt),
    startAfter: dateOf(row.startAfter),
    startedAt: row.startedAt === null ? null : dateOf(row.startedAt),
    finishedAt: row.finishedAt === null ? null : dateOf(row.finishedAt),
  };
}

const COLUMNS = [
  "id",
  "name",
  "state",
  "data",
  "retryCount",
  "retryLimit",
  "error",
  "output",
  "createdAt",
  "startAfter",
  "startedAt",
  "finishedAt",
] as const;

/** The try after `retryCount` failures waits the first delay doubled that many times less one. */
function backoffMs(retryDelayMs: number, retryCount: number): number {
  return retryDelayMs * 2 ** Math.min(retryCount, 16);
}

/** A claim: the job and the try it holds (a try that expired and was claimed again is not it). */
export type TJobClaim = { id: string; retryCount: number };

async function failOne(tx: TSqlBase, claim: TJobClaim, error: string, now: Date): Promise<void> {
  const id = claim.id;
  const [job] = await rows(
    tx,
    typed
      .selectFrom("Job")
      .select(["retryCount", "retryLimit", "retryDelayMs"])
      .where("id", "=", id)
      .where("state", "=", "active")
      .where("retryCount", "=", claim.retryCount),
  );
  if (!job) return;
  const again = job.retryCount < job.retryLimit;
  await run(
    tx,
    typed
      .updateTable("Job")
      .set(
        again
          ? {
              state: "retry",
              retryCount: job.retryCount + 1,
              startAfter: new Date(now.getTime() + backoffMs(job.retryDelayMs, job.retryCount)),
              lockedUntil: null,
              error,
            }
          : { state: "failed", finishedAt: now, lockedUntil: null, error },
      )
      .where("id", "=", id)
      .where("state", "=", "active")
      .where("retryCount", "=", claim.retryCount),
  );
}

export function jobRepository({ sql }: TStore) {
  return {
    /** Stores a job; null when `key` is set and a job of that name and key is still created. */
    send(job: TJobSend, now: Date): Promise<string | null> {
      return sql.transaction(async (tx) => {
        if (job.key !== null) {
          const [waiting] = await rows(
            tx,
            typed
              .selectFrom("Job")
              .select("id")
              .where("name", "=", job.name)
              .where("key", "=", job.key)
              .where("state", "=", "created"),
          );
          if (waiting) return null;
        }
        const id = uuidv7();
        await run(
          tx,
          typed.insertInto("Job").values({
            id,
            name: job.name,
            key: job.key,
            data: fragment(tx.dialect.json(job.data ?? {})),
            state: "created",
            retryCount: 0,
            retryLimit: job.retryLimit,
            retryDelayMs: job.retryDelayMs,
            expireMs: job.expireMs,
            startAfter: job.startAfter,
            lockedUntil: null,
            error: null,
            output: null,
            createdAt: now,
            startedAt: null,
            finishedAt: null,
          }),
        );
        return id;
      });
    },

    /** The next due job of `names`, now active and locked until its expiry; null when none is due. */
    async claim(names: readonly string[], now: Date): Promise<TJobView | null> {
      if (names.length === 0) return null;
      for (;;) {
        const [next] = await rows(
          sql,
          typed
            .selectFrom("Job")
            .select(["id", "state", "expireMs"])
            .where("state", "in", WAITING)
            .where("name", "in", names)
            .where("startAfter", "<=", now)
            .orderBy("startAfter")
            .limit(1),
        );
        if (!next) return null;
        const taken = await run(
          sql,
          typed
            .updateTable("Job")
            .set({ state: "active", startedAt: now, lockedUntil: new Date(now.getTime() + next.expireMs) })
            .where("id", "=", next.id)
            .where("state", "=", next.state),
        );
        if (taken === 1) return this.get(next.id);
      }
    },

    /** The try succeeded with `output` (nothing changes when the try expired meanwhile and runs again). */
    async complete(claim: TJobClaim, now: Date, output: unknown): Promise<void> {
      await run(
        sql,
        typed
          .updateTable("Job")
          .set({
            state: "completed",
            finishedAt: now,
            lockedUntil: null,
            output: output === undefined ? null : fragment(sql.dialect.json(output)),
          })
          .where("id", "=", claim.id)
          .where("state", "=", "active")
          .where("retryCount", "=", claim.retryCount),
      );
    },

    /** A failed try: retried after the backoff while retries are left, else failed for good. */
    fail(claim: TJobClaim, error: string, now: Date): Promise<void> {
      return sql.transaction((tx) => failOne(tx, claim, error, now));
    },

    /** Active jobs past their lock (their process stopped): failed tries, so retried. How many. */
    async expire(now: Date): Promise<number> {
      const stale = await rows(
        sql,
        typed
          .selectFrom("Job")
          .select(["id", "retryCount"])
          .where("state", "=", "active")
          .where("lockedUntil", "<", now),
      );
      for (const claim of stale) {
        await sql.transaction((tx) => failOne(tx, claim, "expired: its process stopped before it finished", now));
      }
      return stale.length;
    },

    async get(id: string): Promise<TJobView | null> {
      const [row] = await rows(sql, typed.selectFrom("Job").select(COLUMNS).where("id", "=", id));
      return row ? viewOf(row) : null;
    },

    /** The newest jobs first, of one state when asked. */
    async list(filter: { state?: TJobState; limit: number }): Promise<TJobView[]> {
      let query = typed.selectFrom("Job").select(COLUMNS).orderBy("createdAt", "desc").orderBy("id", "desc");
      if (filter.state) query = query.where("state", "=", filter.state);
      return (await rows(sql, query.limit(filter.limit))).map(viewOf);
    },

    /** A failed job queued again for one more try, as pg-boss retries one; false when it is not one. */
    async retry(id: string, now: Date): Promise<boolean> {
      const changed = await run(
        sql,
        typed
          .updateTable("Job")
          .set((eb) => ({ state: "retry", retryLimit: eb("retryLimit", "+", 1), startAfter: now, finishedAt: null }))
          .where("id", "=", id)
          .where("state", "=", "failed"),
      );
      return changed === 1;
    },

    /** Deletes finished jobs older than `before` (pg-boss keeps them 14 days too). */
    async purge(before: Date): Promise<number> {
      return run(
        sql,
        typed
          .deleteFrom("Job")
          .where("state", "in", ["completed", "failed", "cancelled"])
          .where("finishedAt", "<", before),
      );
    },
  };
}
