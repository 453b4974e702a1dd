import { z } from "zod";

// Background jobs on the wire (docs/operations.md#background-work): what the jobs page and
// `pnpm jobs list` show, whichever engine holds them (pg-boss on PostgreSQL, the in-process queue
// on SQLite). The states are pg-boss's: created waits to start, retry waits after a failed try.

export const ZJobState = z.enum(["created", "retry", "active", "completed", "failed", "cancelled"]);
export type TJobStateName = z.infer<typeof ZJobState>;

export const ZJobListRequest = z
  .object({
    state: ZJobState.optional(),
    limit: z.number().int().min(1).max(200).default(50),
  })
  .strict();

export const ZJobView = z.object({
  id: z.string(),
  name: z.string(),
  state: ZJobState,
  data: z.record(z.string(), z.unknown()),
  retry_count: z.number().int(),
  retry_limit: z.number().int(),
  /** The last failure's message, kept while the job is retried. */
  error: z.string().nullable(),
  /** What a completed job returned (a refit's result); null otherwise. */
  output: z.unknown(),
  created_ts: z.string(),
  start_after_ts: z.string(),
  started_ts: z.string().nullable(),
  finished_ts: z.string().nullable(),
});

export const ZJobList = z.object({ engine: z.enum(["pg-boss", "sqlite"]), items: z.array(ZJobView) });
export type TJobList = z.infer<typeof ZJobList>;

/** One job, by the id `jobs.list` or the request that queued it gave. */
export const ZJobIdRequest = z.object({ id: z.string().min(1).max(100) }).strict();

/** A job queued for work a request started (a refit): follow it with jobs.get. */
export const ZJobStarted = z.object({ job_id: z.string() });
export const ZJobRetryResponse = z.object({ ok: z.literal(true) });
