import { z } from "zod";
import { SHIPPED_WORKFLOWS, ZWorkflowRunStatus } from "./workflows";

// A shipped workflow on a schedule (the Umbra beat daily or weekly, seed 001 §5): what Jam editors
// see and set on /workflows. The arithmetic (next occurrence) is packages/checkpoint's schedule.ts;
// these are the wire shapes. Times are UTC so a schedule never moves with daylight saving.

export const ZScheduleCadence = z.enum(["daily", "weekly"], { error: 'must be "daily" or "weekly"' });
export type TScheduleCadence = z.infer<typeof ZScheduleCadence>;

/** What a tick did with one due occurrence. */
export const ZScheduleOutcome = z.enum(["started", "skipped_overlap", "failed"]);
export type TScheduleOutcome = z.infer<typeof ZScheduleOutcome>;

const ZScheduledWorkflow = z.enum(SHIPPED_WORKFLOWS, { error: `must be one of ${SHIPPED_WORKFLOWS.join(", ")}` });

export const ZScheduleGetRequest = z.object({ workflow: ZScheduledWorkflow.default("umbra-beat") }).strict();

/** The same rule as packages/checkpoint's TIME_OF_DAY_PATTERN (contracts import only zod). */
const TIME_OF_DAY = /^([01]\d|2[0-3]):([0-5]\d)$/;

export const ZScheduleUpdateRequest = z
  .object({
    workflow: ZScheduledWorkflow.default("umbra-beat"),
    enabled: z.boolean({ error: "must be true or false" }),
    cadence: ZScheduleCadence,
    time_of_day: z.string({ error: 'must be HH:MM in UTC, e.g. "06:30"' }).regex(TIME_OF_DAY, {
      error: 'must be HH:MM in UTC, e.g. "06:30"',
    }),
    /** 0 = Sunday … 6 = Saturday; weekly schedules only. */
    weekday: z
      .number({ error: "must be a whole number from 0 (Sunday) to 6 (Saturday)" })
      .int({ error: "must be a whole number from 0 (Sunday) to 6 (Saturday)" })
      .min(0, { error: "must be a whole number from 0 (Sunday) to 6 (Saturday)" })
      .max(6, { error: "must be a whole number from 0 (Sunday) to 6 (Saturday)" })
      .nullable()
      .optional(),
  })
  .strict()
  .superRefine((s, ctx) => {
    const hasWeekday = s.weekday !== undefined && s.weekday !== null;
    if (s.cadence === "weekly" && !hasWeekday) {
      ctx.addIssue({
        code: "custom",
        path: ["weekday"],
        message: "is required for a weekly schedule (0 = Sunday … 6 = Saturday)",
      });
    }
    if (s.cadence === "daily" && hasWeekday) {
      ctx.addIssue({
        code: "custom",
        path: ["weekday"],
        message: "only a weekly schedule names a day; leave it out for a daily one",
      });
    }
  });
export type TScheduleUpdateRequest = z.input<typeof ZScheduleUpdateRequest>;

/** One occurrence a tick handled: the run it started, or why it started none. */
export const ZScheduleRunView = z.object({
  /** When the occurrence was due. */
  due_ts: z.string(),
  /** When a tick handled it. */
  started_ts: z.string(),
  outcome: ZScheduleOutcome,
  /** The run it started (outcome `started`). */
  run_id: z.string().nullable(),
  /** That run's status now (it may since have been decided), if it still exists. */
  run_status: ZWorkflowRunStatus.nullable(),
  /** Why nothing started: the run still open (skipped_overlap) or the error (failed). */
  detail: z.string().nullable(),
});
export type TScheduleRunView = z.infer<typeof ZScheduleRunView>;

export const ZScheduleView = z.object({
  workflow: z.string(),
  enabled: z.boolean(),
  cadence: ZScheduleCadence,
  time_of_day: z.string(),
  weekday: z.number().int().min(0).max(6).nullable(),
  /** The next occurrence (UTC, ISO 8601); null while disabled. */
  next_run_ts: z.string().nullable(),
  /** The Jam editor scheduled runs act as: whoever saved the schedule last. */
  run_as_email: z.string().nullable(),
  /** Null until someone saves the schedule. */
  updated_ts: z.string().nullable(),
  /** The latest occurrences, newest first. */
  runs: z.array(ZScheduleRunView),
});
export type TScheduleView = z.infer<typeof ZScheduleView>;

// Parsed requests, as a service receives them (defaults applied).
export type TScheduleGetRequest = z.output<typeof ZScheduleGetRequest>;
