import type { TResolveDecisionView } from "@solserver/contracts";
import type { DbClient } from "../client";
import { timeOrderedId } from "../ids";
import { RESOLVE_DECISION_SELECT, toResolveDecisionView } from "../mappers";
import type { TSql } from "../sql";
import { fragment, rows, run, typed } from "../typed-sql";
import type { TStore } from "./store";
import type { TResolveDecisionWrite } from "./types";

/** Resolve decisions, in one multi-row insert, in the transaction that writes their proposals. */
export async function insertResolveDecisions(
  tx: TSql,
  decisions: TResolveDecisionWrite[],
  now = new Date(),
): Promise<void> {
  if (decisions.length === 0) return;
  const json = (value: unknown) => fragment(tx.dialect.json(value));
  await run(
    tx,
    typed.insertInto("UmbraResolveDecision").values(
      decisions.map((r) => ({
        id: timeOrderedId(),
        proposalId: r.proposalId,
        stage: r.stage,
        fingerprint: r.fingerprint,
        decision: r.outcome.decision,
        targetCfbId: r.outcome.target_cfb_id,
        mergeCfbIds: r.outcome.merge_cfb_ids.length > 0 ? json(r.outcome.merge_cfb_ids) : null,
        scores: json(r.outcome.scores),
        reasonCodes: json(r.outcome.reason_codes),
        hysteresis: r.outcome.hysteresis_applied,
        modelOp: r.modelOp,
        modelTargetCfbId: r.modelTargetCfbId,
        disagreement: r.disagreement,
        createdAt: now,
      })),
    ),
  );
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
