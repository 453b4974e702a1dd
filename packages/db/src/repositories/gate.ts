import { type TGateEvaluationView, ZGateDecision } from "@solserver/contracts";
import { Prisma } from "../generated/prisma/client";
import { timeOrderedId } from "../ids";
import { asObject, asStringArray } from "../json";
import { afterCursor, keysetOrder, pageOf, type TKeyset } from "../pagination";
import { dateOf, jsonOf, type TSql } from "../sql";
import type { TStore } from "./store";
import type { TGateEvaluationWrite } from "./types";

/** One multi-row INSERT for a batch of gate decisions (a turn's attempts, or one API call). */
function insertStatement(sql: TSql, rows: TGateEvaluationWrite[], now: Date): { ids: string[]; statement: Prisma.Sql } {
  const ids = rows.map(() => timeOrderedId());
  const json = (value: unknown) => sql.dialect.json(value);
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
  const { ids, statement } = insertStatement(sql, rows, now);
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

type TGateRow = {
  id: string;
  source: string;
  label: string | null;
  status: string;
  mode: string;
  strict: unknown;
  reasons: unknown;
  reasonCodes: unknown;
  metrics: unknown;
  policies: unknown;
  threadId: string | null;
  transmissionId: string | null;
  attemptN: number | null;
  delivered: unknown;
  createdAt: unknown;
};

function toView(r: TGateRow): TGateEvaluationView {
  const policies = ZGateDecision.shape.policies.parse(jsonOf(r.policies));
  const metrics = asObject(jsonOf(r.metrics), "GateEvaluation.metrics") as Record<string, number>;
  return {
    evaluation_id: r.id,
    source: r.source === "api" ? "api" : "turn",
    label: r.label,
    status: ZGateDecision.shape.status.parse(r.status),
    mode: r.mode === "full" ? "full" : "lite",
    strict: Boolean(r.strict),
    reasons: asStringArray(jsonOf(r.reasons), "GateEvaluation.reasons"),
    reason_codes: asStringArray(jsonOf(r.reasonCodes), "GateEvaluation.reasonCodes"),
    metrics,
    policies,
    thread_id: r.threadId,
    transmission_id: r.transmissionId,
    attempt_n: r.attemptN === null ? null : Number(r.attemptN),
    delivered: r.delivered === null ? null : Boolean(r.delivered),
    created_ts: dateOf(r.createdAt).toISOString(),
  };
}

const KEYSET: TKeyset = {
  table: "GateEvaluation",
  alias: "g",
  columns: ["createdAt", "id"],
  direction: "desc",
  what: "gate evaluation",
};

/** Recent evaluations, newest first, keyset-paginated. */
async function listGateEvaluations(
  sql: TSql,
  q: TGateEvaluationQuery,
): Promise<{ items: TGateEvaluationView[]; next_cursor: string | null }> {
  const after = await afterCursor(sql, KEYSET, q.cursor);
  const filters = [
    ...(q.actorId !== undefined ? [Prisma.sql`g."actorId" = ${q.actorId}`] : []),
    ...(q.status ? [Prisma.sql`g."status" = ${q.status}`] : []),
    ...(q.source ? [Prisma.sql`g."source" = ${q.source}`] : []),
    ...(after ? [after] : []),
  ];
  const rows = await sql.query<TGateRow>(
    Prisma.sql`SELECT g.* FROM "GateEvaluation" g
      ${filters.length > 0 ? Prisma.sql`WHERE ${Prisma.join(filters, " AND ")}` : Prisma.empty}
      ORDER BY ${keysetOrder(KEYSET)} LIMIT ${q.limit + 1}`,
  );
  const { page, nextCursor } = pageOf(rows, q.limit, (r) => r.id);
  return { items: page.map(toView), next_cursor: nextCursor };
}

export function gateRepository({ sql }: TStore) {
  return {
    record: (rows: TGateEvaluationWrite[]) => insertGateEvaluations(sql, rows),
    list: (q: TGateEvaluationQuery) => listGateEvaluations(sql, q),
  };
}
