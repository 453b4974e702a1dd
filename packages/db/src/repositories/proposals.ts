import {
  type TResolveOutcome,
  type TStoredProposal,
  type TStoredProposalPage,
  ZProposalWarning,
  ZResolveOutcome,
} from "@solserver/contracts";
import { type Expression, expressionBuilder, sql as kyselySql, type SqlBool } from "kysely";
import { Prisma } from "../generated/prisma/client";
import { asStringArray } from "../json";
import { afterCursor, keysetOrder, pageOf, type TKeyset } from "../pagination";
import { prepare } from "../prepared-sql";
import { dateOf, jsonOf, type TSql } from "../sql";
import { fragment, rows, type TDatabase, typed } from "../typed-sql";
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

/** Conditions on the proposal `p` and thread `t` of these statements, built before the statement. */
const onProposal = expressionBuilder<{ p: TDatabase["UmbraProposal"] }, "p">();
const onThread = expressionBuilder<{ t: TDatabase["Thread"] }, "t">();

/** 'pending' as a literal, as these statements always wrote it: the planner sees the value. */
const PENDING = kyselySql.lit("pending");

/** Proposal `p` is an echo: the flag tested bare, which both take (a boolean; 0 / 1 on SQLite). */
const IS_ECHO = onProposal.ref("p.echo").$castTo<SqlBool>();

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
  // What narrows the queue apart from the status: the counts follow these too. For the page, a
  // confidence floor is kept off the confidence index (unindexed) unless the queue is sorted by
  // confidence, so SQLite walks the date index in order instead of sorting every match; a count
  // has no order, and counts through that index.
  const narrowingOf = (forCount: boolean): Expression<SqlBool>[] => [
    ...(q.decision ? [onProposal("p.latestDecision", "=", q.decision)] : []),
    ...(q.domain ? [onProposal("p.domain", "=", q.domain)] : []),
    ...(q.minConfidence !== undefined
      ? [
          forCount || sortName === "confidence"
            ? onProposal("p.confidence", ">=", q.minConfidence)
            : // The dialect's unindexed column (a helper over Prisma.Sql), embedded as a fragment.
              onProposal(fragment<number>(sql.dialect.unindexed(Prisma.sql`p."confidence"`)), ">=", q.minConfidence),
        ]
      : []),
    ...(q.threadId ? [onProposal("p.threadId", "=", q.threadId)] : []),
    ...(q.assigneeId === null ? [onProposal("p.assigneeId", "is", null)] : []),
    ...(q.assigneeId ? [onProposal("p.assigneeId", "=", q.assigneeId)] : []),
  ];
  const narrowing = narrowingOf(false);
  const filters: Expression<SqlBool>[] = [
    ...(q.responseId ? [onProposal("p.responseId", "=", q.responseId)] : []),
    ...(q.status === "all" ? [] : [onProposal("p.status", "=", q.status)]),
    // The pending queue shows each group of twins once, by its lead. Unindexed keeps SQLite from
    // reading "IS NULL" as an equality on the twin index (every lead matches it) instead of
    // walking the status-and-date index in order.
    ...(q.status === "pending" ? [leads(sql, scopeOf(q))] : []),
    ...narrowing,
  ];
  // The keyset helpers (pagination.ts) write the condition and ORDER BY over `p`: fragments.
  const after = await afterCursor(sql, keyset, q.cursor);
  if (after) filters.push(fragment<SqlBool>(after));
  const [idRows, counts] = await Promise.all([
    rows(
      sql,
      visibleProposals(q.ownerId)
        .select("p.id")
        .$if(filters.length > 0, (qb) => qb.where((eb) => eb.and(filters)))
        .orderBy(fragment(keysetOrder(keyset)))
        .limit(q.limit + 1),
    ),
    q.responseId
      ? responseCounts(sql, q.ownerId, q.responseId)
      : narrowing.length > 0
        ? // Counts follow the filters: counted on read under them (without any, the kept counts).
          narrowedCounts(
            sql,
            q.ownerId,
            narrowingOf(true),
            scopeOf(q),
            q.domain !== undefined && narrowing.length === 1,
          )
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

/** The proposals (`p`) `ownerId` may see: a user only those of threads they own; every one when undefined. */
function visibleProposals(ownerId: string | undefined) {
  return typed
    .selectFrom("UmbraProposal as p")
    .$if(ownerId !== undefined, (qb) =>
      qb.innerJoin("Thread as t", (join) =>
        join.onRef("t.id", "=", "p.threadId").on("t.ownerId", "=", ownerId as string),
      ),
    );
}

/** The lead test of proposal-counts.ts (a Prisma.Sql over `p`, unindexed by the dialect) as a condition. */
const leads = (sql: TSql, scope: TLeadScope) => fragment<SqlBool>(leadIn(sql, scope));

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
 * read under the same filters as the page, among the proposals `ownerId` may see.
 */
async function narrowedCounts(
  sql: TSql,
  ownerId: string | undefined,
  narrowing: readonly Expression<SqlBool>[],
  scope: TLeadScope,
  domainOnly: boolean,
): Promise<TStoredProposalPage["counts"]> {
  // One count per status, each through an index that leads with the status and the filter
  // (status+domain, status+decision, status+confidence, status+assignee; a thread's own index):
  // the cost follows the matches, not the queue. Pending counts leads only, as the lists show them.
  // The status as a literal in the select list: PostgreSQL cannot type a bare parameter there.
  const count = (status: "pending" | "approved" | "rejected" | "duplicate", extra: Expression<SqlBool>[] = []) =>
    visibleProposals(ownerId)
      .select((eb) => [kyselySql.lit(status).as("status"), eb.fn.countAll<number>().as("n")])
      .where((eb) => eb.and([eb("p.status", "=", status), ...extra, ...narrowing]));
  // Pending leads: a domain alone is counted from the (status, twin, domain) index without
  // reading a row; any other filter leads with its own index, the twin test kept off the twin
  // index (else SQLite walks every pending lead: 80 ms at 100,000 instead of a few).
  const lead = leads(sql, { ...scope, indexed: domainOnly });
  const counted = await rows(
    sql,
    count("pending", [lead]).unionAll(count("approved")).unionAll(count("rejected")).unionAll(count("duplicate")),
  );
  return countsOf(counted);
}

/**
 * The counts of one response's proposals that the caller may see (`ownerId`), as the lists show
 * them: a handful, counted on read from the response's index.
 */
async function responseCounts(
  sql: TSql,
  ownerId: string | undefined,
  responseId: string,
): Promise<TStoredProposalPage["counts"]> {
  const lead = leads(sql, { acrossOwners: false, indexed: true });
  const counted = await rows(
    sql,
    visibleProposals(ownerId)
      .select((eb) => ["p.status", eb.fn.countAll<number>().as("n")])
      .where("p.responseId", "=", responseId)
      .where((eb) => eb.or([eb("p.status", "<>", PENDING), lead]))
      .groupBy("p.status"),
  );
  return countsOf(counted);
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

const responseFacts = prepare((v: { responseId: string }) =>
  typed
    .selectFrom("UmbraProposal as p")
    // Its latest resolve decision.
    .leftJoin("UmbraResolveDecision as d", (join) =>
      join.on("d.id", "=", (eb) =>
        eb
          .selectFrom("UmbraResolveDecision as l")
          .select("l.id")
          .whereRef("l.proposalId", "=", "p.id")
          .orderBy("l.createdAt", "desc")
          .orderBy("l.id", "desc")
          .limit(eb.lit(1)),
      ),
    )
    // The decision in force: a duplicate's is its twin's.
    .leftJoin("PromotionEvent as e", (join) =>
      join
        .on((eb) =>
          eb(
            "e.proposalId",
            "=",
            eb
              .case()
              .when("p.status", "=", kyselySql.lit("duplicate"))
              .then(eb.ref("p.twinOfId"))
              .else(eb.ref("p.id"))
              .end(),
          ),
        )
        .on("e.reopenedAt", "is", null),
    )
    .leftJoin("User as u", "u.id", "e.decidedById")
    .select([
      "p.id",
      "p.status",
      "p.op",
      "p.targetCfbId",
      "p.warnings",
      "d.decision",
      "d.targetCfbId as decisionTarget",
      "d.mergeCfbIds",
      "d.scores",
      "p.twinOfId",
      "p.decidedAt",
      "e.id as promotionId",
      "e.finalCfbId",
      "u.email as decidedBy",
    ])
    .where("p.responseId", "=", v.responseId)
    .orderBy("p.suggestionIndex"),
);

/**
 * The proposals of one response as a promotion's checks read them, in one statement (hot path:
 * every chat answer with proposals asks, to say what the caller may do with them).
 */
async function proposalFacts(sql: TSql, responseId: string): Promise<TProposalFacts[]> {
  const facts = await rows(sql, responseFacts({ responseId }, sql.dialect));
  return facts.map((r) => ({
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
  const fingerprints = [...new Set(q.fingerprints)];
  const same = SAME_FINGERPRINT[q.ownerId === null ? "thread" : "account"];
  const [sameRows, recent] = await Promise.all([
    fingerprints.length === 0 ? Promise.resolve([]) : rows(sql, same({ ...q, fingerprints }, sql.dialect)),
    rows(sql, recentOfThread({ threadId: q.threadId }, sql.dialect)),
  ]);
  const seen = new Set<string>();
  return [...sameRows, ...recent.map((r) => ({ ...r, own: 1 }))].flatMap((r) => {
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

/** What a twin candidate is read from. */
const TWIN_COLUMNS = ["p.id", "p.op", "p.targetCfbId", "p.fingerprint", "p.deltaSummary", "p.proposedCfb"] as const;

/**
 * The pending leads with one of the turn's fingerprints, `own` 1 for the owner's (the thread's,
 * for a thread without an owner): of another owner only leads of whole groups, not echoes.
 * Prepared (every turn with proposals reads it), one statement for each way of owning.
 */
const sameFingerprintOf = (owner: "account" | "thread") =>
  prepare(
    (v: { ownerId: string | null; threadId: string; fingerprints: string[] }) => {
      const q = { ownerId: owner === "account" ? v.ownerId : null, threadId: v.threadId };
      return typed
        .selectFrom("UmbraProposal as p")
        .innerJoin("Thread as t", "t.id", "p.threadId")
        .select(TWIN_COLUMNS)
        .select((eb) => eb.case().when(ownedBy(q)).then(eb.lit(1)).else(eb.lit(0)).end().as("own"))
        .where("p.fingerprint", "in", v.fingerprints)
        .where("p.status", "=", PENDING)
        .where((eb) => eb.or([eb("p.twinOfId", "is", null), eb.and([IS_ECHO, ownedBy(q)])]));
    },
    ["fingerprints"],
  );
const SAME_FINGERPRINT = { account: sameFingerprintOf("account"), thread: sameFingerprintOf("thread") };

/** The thread's latest pending leads and echoes. */
const recentOfThread = prepare((v: { threadId: string }) =>
  typed
    .selectFrom("UmbraProposal as p")
    .select(TWIN_COLUMNS)
    .where("p.threadId", "=", v.threadId)
    .where("p.status", "=", PENDING)
    .where((eb) => eb.or([eb("p.twinOfId", "is", null), IS_ECHO]))
    .orderBy("p.createdAt", "desc")
    .limit(THREAD_TWIN_CANDIDATES),
);

/** Whether thread `t` is the owner's (the turn's own thread, when it has no owner). */
function ownedBy(q: { ownerId: string | null; threadId: string }): Expression<SqlBool> {
  return q.ownerId === null ? onThread("t.id", "=", q.threadId) : onThread("t.ownerId", "=", q.ownerId);
}

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
