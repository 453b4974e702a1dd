import { describeSchedule, nextOccurrence, type TScheduleSpec } from "@solserver/checkpoint";
import {
  DomainError,
  isDomainError,
  SHIPPED_WORKFLOWS,
  type TScheduleGetRequest,
  type TScheduleOutcome,
  type TScheduleRunView,
  type TScheduleView,
  type ZScheduleUpdateRequest,
} from "@solserver/contracts";
import type { TScheduleDetail, TScheduleRow } from "@solserver/db";
import type { z } from "zod";
import { auditActor, requireJam } from "./access";
import type { TCaller, TServiceContext } from "./context";
import type { TServiceDeps } from "./deps";
import { expireOverdueCheckpoints, type TExpiredCheckpoint } from "./workflow-timeouts";
import { deliverWebhookPhases } from "./workflow-webhooks";
import { startWorkflow } from "./workflows";

// A shipped workflow (the Umbra beat) on a schedule. Jam editors set it; a tick (the web server's
// timer, or `pnpm workflow tick` from cron) starts each due occurrence exactly as a Jam editor
// would, as the editor who saved the schedule last, so the run pauses at the beat's checkpoint
// for a person like any other. Never two beats at once: an occurrence that finds a run still
// under way starts nothing and says which run it was.

/** How many of the latest occurrences the schedule view lists. */
export const SCHEDULE_RUNS_SHOWN = 20;

/** What a schedule that nobody saved yet looks like: off, daily in the early morning (UTC). */
const UNSET = { enabled: false, cadence: "daily", time_of_day: "06:00", weekday: null } as const;

type TShipped = (typeof SHIPPED_WORKFLOWS)[number];

function specOf(row: Pick<TScheduleRow, "cadence" | "timeOfDay" | "weekday">): TScheduleSpec {
  return { cadence: row.cadence as TScheduleSpec["cadence"], time_of_day: row.timeOfDay, weekday: row.weekday };
}

function toView(workflow: string, row: TScheduleDetail | null): TScheduleView {
  if (!row) {
    return { workflow, ...UNSET, next_run_ts: null, run_as_email: null, updated_ts: null, runs: [] };
  }
  return {
    workflow,
    enabled: row.enabled,
    cadence: row.cadence as TScheduleView["cadence"],
    time_of_day: row.timeOfDay,
    weekday: row.weekday,
    next_run_ts: row.nextRunAt?.toISOString() ?? null,
    run_as_email: row.runAsEmail,
    updated_ts: row.updatedAt.toISOString(),
    runs: row.runs.map(
      (r): TScheduleRunView => ({
        due_ts: r.dueAt.toISOString(),
        started_ts: r.startedAt.toISOString(),
        outcome: r.outcome as TScheduleOutcome,
        run_id: r.runId,
        run_status: r.runStatus as TScheduleRunView["run_status"],
        detail: r.detail,
      }),
    ),
  };
}

async function view(deps: TServiceDeps, workflow: string): Promise<TScheduleView> {
  return toView(workflow, await deps.repos.schedules.get(workflow, SCHEDULE_RUNS_SHOWN));
}

export async function getSchedule(
  { deps, caller }: TServiceContext,
  { workflow }: TScheduleGetRequest,
): Promise<TScheduleView> {
  requireJam(caller, "see workflow schedules");
  return view(deps, workflow);
}

/**
 * Saves a schedule. Scheduled runs act as the editor who saves it (their Jam role is checked
 * again at every run); the next occurrence is computed from now, and disabling clears it.
 */
export async function updateSchedule(
  { deps, caller }: TServiceContext,
  s: z.output<typeof ZScheduleUpdateRequest>,
): Promise<TScheduleView> {
  requireJam(caller, "edit workflow schedules");
  const spec: TScheduleSpec = { cadence: s.cadence, time_of_day: s.time_of_day, weekday: s.weekday ?? null };
  await deps.repos.schedules.upsert(
    {
      workflow: s.workflow,
      enabled: s.enabled,
      cadence: s.cadence,
      timeOfDay: s.time_of_day,
      weekday: spec.weekday ?? null,
      nextRunAt: s.enabled ? nextOccurrence(spec, deps.now()) : null,
      runAsId: caller.userId,
    },
    auditActor(caller),
  );
  return view(deps, s.workflow);
}

/** What a tick did with one due occurrence; `claimed_elsewhere` when another tick owned it. */
export type TTickItem = {
  workflow: string;
  due_ts: string;
  outcome: TScheduleOutcome | "claimed_elsewhere";
  run_id: string | null;
  detail: string | null;
  /** Where the schedule stands after the tick. */
  next_run_ts: string | null;
};

export type TTickReport = {
  now_ts: string;
  handled: TTickItem[];
  /** Every enabled schedule's next occurrence after the tick. */
  upcoming: { workflow: string; schedule: string; next_run_ts: string }[];
  /** Checkpoints whose timeout this tick applied (workflow-timeouts.ts). */
  checkpoints: TExpiredCheckpoint[];
};

type TResult = { outcome: TScheduleOutcome; runId: string | null; detail: string | null };

