import type {
  TPersonRef,
  TProposalComment,
  TProposalQueuesResponse,
  TQueueContext,
  TStoredProposal,
} from "@solserver/contracts";
import { Prisma } from "../generated/prisma/client";
import { timeOrderedId } from "../ids";
import { dateOf, jsonOf, type TSql, type TSqlDriver } from "../sql";
import { insertAudit, type TAuditWrite } from "./audit";
import { leadIn } from "./proposal-counts";
import type { TStore } from "./store";

// The review desk (issue 23): what a queue card shows beside the proposal, the per-domain
// queues, assignment, and the discussion on a proposal. Reads are a few statements per page
// whatever its size; each write is one transaction with its audit event.

type TPersonRow = { id: string; name: string; email: string };
const person = (r: TPersonRow | undefined): TPersonRef | null =>
  r ? { user_id: r.id, name: r.name, email: r.email } : null;

async function peopleByIds(sql: TSql, ids: readonly (string | null)[]): Promise<Map<string, TPersonRow>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await sql.query<TPersonRow>(
    Prisma.sql`SELECT "id" AS "id", "name" AS "name", "email" AS "email" FROM "User" WHERE "id" IN (${Prisma.join(wanted)})`,
  );
  return new Map(rows.map((r) => [r.id, r]));
}

/** Each proposal's card context, by id: four statements for the whole page whatever its size. */
async function queueContexts(sql: TSql, proposals: readonly TStoredProposal[]): Promise<Map<string, TQueueContext>> {
  if (proposals.length === 0) return new Map();
  const ids = Prisma.join(proposals.map((p) => p.proposal_id));
  const targets = [...new Set(proposals.flatMap((p) => (p.target_cfb_id ? [p.target_cfb_id] : [])))];
  const [threads, cfbs, comments] = await Promise.all([
    sql.query<{ id: string; title: string; ownerId: string | null; assigneeId: string | null }>(
      Prisma.sql`SELECT p."id" AS "id", t."title" AS "title", t."ownerId" AS "ownerId", p."assigneeId" AS "assigneeId"
        FROM "UmbraProposal" p JOIN "Thread" t ON t."id" = p."threadId" WHERE p."id" IN (${ids})`,
    ),
    targets.length === 0
      ? Promise.resolve([])
      : sql.query<{ id: string; title: string; summary: string; version: number }>(
          Prisma.sql`SELECT "id" AS "id", "title" AS "title", "summary" AS "summary", "version" AS "version"
            FROM "Cfb" WHERE "id" IN (${Prisma.join(targets)}) AND "retiredAt" IS NULL AND "mergedIntoId" IS NULL`,
        ),
    sql.query<{ proposalId: string; kind: string; authorId: string | null; createdAt: unknown }>(
      Prisma.sql`SELECT "proposalId" AS "proposalId", "kind" AS "kind", "authorId" AS "authorId", "createdAt" AS "createdAt"
        FROM "ProposalComment" WHERE "proposalId" IN (${ids}) ORDER BY "createdAt", "id"`,
    ),
  ]);
  const people = await peopleByIds(
    sql,
    threads.flatMap((t) => [t.ownerId, t.assigneeId]),
  );
  const threadOf = new Map(threads.map((t) => [t.id, t]));
  const cfbOf = new Map(cfbs.map((c) => [c.id, c]));
  const discussion = new Map<string, { count: number; requested: boolean }>();
  for (const c of comments) {
    const d = discussion.get(c.proposalId) ?? { count: 0, requested: false };
    d.count += 1;
    const ownerId = threadOf.get(c.proposalId)?.ownerId ?? null;
    // A request for changes stays open until the proposer answers it with a comment.
    if (c.kind === "request_changes") d.requested = true;
    else if (c.authorId !== null && c.authorId === ownerId) d.requested = false;
    discussion.set(c.proposalId, d);
  }
  return new Map(
    proposals.map((p) => {
      const t = threadOf.get(p.proposal_id);
      const cfb = p.target_cfb_id ? cfbOf.get(p.target_cfb_id) : undefined;
      const d = discussion.get(p.proposal_id);
      return [
        p.proposal_id,
        {
          proposer: person(t?.ownerId ? people.get(t.ownerId) : undefined),
          thread_title: t?.title ?? "",
          target: cfb ? { cfb_id: cfb.id, title: cfb.title, summary: cfb.summary, version: Number(cfb.version) } : null,
          assignee: person(t?.assigneeId ? people.get(t.assigneeId) : undefined),
          comment_count: d?.count ?? 0,
          changes_requested: d?.requested ?? false,
        },
      ];
    }),
  );
}

const DAY_MS = 86_400_000;

