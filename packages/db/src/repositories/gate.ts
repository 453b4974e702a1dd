import { type TGateEvaluationView, ZGateDecision } from "@solserver/contracts";
import type { SqlBool } from "kysely";
import type { Prisma } from "../generated/prisma/client";
import { timeOrderedId } from "../ids";
import { asObject, asStringArray } from "../json";
import { afterCursor, keysetOrder, pageOf, type TKeyset } from "../pagination";
import { prepare } from "../prepared-sql";
import { dateOf, jsonOf, type TSql } from "../sql";
import { fragment, rows, run, type TDatabase, typed } from "../typed-sql";
import type { TStore } from "./store";
import type { TGateEvaluationWrite } from "./types";

/** A gate decision as its row (Json values as they are: the statement binds them). */
function rowOf(r: TGateEvaluationWrite, id: string, now: Date) {
  const d = r.decision;
  return {
    id,
    source: r.source,
    actorId: r.actorId,
    label: r.label,
    threadId: r.threadId,
    transmissionId: r.transmissionId,
    attemptN: r.attemptN,
    delivered: r.delivered,
    mode: d.metadata.mode,
    strict: d.metadata.strict,
    status: d.status,
    reasons: d.reasons as unknown,
    reasonCodes: d.reason_codes as unknown,
    metrics: d.metrics as unknown,
    policies: d.policies as unknown,
    createdAt: now,
  };
}

/** Gate decisions in one multi-row insert (prepared: every turn writes its attempts'), Json as the dialect binds it. */
const insertRows = prepare(
  (v: { rows: ReturnType<typeof rowOf>[] }, d) => {
    const json = (value: unknown) => fragment(d.json(value));
    return typed.insertInto("GateEvaluation").values(
      v.rows.map((r) => ({
        ...r,
        reasons: json(r.reasons),
        reasonCodes: json(r.reasonCodes),
        metrics: json(r.metrics),
        policies: json(r.policies),
      })),
    );
  },
  ["rows"],
);

/**
 * Stores gate decisions inside the caller's transaction (or alone), in one multi-row INSERT (a
 * turn's attempts, or one API call); returns their ids in order.
 */
export async function insertGateEvaluations(
  sql: TSql,
  evaluations: TGateEvaluationWrite[],
  now = new Date(),
): Promise<string[]> {
  if (evaluations.length === 0) return [];
  const ids = evaluations.map(() => timeOrderedId());
  await run(sql, insertRows({ rows: evaluations.map((r, i) => rowOf(r, ids[i] as string, now)) }, sql.dialect));
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

/** A GateEvaluation row as the SQL driver reads it. */
type TGateRow = TDatabase["GateEvaluation"];

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

/** A page of evaluations: those `q` asks for, after the cursor's row, newest first (one more, to see a next page). */
function pageStatement(q: TGateEvaluationQuery, after: Prisma.Sql | null) {
  let query = typed.selectFrom("GateEvaluation as g").selectAll("g");
  if (q.actorId !== undefined) query = query.where("g.actorId", "=", q.actorId);
  if (q.status) query = query.where("g.status", "=", q.status);
  if (q.source) query = query.where("g.source", "=", q.source);
  // The keyset's row-value comparison and order come from pagination.ts, shared by every list.
  if (after) query = query.where(fragment<SqlBool>(after));
  return query.orderBy(fragment(keysetOrder(KEYSET))).limit(q.limit + 1);
}

/** Recent evaluations, newest first, keyset-paginated. */
async function listGateEvaluations(
  sql: TSql,
  q: TGateEvaluationQuery,
): Promise<{ items: TGateEvaluationView[]; next_cursor: string | null }> {
  const after = await afterCursor(sql, KEYSET, q.cursor);
  const { page, nextCursor } = pageOf(await rows(sql, pageStatement(q, after)), q.limit, (r) => r.id);
  return { items: page.map(toView), next_cursor: nextCursor };
}

export function gateRepository({ sql }: TStore) {
  return {
    record: (rows: TGateEvaluationWrite[]) => insertGateEvaluations(sql, rows),
    list: (q: TGateEvaluationQuery) => listGateEvaluations(sql, q),
  };
}
