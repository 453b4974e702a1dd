import type { TResolveDecisionView } from "@solserver/contracts";
import type { DbClient } from "../client";
import { Prisma } from "../generated/prisma/client";
import { timeOrderedId } from "../ids";
import { RESOLVE_DECISION_SELECT, toResolveDecisionView } from "../mappers";
import type { TSql } from "../sql";
import { rows, typed } from "../typed-sql";
import type { TStore } from "./store";
import type { TResolveDecisionWrite } from "./types";

/** One multi-row INSERT for resolve decisions; run in the transaction that writes their proposals. */
function resolveDecisionStatement(tx: TSql, rows: TResolveDecisionWrite[], now: Date): Prisma.Sql {
  const json = (value: unknown) => tx.dialect.json(value);
  const values = rows.map(
    (r) => Prisma.sql`(${timeOrderedId()}, ${r.proposalId}, ${r.stage}, ${r.fingerprint}, ${r.outcome.decision},
      ${r.outcome.target_cfb_id}, ${r.outcome.merge_cfb_ids.length > 0 ? json(r.outcome.merge_cfb_ids) : null},
      ${json(r.outcome.scores)}, ${json(r.outcome.reason_codes)}, ${r.outcome.hysteresis_applied}, ${r.modelOp},
      ${r.modelTargetCfbId}, ${r.disagreement}, ${now})`,
  );
  return Prisma.sql`INSERT INTO "UmbraResolveDecision" ("id", "proposalId", "stage", "fingerprint", "decision",
      "targetCfbId", "mergeCfbIds", "scores", "reasonCodes", "hysteresis", "modelOp", "modelTargetCfbId",
      "disagreement", "createdAt")
    VALUES ${Prisma.join(values)}`;
}

export async function insertResolveDecisions(tx: TSql, rows: TResolveDecisionWrite[], now = new Date()): Promise<void> {
  if (rows.length > 0) await tx.execute(resolveDecisionStatement(tx, rows, now));
}

/** The latest decision taken for proposals with this fingerprint (the hysteresis' "previous"). */
async function previousResolveDecision(sql: TSql, fingerprint: string): Promise<{ decision: string } | null> {
  const [row] = await rows(
    sql,
    typed
      .selectFrom("UmbraResolveDecision")
      .select("decision")
      .where("fingerprint", "=", fingerprint)
      .orderBy("createdAt", "desc")
      .orderBy("id", "desc")
      .limit(1),
  );
  return row ?? null;
}

/** A proposal's decisions, newest first (the one at promotion, then the one at creation). */
async function listResolveDecisions(db: DbClient, proposalId: string): Promise<TResolveDecisionView[]> {
  const rows = await db.umbraResolveDecision.findMany({
    where: { proposalId },
    select: RESOLVE_DECISION_SELECT,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  return rows.map(toResolveDecisionView);
}

export function resolveRepository({ prisma, sql }: TStore) {
  return {
    previous: (fingerprint: string) => previousResolveDecision(sql, fingerprint),
    list: (proposalId: string) => listResolveDecisions(prisma, proposalId),
  };
}