/**
 * The pending queue per domain (what waits, the oldest item) and what each domain decided in the
 * last 24 hours: one owner's, or everyone's for a Jam editor. Each statement reads one index: the
 * pending leads grouped by domain from (status, twin, domain, createdAt) alone; the decisions of
 * the day from (status, decidedAt); the caller's assigned from (status, assignee).
 */
async function domainQueues(
  sql: TSql,
  q: { ownerId: string | undefined; callerId: string },
): Promise<TProposalQueuesResponse> {
  const from =
    q.ownerId === undefined
      ? Prisma.sql`"UmbraProposal" p`
      : Prisma.sql`"UmbraProposal" p JOIN "Thread" t ON t."id" = p."threadId" AND t."ownerId" = ${q.ownerId}`;
  const since = new Date(Date.now() - DAY_MS);
  const [pending, decided, mine] = await Promise.all([
    sql.query<{ domain: string; n: number | bigint; oldest: unknown }>(
      Prisma.sql`SELECT p."domain" AS "domain", COUNT(*) AS "n", MIN(p."createdAt") AS "oldest" FROM ${from}
        WHERE p."status" = 'pending' AND ${leadIn(sql, { acrossOwners: q.ownerId === undefined, indexed: true })}
        GROUP BY p."domain"`,
    ),
    sql.query<{ domain: string; n: number | bigint }>(
      Prisma.sql`SELECT p."domain" AS "domain", COUNT(*) AS "n" FROM ${from}
        WHERE p."status" IN ('approved', 'rejected') AND p."decidedAt" >= ${since} GROUP BY p."domain"`,
    ),
    sql.query<{ n: number | bigint }>(
      // Through the (status, assignee) index: the twin test kept off the twin index.
      Prisma.sql`SELECT COUNT(*) AS "n" FROM ${from}
        WHERE p."status" = 'pending' AND ${leadIn(sql, { acrossOwners: q.ownerId === undefined })}
          AND p."assigneeId" = ${q.callerId}`,
    ),
  ]);
  const rows = new Map<string, TProposalQueuesResponse["domains"][number]>();
  for (const r of pending)
    rows.set(r.domain, {
      domain: r.domain,
      pending: Number(r.n),
      oldest_ts: r.oldest === null ? null : dateOf(r.oldest).toISOString(),
      decided_24h: 0,
    });
  for (const r of decided) {
    const row = rows.get(r.domain) ?? { domain: r.domain, pending: 0, oldest_ts: null, decided_24h: 0 };
    row.decided_24h = Number(r.n);
    rows.set(r.domain, row);
  }
  return {
    domains: [...rows.values()].sort((a, b) => b.pending - a.pending || a.domain.localeCompare(b.domain)),
    assigned_to_me: Number(mine[0]?.n ?? 0),
  };
}

/** Sets (or clears) the assignee of pending proposals, with one audit event each; returns how many changed. */
export async function assignProposals(
  driver: TSqlDriver,
  w: {
    proposalIds: readonly string[];
    assigneeId: string | null;
    audit: Omit<TAuditWrite, "targetType" | "targetId" | "details" | "action">;
  },
): Promise<number> {
  return driver.transaction(async (tx) => {
    const ids = Prisma.join([...w.proposalIds]);
    const rows = await tx.query<{ id: string }>(
      Prisma.sql`SELECT "id" AS "id" FROM "UmbraProposal" WHERE "id" IN (${ids}) AND "status" = 'pending'`,
    );
    if (rows.length === 0) return 0;
    await tx.execute(
      Prisma.sql`UPDATE "UmbraProposal" SET "assigneeId" = ${w.assigneeId} WHERE "id" IN (${Prisma.join(rows.map((r) => r.id))})`,
    );
    await insertAudit(
      tx,
      rows.map((r) => ({
        ...w.audit,
        action: w.assigneeId ? "proposal.assign" : "proposal.unassign",
        targetType: "proposal" as const,
        targetId: r.id,
        details: { assignee_id: w.assigneeId },
      })),
      new Date(),
    );
    return rows.length;
  });
}

/** Adds a note to a proposal, with its audit event; returns it as the API shows it. */
export async function addComment(
  driver: TSqlDriver,
  w: {
    proposalId: string;
    kind: "comment" | "request_changes";
    body: string;
    audit: Omit<TAuditWrite, "targetType" | "targetId" | "details" | "action">;
  },
): Promise<TProposalComment> {
  const id = `PC-${timeOrderedId()}`;
  const now = new Date();
  await driver.transaction(async (tx) => {
    await tx.execute(Prisma.sql`INSERT INTO "ProposalComment" ("id", "proposalId", "authorId", "kind", "body", "createdAt")
      VALUES (${id}, ${w.proposalId}, ${w.audit.actorUserId}, ${w.kind}, ${w.body}, ${now})`);
    await insertAudit(
      tx,
      [
        {
          ...w.audit,
          action: `proposal.${w.kind}`,
          targetType: "proposal",
          targetId: w.proposalId,
          details: { comment_id: id },
        },
      ],
      now,
    );
  });
  const people = await peopleByIds(driver, [w.audit.actorUserId]);
  return {
    comment_id: id,
    proposal_id: w.proposalId,
    kind: w.kind,
    body: w.body,
    author: person(w.audit.actorUserId ? people.get(w.audit.actorUserId) : undefined),
    created_ts: now.toISOString(),
  };
}

