import type { TStoredProposal } from "@solserver/contracts";
import { Prisma } from "../generated/prisma/client";
import { type TPromotionRow, type TProposalRow, type TResolveDecisionRow, toProposal } from "../mappers";
import type { TSql } from "../sql";
import type { TGroupScope } from "./proposal-counts";

// Proposals as the API shows them, read through the driver: the queue's pages, one proposal's
// page, and a promotion that lost a race (which says who won and when).

/**
 * Who decided each of these proposals (a duplicate: whoever decided the twin it was folded into),
 * by email, from the decision in force (not one reopened since); proposals still pending, or
 * decided by an account deleted since, are left out.
 */
const DECIDERS = (list: Prisma.Sql) => Prisma.sql`SELECT p."id" AS "id", u."email" AS "email"
  FROM "UmbraProposal" p
  JOIN "PromotionEvent" e ON e."proposalId" = CASE WHEN p."status" = 'duplicate' THEN p."twinOfId" ELSE p."id" END
    AND e."reopenedAt" IS NULL
  JOIN "User" u ON u."id" = e."decidedById"
  WHERE p."id" IN (${list})`;

/**
 * Proposals by id, each with its decisions (the one in force and any reopened), who decided it,
 * its latest resolve decision, its number of twins and of people, in five statements on the driver whatever
 * the page size, in the order of `ids`.
 */
export async function proposalsByIds(
  sql: TSql,
  ids: readonly string[],
  /** Whose proposals of each group count: every person's (a Jam editor's view), or one owner's. */
  scope: TGroupScope = { acrossOwners: true },
): Promise<TStoredProposal[]> {
  if (ids.length === 0) return [];
  const list = Prisma.join([...ids]);
  const [rows, promotions, decisions, twins, deciders] = await Promise.all([
    sql.query<TProposalRow>(Prisma.sql`SELECT * FROM "UmbraProposal" WHERE "id" IN (${list})`),
    sql.query<TPromotionRow>(Prisma.sql`SELECT * FROM "PromotionEvent" WHERE "proposalId" IN (${list})`),
    sql.query<TResolveDecisionRow>(
      Prisma.sql`SELECT * FROM "UmbraResolveDecision" WHERE "proposalId" IN (${list}) ORDER BY "createdAt" DESC, "id" DESC`,
    ),
    // Its twins: across owners other people's echoes among them, and the pending twins of those
    // echoes; for one owner's view only their own (another person's decides nothing of theirs).
    sql.query<{ id: string; n: number | bigint; echoes: number | bigint }>(
      scope.acrossOwners
        ? Prisma.sql`SELECT "twinOfId" AS "id", COUNT(*) AS "n", SUM(CASE WHEN "echo" THEN 1 ELSE 0 END) AS "echoes"
            FROM "UmbraProposal" WHERE "twinOfId" IN (${list}) GROUP BY "twinOfId"
            UNION ALL SELECT e."twinOfId" AS "id", COUNT(*) AS "n", 0 AS "echoes"
            FROM "UmbraProposal" e JOIN "UmbraProposal" p ON p."twinOfId" = e."id" AND p."status" = 'pending'
            WHERE e."twinOfId" IN (${list}) AND e."echo" AND e."status" = 'pending' GROUP BY e."twinOfId"`
        : Prisma.sql`SELECT "twinOfId" AS "id", COUNT(*) AS "n", 0 AS "echoes"
            FROM "UmbraProposal" WHERE "twinOfId" IN (${list}) AND NOT "echo" GROUP BY "twinOfId"`,
    ),
    sql.query<{ id: string; email: string }>(DECIDERS(list)),
  ]);
  const deciderOf = new Map(deciders.map((d) => [d.id, d.email]));
  const promotionsOf = new Map<string, TPromotionRow[]>();
  for (const p of promotions) {
    const rounds = promotionsOf.get(p.proposalId);
    if (rounds) rounds.push(p);
    else promotionsOf.set(p.proposalId, [p]);
  }
  const twinsOf = new Map<string, { n: number; echoes: number }>();
  for (const t of twins) {
    const sum = twinsOf.get(t.id) ?? { n: 0, echoes: 0 };
    twinsOf.set(t.id, { n: sum.n + Number(t.n), echoes: sum.echoes + Number(t.echoes) });
  }
  const latestOf = new Map<string, TResolveDecisionRow>();
  for (const d of decisions) if (!latestOf.has(d.proposalId)) latestOf.set(d.proposalId, d);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    const latest = latestOf.get(id);
    return [
      toProposal({
        ...row,
        promotions: promotionsOf.get(id) ?? [],
        resolveDecision: latest ? [latest] : [],
        twinCount: twinsOf.get(id)?.n ?? 0,
        people: 1 + (twinsOf.get(id)?.echoes ?? 0),
        decidedBy: deciderOf.get(id) ?? null,
      }),
    ];
  });
}
