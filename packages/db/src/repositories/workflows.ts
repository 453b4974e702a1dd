import { randomUUID } from "node:crypto";
import { DomainError } from "@solserver/contracts";
import type { DbClient } from "../client";
import type { Prisma } from "../generated/prisma/client";
import { allocateIds } from "../ids";
import type { TSqlDriver } from "../sql";
import { fragment, rows, run, typed } from "../typed-sql";
import type { TStore } from "./store";

export type TWorkflowRunRow = {
  id: string;
  name: string;
  definition: string;
  status: string;
  state: unknown;
  version: number;
  startedBy: string | null;
  /** The account that started the run (a scheduled run: the schedule's run-as editor). */
  startedById: string | null;
  startedVia: string;
  error: string | null;
  createdAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
  /** awaiting_worker: the queue that may claim the phase, and the current claim (if any). */
  queue: string | null;
  leaseId: string | null;
  leaseOwner: string | null;
  leaseExpiresAt: Date | null;
  /** awaiting_decision: when the checkpoint's timeout fires. */
  deadlineAt: Date | null;
};

export type TWorkflowArtifactWrite = { path: string; content: string };

const FINISHED = new Set(["done", "aborted", "failed"]);
const include = {
  select: {
    id: true,
    name: true,
    definition: true,
    status: true,
    state: true,
    version: true,
    startedVia: true,
    error: true,
    createdAt: true,
    updatedAt: true,
    finishedAt: true,
    startedById: true,
    queue: true,
    leaseId: true,
    leaseOwner: true,
    leaseExpiresAt: true,
    deadlineAt: true,
  },
} as const;

async function withStarter(
  db: DbClient,
  rows: Prisma.WorkflowRunGetPayload<typeof include>[],
): Promise<TWorkflowRunRow[]> {
  const ids = [...new Set(rows.flatMap((r) => (r.startedById ? [r.startedById] : [])))];
  const users =
    ids.length > 0 ? await db.user.findMany({ where: { id: { in: ids } }, select: { id: true, email: true } }) : [];
  const emails = new Map(users.map((u) => [u.id, u.email]));
  return rows.map((r) => ({
    ...r,
    startedBy: r.startedById ? (emails.get(r.startedById) ?? null) : null,
  }));
}

/**
 * A new run, unless `exclusive` names a workflow with an unfinished run (no two beats at once):
 * then CONFLICT naming that run. The check and the insert share one transaction; its id is
 * returned (read the run with `getWorkflowRun`).
 */
export async function createWorkflowRun(
  sql: TSqlDriver,
  w: {
    name: string;
    definition: string;
    status: string;
    state: unknown;
    startedById: string | null;
    startedVia: string;
    exclusive: boolean;
    queue?: string | null;
    deadlineAt?: Date | null;
    /** A run that failed as it started (a template that no longer fits): why. */
    error?: string | null;
  },
): Promise<string> {
  return sql.transaction(async (tx) => {
    const now = new Date();
    const id = (await allocateIds(tx, { workflowRun: 1 })).workflowRun[0] as string;
    // Written first, then checked (a SQLite transaction that reads before it writes cannot wait
    // for another process's write lock): a second start sees the first and rolls back.
    await run(
      tx,
      typed.insertInto("WorkflowRun").values({
        id,
        name: w.name,
        definition: w.definition,
        status: w.status,
        state: fragment(tx.dialect.json(w.state)),
        version: 1,
        startedById: w.startedById,
        startedVia: w.startedVia,
        createdAt: now,
        updatedAt: now,
        finishedAt: FINISHED.has(w.status) ? now : null,
        queue: w.queue ?? null,
        deadlineAt: w.deadlineAt ?? null,
        error: w.error ?? null,
      }),
    );
    if (w.exclusive) {
      const [open] = await rows(
        tx,
        typed
          .selectFrom("WorkflowRun")
          .select(["id", "status"])
          .where("name", "=", w.name)
          .where("status", "in", ["running", "awaiting_worker", "awaiting_decision"])
          .where("id", "<>", id)
          .orderBy("createdAt", "asc")
          .limit(1),
      );
      if (open) {
        throw new DomainError(
          "CONFLICT",
          `${w.name} is already under way as ${open.id} (${open.status.replace("_", " ")}); finish or abort it first`,
          { field: "workflow" },
        );
      }
    }
    return id;
  });
}

async function getWorkflowRun(db: DbClient, runId: string): Promise<TWorkflowRunRow | null> {
  const row = await db.workflowRun.findUnique({ where: { id: runId }, ...include });
  return row ? ((await withStarter(db, [row]))[0] ?? null) : null;
}

export async function listWorkflowRuns(
  db: DbClient,
  q: { status?: string | undefined; limit: number },
): Promise<TWorkflowRunRow[]> {
  const rows = await db.workflowRun.findMany({
    where: q.status ? { status: q.status } : {},
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: q.limit,
    ...include,
  });
  return withStarter(db, rows);
}

/**
 * The run's next state, written only if the run is still at `expectedVersion` (version + 1), with
 * the artifacts its step wrote, in one transaction. False when another writer moved it first.
 */