/** The schedule's run-as account as a caller, if it may still run workflows. */
async function runAsCaller(deps: TServiceDeps, runAsId: string | null): Promise<TCaller | string> {
  const account = runAsId ? await deps.repos.accounts.get(runAsId) : null;
  if (!account) return "the schedule has no Jam editor to run as; a Jam editor must save it again";
  if (account.role !== "jam") {
    return `the schedule runs as ${account.email}, who is no longer a Jam editor; a Jam editor must save it again`;
  }
  // `cli`: like the CLI, a tick acts with no cookie or token of its own (runs say "via schedule").
  return { kind: "user", userId: account.id, email: account.email, role: "jam", via: "cli" };
}

/** Starts the claimed occurrence, unless a run of the workflow is still under way. */
async function startOccurrence(deps: TServiceDeps, row: TScheduleRow): Promise<TResult> {
  const open = await deps.repos.schedules.openRun(row.workflow);
  if (open) {
    return { outcome: "skipped_overlap", runId: null, detail: `${open.id} was still ${open.status.replace("_", " ")}` };
  }
  if (!(SHIPPED_WORKFLOWS as readonly string[]).includes(row.workflow)) {
    return { outcome: "failed", runId: null, detail: `${row.workflow} is not a workflow the server ships` };
  }
  const caller = await runAsCaller(deps, row.runAsId);
  if (typeof caller === "string") return { outcome: "failed", runId: null, detail: caller };
  try {
    const run = await startWorkflow({ deps, caller }, { workflow: row.workflow as TShipped }, "schedule");
    return { outcome: "started", runId: run.run_id, detail: null };
  } catch (error) {
    // Someone started it by hand between the check above and the start: still no second beat.
    if (isDomainError(error) && error.code === "CONFLICT" && error.field === "workflow") {
      const id = error.message.match(/WR-\d+/)?.[0];
      return { outcome: "skipped_overlap", runId: null, detail: id ? `${id} was still under way` : error.message };
    }
    // Domain errors are written for people; anything else may carry internals: logged, not shown.
    if (isDomainError(error)) return { outcome: "failed", runId: null, detail: error.message };
    console.error(`scheduled ${row.workflow} failed to start:`, error);
    return { outcome: "failed", runId: null, detail: "the run could not start (internal error; see the server log)" };
  }
}

async function handleDue(deps: TServiceDeps, row: TScheduleRow & { nextRunAt: Date }, now: Date): Promise<TTickItem> {
  // From now, not from the due time: after days of downtime the beat runs once, not once a day.
  let next: Date | null = null;
  let invalid: string | null = null;
  try {
    next = nextOccurrence(specOf(row), now);
  } catch (error) {
    invalid = `the stored schedule is invalid (${(error as Error).message}); a Jam editor must save it again`;
  }
  const item = {
    workflow: row.workflow,
    due_ts: row.nextRunAt.toISOString(),
    next_run_ts: next?.toISOString() ?? null,
  };
  const claimed = await deps.repos.schedules.claim({
    workflow: row.workflow,
    dueAt: row.nextRunAt,
    nextRunAt: next,
    now,
  });
  if (!claimed)
    return {
      ...item,
      outcome: "claimed_elsewhere",
      run_id: null,
      detail: "another tick handled it, or the schedule changed meanwhile",
    };
  const result: TResult = invalid
    ? { outcome: "failed", runId: null, detail: invalid }
    : await startOccurrence(deps, row);
  await deps.repos.schedules.finish(claimed, result);
  return { ...item, outcome: result.outcome, run_id: result.runId, detail: result.detail };
}

/**
 * Runs every enabled schedule that is due at `now`. Not an actor's call: the server's timer and
 * the cron CLI tick; what a run may do is checked against the schedule's run-as editor.
 */
export async function tickSchedules(deps: TServiceDeps, now: Date = deps.now()): Promise<TTickReport> {
  if (Number.isNaN(now.getTime())) throw new DomainError("BAD_INPUT", "now: is not a valid date", { field: "now" });
  // Each tick also embeds what a failed sync left pending (semantic matching on).
  deps.semantic?.afterWrite();
  const handled: TTickItem[] = [];
  for (const row of await deps.repos.schedules.list()) {
    if (!row.enabled || !row.nextRunAt || row.nextRunAt.getTime() > now.getTime()) continue;
    handled.push(await handleDue(deps, { ...row, nextRunAt: row.nextRunAt }, now));
  }
  const upcoming = (await deps.repos.schedules.list()).flatMap((row) =>
    row.enabled && row.nextRunAt
      ? [{ workflow: row.workflow, schedule: describeSchedule(specOf(row)), next_run_ts: row.nextRunAt.toISOString() }]
      : [],
  );
  const checkpoints = await expireOverdueCheckpoints(deps, now);
  // Webhook phases nobody delivers (their process died holding the lease, expired at `now`).
  await deliverWebhookPhases({ ...deps, now: () => now });
  return { now_ts: now.toISOString(), handled, upcoming, checkpoints };
}
