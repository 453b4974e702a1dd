import {
  DomainError,
  type TResolveOutcome,
  type TStoredProposal,
  type TStoredProposalPage,
  ZProposalWarning,
} from "@solserver/contracts";
import type { DbClient } from "../client";
import { Prisma } from "../generated/prisma/client";
import { asStringArray } from "../json";
import { toProposal } from "../mappers";
import { pageOf } from "../pagination";
import { jsonOf, type TSql } from "../sql";

/** The latest resolve decision of a proposal (at promotion if taken, else at creation). */
const LATEST_DECISION = { orderBy: [{ createdAt: "desc" as const }, { id: "desc" as const }], take: 1 };

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
const SORTS = {
  newest: { columns: Prisma.sql`p."createdAt", p."seq"`, order: Prisma.sql`p."createdAt" DESC, p."seq" DESC`, op: "<" },
  oldest: { columns: Prisma.sql`p."createdAt", p."seq"`, order: Prisma.sql`p."createdAt" ASC, p."seq" ASC`, op: ">" },
  confidence: {
    columns: Prisma.sql`p."confidence", p."createdAt", p."seq"`,
    order: Prisma.sql`p."confidence" DESC, p."createdAt" DESC, p."seq" DESC`,
    op: "<",
  },
} as const;

/**
 * The review queue: filters on status, resolve's decision, domain, confidence and thread (each
 * backed by an index that leads with the status), three sorts, keyset pagination whatever the
 * sort (the cursor is the last id of the previous page), and counts per status. The page's ids
 * come from one statement through the hot-path driver; the proposals themselves (with their
 * promotion and latest resolve decision) from Prisma.
 */
export async function listProposals(db: DbClient, sql: TSql, q: TProposalListQuery): Promise<TStoredProposalPage> {
  const sortName = q.sort ?? "newest";
  const sort = SORTS[sortName];
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
  if (q.cursor !== undefined) {
    const [c] = await sql.query<{ seq: number; createdAt: unknown; confidence: number }>(
      Prisma.sql`SELECT "seq", "createdAt", "confidence" FROM "UmbraProposal" WHERE "id" = ${q.cursor}`,
    );
    if (!c) throw new DomainError("NOT_FOUND", `cursor: proposal ${q.cursor} does not exist`, { field: "cursor" });
    // Compared as stored (dates as Prisma's text), so the row value matches the index's order.
    const values =
      sortName === "confidence"
        ? Prisma.sql`(${c.confidence}, ${c.createdAt}, ${c.seq})`
        : Prisma.sql`(${c.createdAt}, ${c.seq})`;
    filters.push(Prisma.sql`(${sort.columns}) ${Prisma.raw(sort.op)} ${values}`);
  }
  const where = (parts: Prisma.Sql[]) =>
    parts.length > 0 ? Prisma.sql`WHERE ${Prisma.join(parts, " AND ")}` : Prisma.empty;
  const [idRows, grouped] = await Promise.all([
    sql.query<{ id: string }>(
      Prisma.sql`SELECT p."id" AS "id" FROM ${from} ${where(filters)} ORDER BY ${sort.order} LIMIT ${q.limit + 1}`,
    ),
    sql.query<{ status: string; n: number }>(
      Prisma.sql`SELECT p."status" AS "status", COUNT(*) AS "n" FROM ${from} ${where(scope)} GROUP BY p."status"`,
    ),
  ]);
  const ids = idRows.map((r) => r.id);
  const found = await db.umbraProposal.findMany({
    where: { id: { in: ids } },
    include: { promotion: true, resolveDecision: LATEST_DECISION },
  });
  const byId = new Map(found.map((r) => [r.id, r]));
  const rows = ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [row] : [];
  });
  const counts = { pending: 0, approved: 0, rejected: 0 };
  for (const g of grouped) {
    if (g.status === "pending" || g.status === "approved" || g.status === "rejected") counts[g.status] = Number(g.n);
  }
  const { page, nextCursor } = pageOf(rows, q.limit);
  return { items: page.map(toProposal), next_cursor: nextCursor, counts };
}

export async function getProposal(db: DbClient, proposalId: string): Promise<TStoredProposal | null> {
  const row = await db.umbraProposal.findUnique({
    where: { id: proposalId },
    include: { promotion: true, resolveDecision: LATEST_DECISION },
  });
  return row ? toProposal(row) : null;
}

export type { TPromotionResult, TPromotionWrite } from "./promotion-write";

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
