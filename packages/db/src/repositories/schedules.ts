import { randomUUID } from "node:crypto";
import type { DbClient } from "../client";
import type { TSqlDriver } from "../sql";
import { rows, run, typed } from "../typed-sql";
import { insertAudit, type TAuditWrite } from "./audit";
import type { TStore } from "./store";

// Workflow schedules (the Umbra beat daily or weekly) and the occurrences ticks handled. The claim
// is the whole concurrency story: a tick moves `nextRunAt` on only if it still holds the due value
// it read, in one conditional UPDATE, so of two ticks (two server processes, or the server and a
// cron `pnpm workflow tick`) exactly one owns an occurrence. The unique (workflow, dueAt) of the
// occurrence row is the second guard.

export type TScheduleRow = {
  workflow: string;
  enabled: boolean;
  cadence: string;
  timeOfDay: string;
  weekday: number | null;
  nextRunAt: Date | null;
  runAsId: string | null;
  updatedAt: Date;
};

export type TScheduleRunRow = {
  id: string;
  dueAt: Date;
  startedAt: Date;
  outcome: string;
  runId: string | null;
  detail: string | null;
  /** The started run's status now; null when there is none (or it was deleted). */
  runStatus: string | null;
};

export type TScheduleDetail = TScheduleRow & { runAsEmail: string | null; runs: TScheduleRunRow[] };

/** A schedule as an editor saves it: scheduled runs act as that editor. */
export type TScheduleWrite = Omit<TScheduleRow, "updatedAt" | "runAsId"> & { runAsId: string };

/**
 * What an occurrence row says between its claim and the tick's result: if the process dies while
 * the run starts, this is what stays, instead of a claimed occurrence with no trace.
 */
export const INTERRUPTED_DETAIL = "the tick stopped before it recorded what it started; look at the recent runs";

const scheduleSelect = {
  workflow: true,
  enabled: true,
  cadence: true,
  timeOfDay: true,
  weekday: true,
  nextRunAt: true,
  runAsId: true,
  updatedAt: true,
} as const;

/** Every schedule (one per scheduled workflow: a handful of rows). */
async function listSchedules(db: DbClient): Promise<TScheduleRow[]> {
  return db.workflowSchedule.findMany({ select: scheduleSelect, orderBy: { workflow: "asc" } });
}

/** One schedule with who it runs as and its latest occurrences, newest first; null when never set. */
async function getSchedule(db: DbClient, workflow: string, runLimit: number): Promise<TScheduleDetail | null> {
  const row = await db.workflowSchedule.findUnique({
    where: { workflow },
    select: {
      ...scheduleSelect,
      runs: { orderBy: [{ dueAt: "desc" }, { id: "desc" }], take: runLimit },
    },
  });
  if (!row) return null;
  const { runs, ...schedule } = row;
  const runIds = runs.flatMap((r) => (r.runId ? [r.runId] : []));
  const [account, started] = await Promise.all([
    schedule.runAsId
      ? db.user.findUnique({ where: { id: schedule.runAsId }, select: { email: true } })
      : Promise.resolve(null),
    runIds.length > 0
      ? db.workflowRun.findMany({ where: { id: { in: runIds } }, select: { id: true, status: true } })
      : Promise.resolve([]),
  ]);
  const statuses = new Map(started.map((r) => [r.id, r.status]));
  return {
    ...schedule,
    runAsEmail: account?.email ?? null,
    runs: runs.map((r) => ({
      id: r.id,
      dueAt: r.dueAt,
      startedAt: r.startedAt,
      outcome: r.outcome,
      runId: r.runId,
      detail: r.detail,
      runStatus: r.runId ? (statuses.get(r.runId) ?? null) : null,
    })),
  };
}

/**
 * Saves a schedule and its audit event in one transaction: scheduled runs act as the editor who
 * saved it last, so who changed it when is on record (/admin/audit).
 */
