import {
  type TResolveOutcome,
  type TStoredProposal,
  type TStoredProposalPage,
  ZProposalWarning,
} from "@solserver/contracts";
import type { DbClient } from "../client";
import { Prisma } from "../generated/prisma/client";
import { asStringArray } from "../json";
import {
  PROMOTION_SELECT,
  PROPOSAL_SELECT,
  RESOLVE_DECISION_SELECT,
  type TPromotionRow,
  type TProposalRow,
  type TResolveDecisionRow,
  toProposal,
} from "../mappers";
import { afterCursor, keysetOrder, pageOf, type TKeyset } from "../pagination";
import { jsonOf, type TSql } from "../sql";
import { applyPromotion, type TPromotionWrite } from "./promotion-write";
import { reopenProposal, type TReopenWrite } from "./proposal-reopen";
import type { TStore } from "./store";

/** The latest resolve decision of a proposal (at promotion if taken, else at creation). */
const LATEST_DECISION = { orderBy: [{ createdAt: "desc" as const }, { id: "desc" as const }], take: 1 };

/**
 * Proposals by id, each with its decisions and latest resolve decision (three statements on the
 * hot-path driver, whatever the page size), in the order of `ids`.
 */
export async function proposalsByIds(sql: TSql, ids: readonly string[]): Promise<TStoredProposal[]> {
  if (ids.length === 0) return [];
  const list = Prisma.join([...ids]);
  const [rows, promotions, decisions] = await Promise.all([
    sql.query<TProposalRow>(Prisma.sql`SELECT * FROM "UmbraProposal" WHERE "id" IN (${list})`),
    sql.query<TPromotionRow>(Prisma.sql`SELECT * FROM "PromotionEvent" WHERE "proposalId" IN (${list})`),
    sql.query<TResolveDecisionRow>(
      Prisma.sql`SELECT * FROM "UmbraResolveDecision" WHERE "proposalId" IN (${list}) ORDER BY "createdAt" DESC, "id" DESC`,
    ),
  ]);
  const promotionsOf = new Map<string, TPromotionRow[]>();
  for (const p of promotions) {
    const list = promotionsOf.get(p.proposalId);
    if (list) list.push(p);
    else promotionsOf.set(p.proposalId, [p]);
  }
  const latestOf = new Map<string, TResolveDecisionRow>();
  for (const d of decisions) if (!latestOf.has(d.proposalId)) latestOf.set(d.proposalId, d);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    const latest = latestOf.get(id);
    return [toProposal({ ...row, promotions: promotionsOf.get(id) ?? [], resolveDecision: latest ? [latest] : [] })];
  });
}

export type TProposalListQuery = {
  status: "pending" | "approved" | "rejected" | "all";
  /** Only proposals of threads this account owns; undefined for every proposal (Jam). */
  ownerId?: string | undefined;
  responseId?: string | undefined;
  decision?: string | undefined;
  domain?: string | undefined;
  minConfidence?: number | undefined;
  threadId?: string | undefined;
  sort?: "newest" | "oldest" | "confidence" | undefined;
  cursor?: string | undefined;
  limit: number;
};

// Each sort as ORDER BY columns with one direction: the keyset condition is then a single
// row-value comparison, which SQLite (and PostgreSQL) answer from an index at any page depth.
// An OR of comparisons, as an ORM writes it, is not: it scanned 100k rows per page.
// Ties on the time break on `seq`, the id's number (ids order as text: "UP-10000" < "UP-9999").
const SORTS: Record<NonNullable<TProposalListQuery["sort"]>, Pick<TKeyset, "columns" | "direction">> = {
  newest: { columns: ["createdAt", "seq"], direction: "desc" },
  oldest: { columns: ["createdAt", "seq"], direction: "asc" },
  confidence: { columns: ["confidence", "createdAt", "seq"], direction: "desc" },
};

/**
 * The review queue: filters on status, resolve's decision, domain, confidence and thread (each
 * backed by an index that leads with the status), three sorts, keyset pagination whatever the
 * sort (the cursor is the last id of the previous page), and counts per status, all through the
 * SQL driver: the page's ids in one statement, then the proposals with their promotion and latest
 * resolve decision (proposalsByIds).
 */
