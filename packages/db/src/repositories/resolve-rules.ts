// Resolve's decision rules refitted on a knowledge base's own reviewers (ResolveRule), and the
// reviewers' decisions they are fitted on: every decided proposal (its latest decision, not a
// reopened one) beside the resolve decision taken for it, with that decision's scores.

import { allocateIds } from "../ids";
import { dateOf, jsonOf, type TSql } from "../sql";
import { fragment, rows, run, type TDatabase, typed } from "../typed-sql";
import { insertAudit, type TAuditWrite } from "./audit";
import type { TStore } from "./store";

export type TResolveRuleRow = {
  id: string;
  rule: unknown;
  active: boolean;
  fittedOn: number;
  checkedOn: number;
  agreementBefore: number;
  agreementAfter: number;
  createdById: string | null;
  createdAt: string;
};

/** A proposal a person decided, with what resolve had decided for it. */
export type TReviewedDecision = {
  proposalId: string;
  domain: string;
  /** The reviewer's action and the CFB it wrote (approve_update: the one updated). */
  action: string;
  finalCfbId: string | null;
  decidedAt: string;
  /** Resolve's latest decision for the proposal (at promotion when there was one). */
  decision: string;
  targetCfbId: string | null;
  mergeCfbIds: string[];
  scores: unknown;
};

const RULE_COLUMNS = [
  "id",
  "rule",
  "active",
  "fittedOn",
  "checkedOn",
  "agreementBefore",
  "agreementAfter",
  "createdById",
  "createdAt",
] as const;

function toRow(r: TDatabase["ResolveRule"]): TResolveRuleRow {
  return {
    ...r,
    rule: jsonOf(r.rule),
    active: r.active === true || r.active === 1,
    fittedOn: Number(r.fittedOn),
    checkedOn: Number(r.checkedOn),
    agreementBefore: Number(r.agreementBefore),
    agreementAfter: Number(r.agreementAfter),
    createdAt: dateOf(r.createdAt).toISOString(),
  };
}

/** Makes `id` the one active rule (null: none, the shipped rule decides), in `tx`. */
async function activateIn(tx: TSql, id: string | null): Promise<void> {
  await run(tx, typed.updateTable("ResolveRule").set({ active: false }).where("active", "=", true));
  if (id !== null) await run(tx, typed.updateTable("ResolveRule").set({ active: true }).where("id", "=", id));
}

export function resolveRuleRepository({ sql }: TStore) {
  return {
    /** The active refitted rule, or null (the shipped rule decides). */
    async active(): Promise<TResolveRuleRow | null> {
      const [row] = await rows(
        sql,
        typed.selectFrom("ResolveRule").select(RULE_COLUMNS).where("active", "=", true).limit(1),
      );
      return row ? toRow(row) : null;
    },
    /** Every refitted rule, newest first. */
    async list(limit = 50): Promise<TResolveRuleRow[]> {
      const rules = await rows(
        sql,
        typed
          .selectFrom("ResolveRule")
          .select(RULE_COLUMNS)
          .orderBy("createdAt", "desc")
          .orderBy("id", "desc")
          .limit(limit),
      );
      return rules.map(toRow);
    },
    /** Stores a refitted rule as the active one, with its audit event, in one transaction. */
    async insertActive(
      row: Omit<TResolveRuleRow, "id" | "active" | "createdAt">,
      audit: Omit<TAuditWrite, "targetId">,
      now: Date,
    ): Promise<string> {
      return sql.transaction(async (tx) => {
        const [id] = (await allocateIds(tx, { resolveRule: 1 })).resolveRule as [string];
        await activateIn(tx, null);
        await run(
          tx,
          typed.insertInto("ResolveRule").values({
            id,
            rule: fragment(tx.dialect.json(row.rule)),
            active: true,
            fittedOn: row.fittedOn,
            checkedOn: row.checkedOn,
            agreementBefore: row.agreementBefore,
            agreementAfter: row.agreementAfter,
            createdById: row.createdById,
            createdAt: now,
          }),
        );
        await insertAudit(tx, [{ ...audit, targetId: id }], now);
        return id;
      });
    },
    /** Rolls back to rule `id` (or to none: the shipped rule), with its audit event. */
    async activate(id: string | null, audit: TAuditWrite, now: Date): Promise<boolean> {
      return sql.transaction(async (tx) => {
        if (id !== null) {
          const [found] = await rows(tx, typed.selectFrom("ResolveRule").select("id").where("id", "=", id));
          if (!found) return false;
        }
        await activateIn(tx, id);
        await insertAudit(tx, [audit], now);
        return true;
      });
    },
    /** The latest `limit` proposals a person decided, newest first, each with resolve's decision. */
    async reviewed(limit: number): Promise<TReviewedDecision[]> {
      const decided = await rows(
        sql,
        typed
          .selectFrom("PromotionEvent as pe")
          .innerJoin("UmbraProposal as p", "p.id", "pe.proposalId")
          .innerJoin("UmbraResolveDecision as d", (join) =>
            join.on((eb) =>
              eb(
                "d.id",
                "=",
                eb
                  .selectFrom("UmbraResolveDecision as d2")
                  .select("d2.id")
                  .whereRef("d2.proposalId", "=", "pe.proposalId")
                  .orderBy("d2.createdAt", "desc")
                  .orderBy("d2.id", "desc")
                  .limit(1),
              ),
            ),
          )
          .select([
            "pe.proposalId as proposalId",
            "p.domain as domain",
            "pe.action as action",
            "pe.finalCfbId as finalCfbId",
            "pe.createdAt as decidedAt",
            "d.decision as decision",
            "d.targetCfbId as targetCfbId",
            "d.mergeCfbIds as mergeCfbIds",
            "d.scores as scores",
          ])
          .where("pe.reopenedAt", "is", null)
          .orderBy("pe.createdAt", "desc")
          .orderBy("pe.id", "desc")
          .limit(limit),
      );
      return decided.map((r) => ({
        ...r,
        decidedAt: dateOf(r.decidedAt).toISOString(),
        mergeCfbIds: (jsonOf(r.mergeCfbIds) as string[] | null) ?? [],
        scores: jsonOf(r.scores),
      }));
    },
  };
}