export async function upsertSchedule(
  sql: TSqlDriver,
  w: TScheduleWrite,
  audit: Omit<TAuditWrite, "targetType" | "targetId" | "details" | "action">,
): Promise<void> {
  // updatedAt is the save's: a tick's claim also updates the row and must not look like a save.
  const now = new Date();
  await sql.transaction(async (tx) => {
    const { workflow, enabled, cadence, timeOfDay, weekday, nextRunAt, runAsId } = w;
    const saved = { enabled, cadence, timeOfDay, weekday, nextRunAt, runAsId, updatedAt: now };
    await run(
      tx,
      typed
        .insertInto("WorkflowSchedule")
        .values({ workflow, ...saved, createdAt: now })
        .onConflict((conflict) => conflict.column("workflow").doUpdateSet(saved)),
    );
    await insertAudit(
      tx,
      [
        {
          ...audit,
          action: "schedule.update",
          targetType: "schedule",
          targetId: w.workflow,
          details: {
            enabled: w.enabled,
            cadence: w.cadence,
            time_of_day: w.timeOfDay,
            weekday: w.weekday,
            next_run_ts: w.nextRunAt?.toISOString() ?? null,
          },
        },
      ],
      now,
    );
  });
}

/**
 * Claims the occurrence due at `dueAt` and records it, in one transaction: the UPDATE moves
 * `nextRunAt` to `nextRunAt` only while the schedule is enabled, still due at `dueAt` and due by
 * `now`. It writes first, so a second process waits for the lock and then sees the moved value
 * (count 0). The occurrence row starts as interrupted (see INTERRUPTED_DETAIL) and `finishOccurrence`
 * writes the outcome. Returns the occurrence's id, or null when another tick claimed it first.
 */
export async function claimOccurrence(
  sql: TSqlDriver,
  c: { workflow: string; dueAt: Date; nextRunAt: Date | null; now: Date },
): Promise<string | null> {
  return sql.transaction(async (tx) => {
    const moved = await run(
      tx,
      typed
        .updateTable("WorkflowSchedule")
        .set({ nextRunAt: c.nextRunAt })
        .where("workflow", "=", c.workflow)
        .where("enabled", "=", true)
        .where("nextRunAt", "=", c.dueAt)
        .where("nextRunAt", "<=", c.now),
    );
    if (moved !== 1) return null;
    // Already handled (the same due time set again by hand): keep the move, start nothing twice.
    const [handled] = await rows(
      tx,
      typed
        .selectFrom("WorkflowScheduleRun")
        .select("id")
        .where("workflow", "=", c.workflow)
        .where("dueAt", "=", c.dueAt),
    );
    if (handled) return null;
    const id = randomUUID();
    const occurrence = { id, workflow: c.workflow, dueAt: c.dueAt, startedAt: c.now };
    await run(
      tx,
      typed.insertInto("WorkflowScheduleRun").values({ ...occurrence, outcome: "failed", detail: INTERRUPTED_DETAIL }),
    );
    return id;
  });
}

/** What the tick did with a claimed occurrence. */
export async function finishOccurrence(
  sql: TSqlDriver,
  id: string,
  w: { outcome: string; runId: string | null; detail: string | null },
): Promise<void> {
  await run(sql, typed.updateTable("WorkflowScheduleRun").set(w).where("id", "=", id));
}

/** The run of this workflow still under way (running, or waiting at a checkpoint), if any. */
async function openWorkflowRun(db: DbClient, name: string): Promise<{ id: string; status: string } | null> {
  return db.workflowRun.findFirst({
    where: { name, status: { in: ["running", "awaiting_worker", "awaiting_decision"] } },
    orderBy: { createdAt: "asc" },
    select: { id: true, status: true },
  });
}

export function scheduleRepository({ prisma, sql }: TStore) {
  return {
    list: () => listSchedules(prisma),
    /** A schedule with its run-as account and latest occurrences; null when never set. */
    get: (workflow: string, runLimit = 20) => getSchedule(prisma, workflow, runLimit),
    upsert: (w: TScheduleWrite, audit: Parameters<typeof upsertSchedule>[2]) => upsertSchedule(sql, w, audit),
    /** Atomically claims a due occurrence (see claimOccurrence); its id, or null when lost. */
    claim: (c: Parameters<typeof claimOccurrence>[1]) => claimOccurrence(sql, c),
    finish: (id: string, w: Parameters<typeof finishOccurrence>[2]) => finishOccurrence(sql, id, w),
    openRun: (workflow: string) => openWorkflowRun(prisma, workflow),
  };
}
