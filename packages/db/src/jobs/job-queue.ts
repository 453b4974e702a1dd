import { connectionOf, type DbClient } from "../client";
import { pgBossQueue } from "../dialect/postgres/pg-boss-queue";
import type { TJobState, TJobView } from "../repositories/jobs";
import { sqliteQueue } from "./sqlite-queue";

// Background jobs (docs/operations.md#background-work) behind one interface, on the engine made
// for each database: pg-boss on PostgreSQL (a job runs exactly once across processes, is retried
// with backoff, and a job whose process died expires and runs again), and on the embedded SQLite
// default the same rules in the process that opened it (jobs/sqlite-queue.ts).

/** How a kind of job is retried and when a try is taken for dead. */
export type TJobSpec = {
  /** Retries after the first try. */
  retryLimit: number;
  /** The first retry's delay; each further retry doubles it. */
  retryDelayMs: number;
  /** A try still running after this is failed (its process is taken for dead) and retried. */
  expireMs: number;
};

/** Runs one job; what it returns is kept as the job's output. */
export type TJobHandler = (job: { id: string; data: unknown }) => Promise<unknown>;

export type TJobQueue = {
  readonly engine: "pg-boss" | "sqlite";
  /**
   * Queues a job of a kind the queue was made with; `key`: while a job of that name and key waits
   * to start, another is not queued (null is returned). `startAfter`: not before then.
   */
  send(name: string, data: object, options?: { key?: string; startAfter?: Date }): Promise<string | null>;
  /** Runs jobs of these kinds in this process from now on, one at a time per kind. */
  work(handlers: Readonly<Record<string, TJobHandler>>): Promise<void>;
  /** The newest jobs first, of one state when asked. */
  list(filter: { state?: TJobState; limit: number }): Promise<TJobView[]>;
  get(id: string): Promise<TJobView | null>;
  /** A failed job queued again; false when there is no such failed job. */
  retry(id: string): Promise<boolean>;
  /** Stops working (a try under way finishes) and closes what the queue opened. */
  stop(): Promise<void>;
};

export type TJobQueueOptions = {
  specs: Readonly<Record<string, TJobSpec>>;
  now?: () => Date;
  /** Failures of the engine itself (a lost connection while polling). */
  onError?: (message: string) => void;
};

/** The job queue on `db`'s database (`databaseUrl` is the one it was opened with). */
export function createJobQueue(db: DbClient, databaseUrl: string, options: TJobQueueOptions): Promise<TJobQueue> {
  return connectionOf(db).dialect.name === "postgresql"
    ? pgBossQueue(databaseUrl, options)
    : Promise.resolve(sqliteQueue(db, options));
}