/**
 * The discussion of one proposal, or of every proposal of one thread (what its proposer sees):
 * comments, requests for changes, and the reasons of rejections, oldest first.
 */
async function listComments(sql: TSql, by: { proposalId: string } | { threadId: string }): Promise<TProposalComment[]> {
  const which = "proposalId" in by ? Prisma.sql`p."id" = ${by.proposalId}` : Prisma.sql`p."threadId" = ${by.threadId}`;
  const [comments, reasons] = await Promise.all([
    sql.query<{
      id: string;
      proposalId: string;
      kind: string;
      body: string;
      authorId: string | null;
      createdAt: unknown;
    }>(
      Prisma.sql`SELECT c."id" AS "id", c."proposalId" AS "proposalId", c."kind" AS "kind", c."body" AS "body",
          c."authorId" AS "authorId", c."createdAt" AS "createdAt"
        FROM "ProposalComment" c JOIN "UmbraProposal" p ON p."id" = c."proposalId" WHERE ${which}
        ORDER BY c."createdAt", c."id" LIMIT 500`,
    ),
    sql.query<{ id: string; proposalId: string; reason: string; authorId: string | null; createdAt: unknown }>(
      Prisma.sql`SELECT e."id" AS "id", e."proposalId" AS "proposalId", e."reason" AS "reason",
          e."decidedById" AS "authorId", e."createdAt" AS "createdAt"
        FROM "PromotionEvent" e JOIN "UmbraProposal" p ON p."id" = e."proposalId"
        WHERE ${which} AND e."reason" IS NOT NULL LIMIT 500`,
    ),
  ]);
  const people = await peopleByIds(sql, [...comments.map((c) => c.authorId), ...reasons.map((r) => r.authorId)]);
  const items: TProposalComment[] = [
    ...comments.map((c) => ({
      comment_id: c.id,
      proposal_id: c.proposalId,
      kind: c.kind as "comment" | "request_changes",
      body: c.body,
      author: person(c.authorId ? people.get(c.authorId) : undefined),
      created_ts: dateOf(c.createdAt).toISOString(),
    })),
    ...reasons.map((r) => ({
      comment_id: r.id,
      proposal_id: r.proposalId,
      kind: "reject_reason" as const,
      body: r.reason,
      author: person(r.authorId ? people.get(r.authorId) : undefined),
      created_ts: dateOf(r.createdAt).toISOString(),
    })),
  ];
  return items.sort((a, b) => a.created_ts.localeCompare(b.created_ts) || a.comment_id.localeCompare(b.comment_id));
}

/** A thread's pending proposals, newest first (the (threadId, status, createdAt) index): what a turn's model is told waits for review. */
async function pendingOfThread(
  sql: TSql,
  threadId: string,
  limit: number,
): Promise<{ proposal_id: string; title: string; summary: string }[]> {
  const rows = await sql.query<{ id: string; title: string; deltaSummary: string; proposedCfb: unknown }>(
    Prisma.sql`SELECT "id" AS "id", "title" AS "title", "deltaSummary" AS "deltaSummary", "proposedCfb" AS "proposedCfb"
      FROM "UmbraProposal" WHERE "threadId" = ${threadId} AND "status" = 'pending'
      ORDER BY "createdAt" DESC LIMIT ${limit}`,
  );
  return rows.map((r) => {
    const proposed = jsonOf(r.proposedCfb) as { summary?: unknown } | null;
    return {
      proposal_id: r.id,
      title: r.title,
      summary: typeof proposed?.summary === "string" ? proposed.summary : r.deltaSummary,
    };
  });
}

export function proposalDeskRepository({ sql }: TStore) {
  return {
    pendingOfThread: (threadId: string, limit: number) => pendingOfThread(sql, threadId, limit),
    contexts: (proposals: readonly TStoredProposal[]) => queueContexts(sql, proposals),
    queues: (q: { ownerId: string | undefined; callerId: string }) => domainQueues(sql, q),
    assign: (w: Parameters<typeof assignProposals>[1]) => assignProposals(sql, w),
    comment: (w: Parameters<typeof addComment>[1]) => addComment(sql, w),
    comments: (by: { proposalId: string } | { threadId: string }) => listComments(sql, by),
  };
}