export async function saveWorkflowRun(
  sql: TSqlDriver,
  runId: string,
  expectedVersion: number,
  w: {
    status: string;
    state: unknown;
    error?: string | null;
    artifacts?: readonly TWorkflowArtifactWrite[];
    /** The worker queue when the run now awaits a worker (any claim is cleared by every save). */
    queue?: string | null;
    /** The checkpoint's deadline when the run now awaits a decision with a timeout. */
    deadlineAt?: Date | null;
  },
): Promise<boolean> {
  return sql.transaction(async (tx) => {
    const now = new Date();
    const moved = await run(
      tx,
      typed
        .updateTable("WorkflowRun")
        .set((eb) => ({
          status: w.status,
          state: fragment(tx.dialect.json(w.state)),
          version: eb("version", "+", 1),
          error: w.error ?? null,
          finishedAt: FINISHED.has(w.status) ? now : null,
          updatedAt: now,
          queue: w.queue ?? null,
          deadlineAt: w.deadlineAt ?? null,
          leaseId: null,
          leaseOwner: null,
          leaseExpiresAt: null,
        }))
        .where("id", "=", runId)
        .where("version", "=", expectedVersion),
    );
    if (moved !== 1) return false;
    for (const a of w.artifacts ?? []) {
      await run(
        tx,
        typed
          .insertInto("WorkflowArtifact")
          .values({ id: randomUUID(), runId, path: a.path, content: a.content, createdAt: now })
          .onConflict((conflict) =>
            conflict.columns(["runId", "path"]).doUpdateSet((eb) => ({ content: eb.ref("excluded.content") })),
          ),
      );
    }
    return true;
  });
}

/** The artifacts of a run under these paths (what a checkpoint's show_files asks to see). */
async function workflowArtifacts(db: DbClient, runId: string, paths: readonly string[]): Promise<Map<string, string>> {
  if (paths.length === 0) return new Map();
  const rows = await db.workflowArtifact.findMany({ where: { runId, path: { in: [...paths] } } });
  return new Map(rows.map((r) => [r.path, r.content]));
}

/**
 * Claim the oldest phase of `queue` that nobody holds (no lease, or an expired one): the lease is
 * written only if the run is still at the version read, so of two workers racing for one phase
 * exactly one gets it; the other tries the next candidate. Null when there is nothing to claim.
 */
export async function claimWorkflowPhase(
  db: DbClient,
  sql: TSqlDriver,
  c: { queue: string; owner: string; leaseMs: (state: unknown) => number; now: Date },
): Promise<{ runId: string; leaseId: string; leaseExpiresAt: Date } | null> {
  const candidates = await db.workflowRun.findMany({
    where: {
      status: "awaiting_worker",
      queue: c.queue,
      OR: [{ leaseExpiresAt: null }, { leaseExpiresAt: { lt: c.now } }],
    },
    orderBy: [{ updatedAt: "asc" }, { id: "asc" }],
    take: 10,
    select: { id: true, version: true, state: true },
  });
  for (const row of candidates) {
    const leaseId = randomUUID();
    const leaseExpiresAt = new Date(c.now.getTime() + c.leaseMs(row.state));
    const taken = await run(
      sql,
      typed
        .updateTable("WorkflowRun")
        .set((eb) => ({
          leaseId,
          leaseOwner: c.owner,
          leaseExpiresAt,
          version: eb("version", "+", 1),
          updatedAt: c.now,
        }))
        .where("id", "=", row.id)
        .where("version", "=", row.version)
        .where("status", "=", "awaiting_worker")
        .where((eb) => eb.or([eb("leaseId", "is", null), eb("leaseExpiresAt", "<", c.now)])),
    );
    // (A heartbeat does not bump the version: the lease condition keeps a just-renewed claim.)
    if (taken === 1) return { runId: row.id, leaseId, leaseExpiresAt };
  }
  return null;
}

/** Extend a claim the worker still holds; false when the lease is gone (expired and re-claimed, or done). */
export async function extendWorkflowLease(
  sql: TSqlDriver,
  h: { runId: string; leaseId: string; leaseExpiresAt: Date },
): Promise<boolean> {
  const extended = await run(
    sql,
    typed
      .updateTable("WorkflowRun")
      .set({ leaseExpiresAt: h.leaseExpiresAt })
      .where("id", "=", h.runId)
      .where("leaseId", "=", h.leaseId)
      .where("status", "=", "awaiting_worker"),
  );
  return extended === 1;
}

/** Runs waiting at a checkpoint whose deadline passed (the scheduler's sweep), oldest first. */
async function overdueWorkflowRuns(db: DbClient, now: Date, limit: number): Promise<TWorkflowRunRow[]> {
  const rows = await db.workflowRun.findMany({
    where: { status: "awaiting_decision", deadlineAt: { lte: now } },
    orderBy: [{ deadlineAt: "asc" }, { id: "asc" }],
    take: limit,
    ...include,
  });
  return withStarter(db, rows);
}

export function workflowRepository({ prisma, sql }: TStore) {
  return {
    /** A new run (see createWorkflowRun), read back as the dashboard lists it. */
    async create(w: Parameters<typeof createWorkflowRun>[1]): Promise<TWorkflowRunRow> {
      const row = await getWorkflowRun(prisma, await createWorkflowRun(sql, w));
      if (!row) throw new Error("the workflow run was not written");
      return row;
    },
    get: (runId: string) => getWorkflowRun(prisma, runId),
    list: (q: Parameters<typeof listWorkflowRuns>[1]) => listWorkflowRuns(prisma, q),
    save: (runId: string, expectedVersion: number, w: Parameters<typeof saveWorkflowRun>[3]) =>
      saveWorkflowRun(sql, runId, expectedVersion, w),
    artifacts: (runId: string, paths: readonly string[]) => workflowArtifacts(prisma, runId, paths),
    claim: (c: Parameters<typeof claimWorkflowPhase>[2]) => claimWorkflowPhase(prisma, sql, c),
    extendLease: (h: Parameters<typeof extendWorkflowLease>[1]) => extendWorkflowLease(sql, h),
    overdue: (now: Date, limit: number) => overdueWorkflowRuns(prisma, now, limit),
    /** How many runs wait at a checkpoint (the dashboard's badge). */
    awaitingDecision: () => prisma.workflowRun.count({ where: { status: "awaiting_decision" } }),
  };
}
