import { randomUUID } from "node:crypto";
import { DomainError } from "@solserver/contracts";
import type { DbClient } from "../client";
import type { Prisma } from "../generated/prisma/client";
import { allocateId } from "../ids";

export type TWorkflowRunRow = {
  id: string;
  name: string;
  definition: string;
  status: string;
  state: unknown;
  version: number;
  startedBy: string | null;
  startedVia: string;
  error: string | null;
  createdAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
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
  return rows.map(({ startedById, ...r }) => ({
    ...r,
    startedBy: startedById ? (emails.get(startedById) ?? null) : null,
  }));
}

/**
 * A new run, unless `exclusive` names a workflow with an unfinished run (no two beats at once):
 * then CONFLICT naming that run. The check and the insert share one transaction.
 */
export async function createWorkflowRun(
  db: DbClient,
  w: {
    name: string;
    definition: string;
    status: string;
    state: unknown;
    startedById: string | null;
    startedVia: string;
    exclusive: boolean;
  },
): Promise<TWorkflowRunRow> {
  const row = await db.$transaction(async (tx) => {
    if (w.exclusive) {
      const open = await tx.workflowRun.findFirst({
        where: { name: w.name, status: { in: ["running", "awaiting_decision"] } },
        select: { id: true, status: true },
      });
      if (open) {
        throw new DomainError(
          "CONFLICT",
          `${w.name} is already under way as ${open.id} (${open.status.replace("_", " ")}); finish or abort it first`,
          { field: "workflow" },
        );
      }
    }
    const id = await allocateId(tx, "workflowRun");
    return tx.workflowRun.create({
      data: {
        id,
        name: w.name,
        definition: w.definition,
        status: w.status,
        state: w.state as Prisma.InputJsonValue,
        startedById: w.startedById,
        startedVia: w.startedVia,
        finishedAt: FINISHED.has(w.status) ? new Date() : null,
      },
      ...include,
    });
  });
  const [withEmail] = await withStarter(db, [row]);
  return withEmail as TWorkflowRunRow;
}

export async function getWorkflowRun(db: DbClient, runId: string): Promise<TWorkflowRunRow | null> {
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
  db: DbClient,
  runId: string,
  expectedVersion: number,
  w: { status: string; state: unknown; error?: string | null; artifacts?: readonly TWorkflowArtifactWrite[] },
): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const moved = await tx.workflowRun.updateMany({
      where: { id: runId, version: expectedVersion },
      data: {
        status: w.status,
        state: w.state as Prisma.InputJsonValue,
        version: { increment: 1 },
        error: w.error ?? null,
        finishedAt: FINISHED.has(w.status) ? new Date() : null,
      },
    });
    if (moved.count !== 1) return false;
    for (const a of w.artifacts ?? []) {
      await tx.workflowArtifact.upsert({
        where: { runId_path: { runId, path: a.path } },
        create: { id: randomUUID(), runId, path: a.path, content: a.content },
        update: { content: a.content },
      });
    }
    return true;
  });
}

/** The artifacts of a run under these paths (what a checkpoint's show_files asks to see). */
export async function workflowArtifacts(
  db: DbClient,
  runId: string,
  paths: readonly string[],
): Promise<Map<string, string>> {
  if (paths.length === 0) return new Map();
  const rows = await db.workflowArtifact.findMany({ where: { runId, path: { in: [...paths] } } });
  return new Map(rows.map((r) => [r.path, r.content]));
}
