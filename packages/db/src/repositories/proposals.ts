import {
  type TResolveOutcome,
  type TStoredProposal,
  type TStoredProposalPage,
  ZProposalWarning,
  ZResolveOutcome,
} from "@solserver/contracts";
import { Prisma } from "../generated/prisma/client";
import { asStringArray } from "../json";
import { afterCursor, keysetOrder, pageOf, type TKeyset } from "../pagination";
import { dateOf, jsonOf, type TSql } from "../sql";
import { applyPromotion, type TPromotionWrite } from "./promotion-write";
import { leadIn, storedProposalCounts, type TGroupScope, type TLeadScope } from "./proposal-counts";
import { proposalsByIds } from "./proposal-read";
import { reopenProposal, type TReopenWrite } from "./proposal-reopen";
import type { TStore } from "./store";

export type TProposalListQuery = {
  status: "pending" | "approved" | "rejected" | "duplicate" | "all";
  /** Only proposals of threads this account owns; undefined for every proposal (Jam). */
  ownerId?: string | undefined;
  responseId?: string | undefined;
  decision?: string | undefined;
  domain?: string | undefined;
  minConfidence?: number | undefined;
  threadId?: string | undefined;
  /** An account id: only proposals assigned to it; null: only unassigned ones. */
  assigneeId?: string | null | undefined;
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
async function listProposals(sql: TSql, q: TProposalListQuery): Promise<TStoredProposalPage> {
  const sortName = q.sort ?? "newest";
  const keyset: TKeyset = { table: "UmbraProposal", alias: "p", what: "proposal", ...SORTS[sortName] };
  // Who may see what: a user only the proposals of threads they own.
  const from =
    q.ownerId === undefined
      ? Prisma.sql`"UmbraProposal" p`
      : Prisma.sql`"UmbraProposal" p JOIN "Thread" t ON t."id" = p."threadId" AND t."ownerId" = ${q.ownerId}`;
  // What narrows the queue apart from the status: the counts follow these too. For the page, a
  // confidence floor is kept off the confidence index (unindexed) unless the queue is sorted by
  // confidence, so SQLite walks the date index in order instead of sorting every match; a count
  // has no order, and counts through that index.
  const narrowingOf = (forCount: boolean) => [
    ...(q.decision ? [Prisma.sql`p."latestDecision" = ${q.decision}`] : []),
    ...(q.domain ? [Prisma.sql`p."domain" = ${q.domain}`] : []),
    ...(q.minConfidence !== undefined
      ? [
          forCount || sortName === "confidence"
            ? Prisma.sql`p."confidence" >= ${q.minConfidence}`
            : Prisma.sql`${sql.dialect.unindexed(Prisma.sql`p."confidence"`)} >= ${q.minConfidence}`,
        ]
      : []),
    ...(q.threadId ? [Prisma.sql`p."threadId" = ${q.threadId}`] : []),
    ...(q.assigneeId === null ? [Prisma.sql`p."assigneeId" IS NULL`] : []),
    ...(q.assigneeId ? [Prisma.sql`p."assigneeId" = ${q.assigneeId}`] : []),
  ];
  const narrowing = narrowingOf(false);
  const filters = [
    ...(q.responseId ? [Prisma.sql`p."responseId" = ${q.responseId}`] : []),
    ...(q.status === "all" ? [] : [Prisma.sql`p."status" = ${q.status}`]),
    // The pending queue shows each group of twins once, by its lead. Unindexed keeps SQLite from
    // reading "IS NULL" as an equality on the twin index (every lead matches it) instead of
    // walking the status-and-date index in order.
    ...(q.status === "pending" ? [leadIn(sql, scopeOf(q))] : []),
    ...narrowing,
  ];
  const after = await afterCursor(sql, keyset, q.cursor);
  if (after) filters.push(after);
  const where = filters.length > 0 ? Prisma.sql`WHERE ${Prisma.join(filters, " AND ")}` : Prisma.empty;
  const [idRows, counts] = await Promise.all([
    sql.query<{ id: string }>(
      Prisma.sql`SELECT p."id" AS "id" FROM ${from} ${where}
        ORDER BY ${keysetOrder(keyset)} LIMIT ${q.limit + 1}`,
    ),
    q.responseId
      ? responseCounts(sql, from, q.responseId)
      : narrowing.length > 0
        ? // Counts follow the filters: counted on read under them (without any, the kept counts).
          narrowedCounts(sql, from, narrowingOf(true), scopeOf(q), q.domain !== undefined && narrowing.length === 1)
        : queueCounts(sql, q.ownerId),
  ]);
  const { page, nextCursor } = pageOf(idRows, q.limit, (r) => r.id);
  return {
    items: await proposalsByIds(
      sql,
      page.map((r) => r.id),
      { acrossOwners: q.ownerId === undefined },
    ),
    next_cursor: nextCursor,
    counts,
  };
}

const scopeOf = (q: Pick<TProposalListQuery, "ownerId" | "threadId" | "responseId">): TLeadScope => ({
  acrossOwners: q.ownerId === undefined && q.threadId === undefined && q.responseId === undefined,
});

/**
 * The counts of a caller's queue, as the lists show them: pending counts the leads (a pending
 * twin is in its lead's `twin_count`; an echo too, in the Jam queue). Read from the counts kept by
 * every write (proposal-counts.ts): one owner's rows, or every owner's summed for a Jam editor,
 * the same few rows at any size of the queue.
 */
async function queueCounts(sql: TSql, ownerId: string | undefined): Promise<TStoredProposalPage["counts"]> {
  const stored = await storedProposalCounts(sql, ownerId);
  return {
    pending: (stored.pending ?? 0) + (ownerId === undefined ? 0 : (stored.echo ?? 0)),
    approved: stored.approved ?? 0,
    rejected: stored.rejected ?? 0,
    duplicate: stored.duplicate ?? 0,
  };
}

/**
 * The counts of a filtered queue (decision, domain, confidence, thread, assignee), counted on
 * read under the same filters as the page.
 */
async function narrowedCounts(
  sql: TSql,
  from: Prisma.Sql,
  narrowing: readonly Prisma.Sql[],
  scope: TLeadScope,
  domainOnly: boolean,
): Promise<TStoredProposalPage["counts"]> {
  // One count per status, each through an index that leads with the status and the filter
  // (status+domain, status+decision, status+confidence, status+assignee; a thread's own index):
  // the cost follows the matches, not the queue. Pending counts leads only, as the lists show them.
  const where = Prisma.join([...narrowing], " AND ");
  // The status as a literal in the select list: PostgreSQL cannot type a bare parameter there.
  const count = (status: "pending" | "approved" | "rejected" | "duplicate", extra: Prisma.Sql = Prisma.empty) =>
    Prisma.sql`SELECT ${Prisma.raw(`'${status}'`)} AS "status", COUNT(*) AS "n" FROM ${from}
      WHERE p."status" = ${status} ${extra} AND ${where}`;
  // Pending leads: a domain alone is counted from the (status, twin, domain) index without
  // reading a row; any other filter leads with its own index, the twin test kept off the twin
  // index (else SQLite walks every pending lead: 80 ms at 100,000 instead of a few).
  const lead = Prisma.sql`AND ${leadIn(sql, { ...scope, indexed: domainOnly })}`;
  const rows = await sql.query<{ status: string; n: number }>(
    Prisma.sql`${count("pending", lead)} UNION ALL ${count("approved")}
      UNION ALL ${count("rejected")} UNION ALL ${count("duplicate")}`,
  );
  return countsOf(rows);
}

/**
 * The counts of one response's proposals that the caller may see (`from`), as the lists show
 * them: a handful, counted on read from the response's index.
 */
async function responseCounts(sql: TSql, from: Prisma.Sql, responseId: string): Promise<TStoredProposalPage["counts"]> {
  const rows = await sql.query<{ status: string; n: number }>(
    Prisma.sql`SELECT p."status" AS "status", COUNT(*) AS "n" FROM ${from}
      WHERE p."responseId" = ${responseId} AND (p."status" <> 'pending' OR ${leadIn(sql, { acrossOwners: false, indexed: true })})
      GROUP BY p."status"`,
  );
  return countsOf(rows);
}

function countsOf(rows: readonly { status: string; n: number }[]): TStoredProposalPage["counts"] {
  const counts = { pending: 0, approved: 0, rejected: 0, duplicate: 0 };
  for (const r of rows) if (r.status in counts) counts[r.status as keyof typeof counts] = Number(r.n);
  return counts;
}

async function getProposal(sql: TSql, proposalId: string, scope?: TGroupScope): Promise<TStoredProposal | null> {
  return (await proposalsByIds(sql, [proposalId], scope))[0] ?? null;
}

/**
 * What a promotion's checks read of a proposal: its state (and of a decided one who decided it
 * when, and the CFB it wrote), the model's target, resolve's latest decision.
 */
export type TProposalFacts = Pick<
  TStoredProposal,
  | "proposal_id"
  | "response_id"
  | "status"
  | "op"
  | "target_cfb_id"
  | "warnings"
  | "twin_of_id"
  | "decided_ts"
  | "decided_by"
> & {
  promotion: { final_cfb_id: string | null } | null;
  resolve: Pick<TResolveOutcome, "decision" | "target_cfb_id" | "merge_cfb_ids" | "scores"> | null;
};

/**
 * The proposals of one response as a promotion's checks read them, in one statement (hot path:
 * every chat answer with proposals asks, to say what the caller may do with them).
 */
async function proposalFacts(sql: TSql, responseId: string): Promise<TProposalFacts[]> {
  const rows = await sql.query<{
    id: string;
    status: string;
    op: string;
    targetCfbId: string | null;
    warnings: unknown;
    decision: string | null;
    decisionTarget: string | null;
    mergeCfbIds: unknown;
    scores: unknown;
    twinOfId: string | null;
    decidedAt: unknown;
    promotionId: string | null;
    finalCfbId: string | null;
    decidedBy: string | null;
  }>(Prisma.sql`SELECT p."id" AS "id", p."status" AS "status", p."op" AS "op", p."targetCfbId" AS "targetCfbId",
      p."warnings" AS "warnings", d."decision" AS "decision", d."targetCfbId" AS "decisionTarget",
      d."mergeCfbIds" AS "mergeCfbIds", d."scores" AS "scores", p."twinOfId" AS "twinOfId", p."decidedAt" AS "decidedAt",
      e."id" AS "promotionId", e."finalCfbId" AS "finalCfbId", u."email" AS "decidedBy"
    FROM "UmbraProposal" p
    LEFT JOIN "UmbraResolveDecision" d ON d."id" = (
      SELECT l."id" FROM "UmbraResolveDecision" l WHERE l."proposalId" = p."id"
      ORDER BY l."createdAt" DESC, l."id" DESC LIMIT 1)
    LEFT JOIN "PromotionEvent" e
      ON e."proposalId" = CASE WHEN p."status" = 'duplicate' THEN p."twinOfId" ELSE p."id" END
      AND e."reopenedAt" IS NULL
    LEFT JOIN "User" u ON u."id" = e."decidedById"
    WHERE p."responseId" = ${responseId}
    ORDER BY p."suggestionIndex"`);
  return rows.map((r) => ({
    proposal_id: r.id,
    response_id: responseId,
    status: r.status as TProposalFacts["status"],
    op: r.op as TProposalFacts["op"],
    target_cfb_id: r.targetCfbId,
    warnings: asStringArray(jsonOf(r.warnings), "UmbraProposal.warnings").map((w) => ZProposalWarning.parse(w)),
    twin_of_id: r.twinOfId,
    decided_ts: r.decidedAt === null ? null : dateOf(r.decidedAt).toISOString(),
    decided_by: r.decidedBy,
    // A duplicate's promotion is its twin's: the CFB that twin wrote is not the duplicate's.
    promotion: r.promotionId !== null && r.status !== "duplicate" ? { final_cfb_id: r.finalCfbId } : null,
    resolve:
      r.decision === null
        ? null
        : {
            decision: r.decision as NonNullable<TProposalFacts["resolve"]>["decision"],
            target_cfb_id: r.decisionTarget,
            merge_cfb_ids:
              r.mergeCfbIds === null ? [] : asStringArray(jsonOf(r.mergeCfbIds), "UmbraResolveDecision.mergeCfbIds"),
            // The held reasons read them (another subject, a changed value): the same as the queue's.
            scores: ZResolveOutcome.shape.scores.parse(jsonOf(r.scores)),
          },
  }));
}

/** A pending lead as a new proposal is compared with it, to find its twin. */
export type TTwinCandidate = {
  proposalId: string;
  op: string;
  targetCfbId: string | null;
  fingerprint: string;
  title: string;
  deltaSummary: string;
  tags: string[];
  entities: string[];
  /** Another person's (a thread of another owner): a proposal may only echo it, by fingerprint. */
  otherOwner: boolean;
};

/** How many of a thread's newest pending leads a new proposal is compared with. */
const THREAD_TWIN_CANDIDATES = 50;

/**
 * The pending leads a turn's new proposals may be twins of: those with one of their fingerprints
 * in any thread (the fingerprint index), and the newest of the turn's own thread (the thread
 * index), for restatements in other words. Both are bounded however big the queue. The same
 * owner's leads include their echoes (leads in that owner's queue); another owner's (any other
 * thread, for a thread without an owner) only the leads of whole groups.
 */
export async function twinCandidates(
  sql: TSql,
  q: { ownerId: string | null; threadId: string; fingerprints: readonly string[] },
): Promise<TTwinCandidate[]> {
  const ownLead = Prisma.sql`p."status" = 'pending' AND (p."twinOfId" IS NULL OR p."echo")`;
  const own = q.ownerId === null ? Prisma.sql`t."id" = ${q.threadId}` : Prisma.sql`t."ownerId" = ${q.ownerId}`;
  const [same, recent] = await Promise.all([
    q.fingerprints.length === 0
      ? Promise.resolve([])
      : sql.query<TTwinRow & { own: unknown }>(Prisma.sql`SELECT ${TWIN_COLUMNS},
            CASE WHEN ${own} THEN 1 ELSE 0 END AS "own" FROM "UmbraProposal" p
          JOIN "Thread" t ON t."id" = p."threadId"
          WHERE p."fingerprint" IN (${Prisma.join([...new Set(q.fingerprints)])}) AND p."status" = 'pending'
            AND (p."twinOfId" IS NULL OR (p."echo" AND ${own}))`),
    sql.query<TTwinRow>(Prisma.sql`SELECT ${TWIN_COLUMNS} FROM "UmbraProposal" p
      WHERE p."threadId" = ${q.threadId} AND ${ownLead}
      ORDER BY p."createdAt" DESC LIMIT ${THREAD_TWIN_CANDIDATES}`),
  ]);
  const seen = new Set<string>();
  return [...same, ...recent.map((r) => ({ ...r, own: 1 }))].flatMap((r) => {
    if (seen.has(r.id)) return [];
    seen.add(r.id);
    const proposed = jsonOf(r.proposedCfb) as { title: string; tags?: unknown; entities?: unknown };
    return [
      {
        proposalId: r.id,
        op: r.op,
        targetCfbId: r.targetCfbId,
        fingerprint: r.fingerprint,
        title: proposed.title,
        deltaSummary: r.deltaSummary,
        tags: asStringArray(proposed.tags ?? [], "UmbraProposal.proposedCfb.tags"),
        entities: asStringArray(proposed.entities ?? [], "UmbraProposal.proposedCfb.entities"),
        otherOwner: Number(r.own) === 0,
      },
    ];
  });
}

type TTwinRow = {
  id: string;
  op: string;
  targetCfbId: string | null;
  fingerprint: string;
  deltaSummary: string;
  proposedCfb: unknown;
};
const TWIN_COLUMNS = Prisma.sql`p."id" AS "id", p."op" AS "op", p."targetCfbId" AS "targetCfbId",
  p."fingerprint" AS "fingerprint", p."deltaSummary" AS "deltaSummary", p."proposedCfb" AS "proposedCfb"`;

export function proposalRepository({ sql }: TStore) {
  return {
    list: (q: TProposalListQuery) => listProposals(sql, q),
    /** One proposal; its group counted for `scope` (every person's when not given). */
    get: (proposalId: string, scope?: TGroupScope) => getProposal(sql, proposalId, scope),
    /** A response's proposals as a promotion's checks read them (one statement). */
    facts: (responseId: string) => proposalFacts(sql, responseId),
    applyPromotion: (w: TPromotionWrite) => applyPromotion(sql, w),
    /** The pending leads a turn's new proposals may be twins of (bounded, two indexed statements). */
    twinCandidates: (q: Parameters<typeof twinCandidates>[1]) => twinCandidates(sql, q),
    /** A rejected proposal back to pending, its rejection kept (proposal-reopen.ts). */
    reopen: (w: TReopenWrite) => reopenProposal(sql, w),
  };
}

export type { TPromotionResult, TPromotionWrite } from "./promotion-write";
export type { TReopenWrite } from "./proposal-reopen";
