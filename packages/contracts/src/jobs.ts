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
  created_ts: z.string(),
  start_after_ts: z.string(),
  started_ts: z.string().nullable(),
  finished_ts: z.string().nullable(),
});
export type TJobViewWire = z.infer<typeof ZJobView>;

export const ZJobList = z.object({ engine: z.enum(["pg-boss", "sqlite"]), items: z.array(ZJobView) });
export type TJobList = z.infer<typeof ZJobList>;

export const ZJobRetryRequest = z.object({ id: z.string().min(1).max(100) }).strict();
export const ZJobRetryResponse = z.object({ ok: z.literal(true) });