export async function listProposals(sql: TSql, q: TProposalListQuery): Promise<TStoredProposalPage> {
  const sortName = q.sort ?? "newest";
  const keyset: TKeyset = { table: "UmbraProposal", alias: "p", what: "proposal", ...SORTS[sortName] };
  // Who may see what: a user only the proposals of threads they own.
  const from =
    q.ownerId === undefined
      ? Prisma.sql`"UmbraProposal" p`
      : Prisma.sql`"UmbraProposal" p JOIN "Thread" t ON t."id" = p."threadId" AND t."ownerId" = ${q.ownerId}`;
  const scope = [...(q.responseId ? [Prisma.sql`p."responseId" = ${q.responseId}`] : [])];
  const filters = [
    ...scope,
    ...(q.status === "all" ? [] : [Prisma.sql`p."status" = ${q.status}`]),
    ...(q.decision ? [Prisma.sql`p."latestDecision" = ${q.decision}`] : []),
    ...(q.domain ? [Prisma.sql`p."domain" = ${q.domain}`] : []),
    // Unary + keeps SQLite from choosing the confidence index for a range and then sorting
    // every match by date: unless the queue is sorted by confidence, the date index leads.
    ...(q.minConfidence !== undefined
      ? [
          sortName === "confidence"
            ? Prisma.sql`p."confidence" >= ${q.minConfidence}`
            : Prisma.sql`+p."confidence" >= ${q.minConfidence}`,
        ]
      : []),
    ...(q.threadId ? [Prisma.sql`p."threadId" = ${q.threadId}`] : []),
  ];
  const after = await afterCursor(sql, keyset, q.cursor);
  if (after) filters.push(after);
  const where = (parts: Prisma.Sql[]) =>
    parts.length > 0 ? Prisma.sql`WHERE ${Prisma.join(parts, " AND ")}` : Prisma.empty;
  const [idRows, grouped] = await Promise.all([
    sql.query<{ id: string }>(
      Prisma.sql`SELECT p."id" AS "id" FROM ${from} ${where(filters)}
        ORDER BY ${keysetOrder(keyset)} LIMIT ${q.limit + 1}`,
    ),
    sql.query<{ status: string; n: number }>(
      Prisma.sql`SELECT p."status" AS "status", COUNT(*) AS "n" FROM ${from} ${where(scope)} GROUP BY p."status"`,
    ),
  ]);
  const { page, nextCursor } = pageOf(idRows, q.limit, (r) => r.id);
  const counts = { pending: 0, approved: 0, rejected: 0 };
  for (const g of grouped) {
    if (g.status === "pending" || g.status === "approved" || g.status === "rejected") counts[g.status] = Number(g.n);
  }
  return {
    items: await proposalsByIds(
      sql,
      page.map((r) => r.id),
    ),
    next_cursor: nextCursor,
    counts,
  };
}

export async function getProposal(db: DbClient, proposalId: string): Promise<TStoredProposal | null> {
  const row = await db.umbraProposal.findUnique({
    where: { id: proposalId },
    select: {
      ...PROPOSAL_SELECT,
      promotions: { select: PROMOTION_SELECT },
      resolveDecision: { select: RESOLVE_DECISION_SELECT, ...LATEST_DECISION },
    },
  });
  return row ? toProposal(row) : null;
}

/** What a promotion's checks read of a proposal: its state, the model's target, resolve's latest decision. */
export type TProposalFacts = Pick<
  TStoredProposal,
  "proposal_id" | "response_id" | "status" | "op" | "target_cfb_id" | "warnings"
> & { resolve: Pick<TResolveOutcome, "decision" | "target_cfb_id" | "merge_cfb_ids"> | null };

/**
 * The proposals of one response as a promotion's checks read them, in one statement (hot path:
 * every chat answer with proposals asks, to say what the caller may do with them).
 */
export async function proposalFacts(sql: TSql, responseId: string): Promise<TProposalFacts[]> {
  const rows = await sql.query<{
    id: string;
    status: string;
    op: string;
    targetCfbId: string | null;
    warnings: unknown;
    decision: string | null;
    decisionTarget: string | null;
    mergeCfbIds: unknown;
  }>(Prisma.sql`SELECT p."id" AS "id", p."status" AS "status", p."op" AS "op", p."targetCfbId" AS "targetCfbId",
      p."warnings" AS "warnings", d."decision" AS "decision", d."targetCfbId" AS "decisionTarget",
      d."mergeCfbIds" AS "mergeCfbIds"
    FROM "UmbraProposal" p
    LEFT JOIN "UmbraResolveDecision" d ON d."id" = (
      SELECT l."id" FROM "UmbraResolveDecision" l WHERE l."proposalId" = p."id"
      ORDER BY l."createdAt" DESC, l."id" DESC LIMIT 1)
    WHERE p."responseId" = ${responseId}
    ORDER BY p."suggestionIndex"`);
  return rows.map((r) => ({
    proposal_id: r.id,
    response_id: responseId,
    status: r.status as TProposalFacts["status"],
    op: r.op as TProposalFacts["op"],
    target_cfb_id: r.targetCfbId,
    warnings: asStringArray(jsonOf(r.warnings), "UmbraProposal.warnings").map((w) => ZProposalWarning.parse(w)),
    resolve:
      r.decision === null
        ? null
        : {
            decision: r.decision as NonNullable<TProposalFacts["resolve"]>["decision"],
            target_cfb_id: r.decisionTarget,
            merge_cfb_ids:
              r.mergeCfbIds === null ? [] : asStringArray(jsonOf(r.mergeCfbIds), "UmbraResolveDecision.mergeCfbIds"),
          },
  }));
}

export function proposalRepository({ prisma, sql }: TStore) {
  return {
    list: (q: TProposalListQuery) => listProposals(sql, q),
    get: (proposalId: string) => getProposal(prisma, proposalId),
    /** A response's proposals as a promotion's checks read them (one statement). */
    facts: (responseId: string) => proposalFacts(sql, responseId),
    applyPromotion: (w: TPromotionWrite) => applyPromotion(sql, w),
    /** A rejected proposal back to pending, its rejection kept (proposal-reopen.ts). */
    reopen: (w: TReopenWrite) => reopenProposal(sql, w),
  };
}

export type { TPromotionResult, TPromotionWrite } from "./promotion-write";
export type { TReopenResult, TReopenWrite } from "./proposal-reopen";
