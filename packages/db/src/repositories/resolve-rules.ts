// Resolve's decision rules refitted on a knowledge base's own reviewers (ResolveRule), and the
// reviewers' decisions they are fitted on: every decided proposal (its latest decision, not a
// reopened one) beside the resolve decision taken for it, with that decision's scores.

import { Prisma } from "../generated/prisma/client";
import { allocateIds } from "../ids";
import { dateOf, jsonOf, type TSql } from "../sql";
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

type TRuleRow = Omit<TResolveRuleRow, "createdAt" | "active"> & { active: unknown; createdAt: unknown };

const RULE_COLUMNS = Prisma.sql`"id", "rule", "active", "fittedOn", "checkedOn", "agreementBefore", "agreementAfter",
  "createdById", "createdAt"`;

function toRow(r: TRuleRow): TResolveRuleRow {
  return {
    ...r,
    rule: jsonOf(r.rule),
    active: r.active === true || r.active === 1 || r.active === "1",
    fittedOn: Number(r.fittedOn),
    checkedOn: Number(r.checkedOn),
    agreementBefore: Number(r.agreementBefore),
    agreementAfter: Number(r.agreementAfter),
    createdAt: dateOf(r.createdAt).toISOString(),
  };
}

/** Makes `id` the one active rule (null: none, the shipped rule decides), in `tx`. */
async function activateIn(tx: TSql, id: string | null): Promise<void> {
  await tx.execute(Prisma.sql`UPDATE "ResolveRule" SET "active" = ${false} WHERE "active" = ${true}`);
  if (id !== null) await tx.execute(Prisma.sql`UPDATE "ResolveRule" SET "active" = ${true} WHERE "id" = ${id}`);
}

export function resolveRuleRepository({ sql }: TStore) {
  return {
    /** The active refitted rule, or null (the shipped rule decides). */
    async active(): Promise<TResolveRuleRow | null> {
      const [row] = await sql.query<TRuleRow>(
        Prisma.sql`SELECT ${RULE_COLUMNS} FROM "ResolveRule" WHERE "active" = ${true} LIMIT 1`,
      );
      return row ? toRow(row) : null;
    },
    /** Every refitted rule, newest first. */
    async list(limit = 50): Promise<TResolveRuleRow[]> {
      const rows = await sql.query<TRuleRow>(
        Prisma.sql`SELECT ${RULE_COLUMNS} FROM "ResolveRule" ORDER BY "createdAt" DESC, "id" DESC LIMIT ${limit}`,
      );
      return rows.map(toRow);
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
        await tx.execute(Prisma.sql`INSERT INTO "ResolveRule" ("id", "rule", "active", "fittedOn", "checkedOn",
            "agreementBefore", "agreementAfter", "createdById", "createdAt")
          VALUES (${id}, ${tx.dialect.json(row.rule)}, ${true}, ${row.fittedOn}, ${row.checkedOn},
            ${row.agreementBefore}, ${row.agreementAfter}, ${row.createdById}, ${now})`);
        await insertAudit(tx, [{ ...audit, targetId: id }], now);
        return id;
      });
    },
    /** Rolls back to rule `id` (or to none: the shipped rule), with its audit event. */
    async activate(id: string | null, audit: TAuditWrite, now: Date): Promise<boolean> {
      return sql.transaction(async (tx) => {
        if (id !== null) {
          const [found] = await tx.query<{ id: string }>(Prisma.sql`SELECT "id" FROM "ResolveRule" WHERE "id" = ${id}`);
          if (!found) return false;
        }
        await activateIn(tx, id);
        await insertAudit(tx, [audit], now);
        return true;
      });
    },
    /** The latest `limit` proposals a person decided, newest first, each with resolve's decision. */
    async reviewed(limit: number): Promise<TReviewedDecision[]> {
      const rows = await sql.query<{
        proposalId: string;
        domain: string;
        action: string;
        finalCfbId: string | null;
        decidedAt: unknown;
        decision: string;
        targetCfbId: string | null;
        mergeCfbIds: unknown;
        scores: unknown;
      }>(
        Prisma.sql`SELECT pe."proposalId" AS "proposalId", p."domain" AS "domain", pe."action" AS "action",
            pe."finalCfbId" AS "finalCfbId", pe."createdAt" AS "decidedAt", d."decision" AS "decision",
            d."targetCfbId" AS "targetCfbId", d."mergeCfbIds" AS "mergeCfbIds", d."scores" AS "scores"
          FROM "PromotionEvent" pe
          JOIN "UmbraProposal" p ON p."id" = pe."proposalId"
          JOIN "UmbraResolveDecision" d ON d."id" = (
            SELECT d2."id" FROM "UmbraResolveDecision" d2 WHERE d2."proposalId" = pe."proposalId"
            ORDER BY d2."createdAt" DESC, d2."id" DESC LIMIT 1)
          WHERE pe."reopenedAt" IS NULL
          ORDER BY pe."createdAt" DESC, pe."id" DESC LIMIT ${limit}`,
      );
      return rows.map((r) => ({
        ...r,
        decidedAt: dateOf(r.decidedAt).toISOString(),
        mergeCfbIds: (jsonOf(r.mergeCfbIds) as string[] | null) ?? [],
        scores: jsonOf(r.scores),
      }));
    },
  };
}
