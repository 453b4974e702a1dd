import { randomUUID } from "node:crypto";
import { type TGateEvaluationView, ZGateDecision } from "@solserver/contracts";
import type { DbClient } from "../client";
import { Prisma } from "../generated/prisma/client";
import { asObject, asStringArray } from "../json";
import { afterCursor, cursorPosition, pageOf } from "../pagination";
import type { TSql } from "../sql";
import type { TGateEvaluationWrite } from "./types";

/** One multi-row INSERT for a batch of gate decisions (a turn's attempts, or one API call). */
function insertStatement(rows: TGateEvaluationWrite[], now: Date): { ids: string[]; statement: Prisma.Sql } {
  const ids = rows.map(() => randomUUID());
  const json = (value: unknown) => JSON.stringify(value);
  const values = rows.map((r, i) => {
    const d = r.decision;
    return Prisma.sql`(${ids[i]}, ${r.source}, ${r.actorId}, ${r.label}, ${r.threadId}, ${r.transmissionId}, ${r.attemptN},
      ${r.delivered}, ${d.metadata.mode}, ${d.metadata.strict}, ${d.status}, ${json(d.reasons)}, ${json(d.reason_codes)},
      ${json(d.metrics)}, ${json(d.policies)}, ${now})`;
  });
  const statement = Prisma.sql`INSERT INTO "GateEvaluation" ("id", "source", "actorId", "label", "threadId",
      "transmissionId", "attemptN", "delivered", "mode", "strict", "status", "reasons", "reasonCodes", "metrics",
      "policies", "createdAt")
    VALUES ${Prisma.join(values)}`;
  return { ids, statement };
}

/** Stores gate decisions inside the caller's transaction (or alone); returns their ids in order. */
export async function insertGateEvaluations(
  sql: TSql,
  rows: TGateEvaluationWrite[],
  now = new Date(),
): Promise<string[]> {
  if (rows.length === 0) return [];
  const { ids, statement } = insertStatement(rows, now);
  await sql.execute(statement);
  return ids;
}

export type TGateEvaluationQuery = {
  /** Only this account's evaluations (a user); undefined: everyone's (a Jam editor). */
  actorId?: string | undefined;
  status?: string | undefined;
  source?: string | undefined;
  cursor?: string | undefined;
  limit: number;
};

type TGateRow = Prisma.GateEvaluationGetPayload<object>;

function toView(r: TGateRow): TGateEvaluationView {
  const policies = ZGateDecision.shape.policies.parse(r.policies);
  const metrics = asObject(r.metrics, "GateEvaluation.metrics") as Record<string, number>;
  return {
    evaluation_id: r.id,
    source: r.source === "api" ? "api" : "turn",
    label: r.label,
    status: ZGateDecision.shape.status.parse(r.status),
    mode: r.mode === "full" ? "full" : "lite",
    strict: r.strict,
    reasons: asStringArray(r.reasons, "GateEvaluation.reasons"),
    reason_codes: asStringArray(r.reasonCodes, "GateEvaluation.reasonCodes"),
    metrics,
    policies,
    thread_id: r.threadId,
    transmission_id: r.transmissionId,
    attempt_n: r.attemptN,
    delivered: r.delivered,
    created_ts: r.createdAt.toISOString(),
  };
}

/** Recent evaluations, newest first, keyset-paginated. */
export async function listGateEvaluations(
  db: DbClient,
  q: TGateEvaluationQuery,
): Promise<{ items: TGateEvaluationView[]; next_cursor: string | null }> {
  const filter: Prisma.GateEvaluationWhereInput = {
    ...(q.actorId !== undefined ? { actorId: q.actorId } : {}),
    ...(q.status ? { status: q.status } : {}),
    ...(q.source ? { source: q.source } : {}),
  };
  const cursor = await cursorPosition(q.cursor, "gate evaluation", (id) =>
    db.gateEvaluation.findUnique({ where: { id }, select: { createdAt: true } }),
  );
  const rows = await db.gateEvaluation.findMany({
    where: cursor ? { AND: [filter, afterCursor("createdAt", cursor)] } : filter,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: q.limit + 1,
  });
  const { page, nextCursor } = pageOf(rows, q.limit);
  return { items: page.map(toView), next_cursor: nextCursor };
}
