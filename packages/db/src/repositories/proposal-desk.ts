import type {
  TPersonRef,
  TProposalComment,
  TProposalQueuesResponse,
  TQueueContext,
  TStoredProposal,
} from "@solserver/contracts";
import { sql as kyselySql, type NotNull } from "kysely";
import { timeOrderedId } from "../ids";
import { prepare } from "../prepared-sql";
import { dateOf, jsonOf, type TSql, type TSqlDriver } from "../sql";
import { fragment, rows, run, typed } from "../typed-sql";
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
  const people = await rows(sql, typed.selectFrom("User").select(["id", "name", "email"]).where("id", "in", wanted));
  return new Map(people.map((r) => [r.id, r]));
}

/** Each proposal's card context, by id: four statements for the whole page whatever its size. */
async function queueContexts(sql: TSql, proposals: readonly TStoredProposal[]): Promise<Map<string, TQueueContext>> {
  if (proposals.length === 0) return new Map();
  const ids = proposals.map((p) => p.proposal_id);
  const targets = [...new Set(proposals.flatMap((p) => (p.target_cfb_id ? [p.target_cfb_id] : [])))];
  const [threads, cfbs, comments] = await Promise.all([
    rows(
      sql,
      typed
        .selectFrom("UmbraProposal as p")
        .innerJoin("Thread as t", "t.id", "p.threadId")
        .select(["p.id", "t.title", "t.ownerId", "p.assigneeId"])
        .where("p.id", "in", ids),
    ),
    targets.length === 0
      ? Promise.resolve([])
      : rows(
          sql,
          typed
            .selectFrom("Cfb")
            .select(["id", "title", "summary", "version"])
            .where("id", "in", targets)
            .where("retiredAt", "is", null)
            .where("mergedIntoId", "is", null),
        ),
    // Counted in the database: a busy proposal's discussion is not read to draw its card.
    rows(
      sql,
      typed
        .selectFrom("ProposalComment as c")
        .innerJoin("UmbraProposal as p", "p.id", "c.proposalId")
        .innerJoin("Thread as t", "t.id", "p.threadId")
        .select((eb) => [
          "c.proposalId",
          eb.fn.countAll<number | bigint>().as("n"),
          eb.fn
            .max<Date | string | null>(
              eb.case().when("c.kind", "=", "request_changes").then(eb.ref("c.createdAt")).end(),
            )
            .as("requestedAt"),
          eb.fn
            .max<Date | string | null>(
              eb
                .case()
                .when(eb.and([eb("c.kind", "!=", "request_changes"), eb("c.authorId", "=", eb.ref("t.ownerId"))]))
                .then(eb.ref("c.createdAt"))
                .end(),
            )
            .as("answeredAt"),
        ])
        .where("c.proposalId", "in", ids)
        .groupBy("c.proposalId"),
    ),
  ]);
  const people = await peopleByIds(
    sql,
    threads.flatMap((t) => [t.ownerId, t.assigneeId]),
  );
  const threadOf = new Map(threads.map((t) => [t.id, t]));
  const cfbOf = new Map(cfbs.map((c) => [c.id, c]));
  // A request for changes stays open until the proposer answers it with a comment.
  const discussion = new Map(
    comments.map((c) => [
      c.proposalId,
      {
        count: Number(c.n),
        requested:
          c.requestedAt !== null &&
          (c.answeredAt === null || dateOf(c.answeredAt).getTime() <= dateOf(c.requestedAt).getTime()),
      },
    ]),
  );
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

/** The proposals (alias `p`) of one owner's threads, or everyone's. */
function queueOf(ownerId: string | undefined) {
  const all = typed.selectFrom("UmbraProposal as p");
  if (ownerId === undefined) return all;
  // (Typed as the proposals alone: what the statements read is `p`'s.)
  const owned: typeof all = all.innerJoin("Thread as t", (join) =>
    join.onRef("t.id", "=", "p.threadId").on("t.ownerId", "=", ownerId),
  );
  return owned;
}

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
  const acrossOwners = q.ownerId === undefined;
  const since = new Date(Date.now() - DAY_MS);
  const from = queueOf(q.ownerId);
  const [pending, decided, mine] = await Promise.all([
    rows(
      sql,
      from
        .select((eb) => [
          "p.domain",
          eb.fn.countAll<number | bigint>().as("n"),
          eb.fn.min<Date | string | null>("p.createdAt").as("oldest"),
        ])
        .where("p.status", "=", "pending")
        // leadIn: a Prisma.Sql fragment around the dialect's index hint, shared with proposals.ts.
        .where(fragment<boolean>(leadIn(sql, { acrossOwners, indexed: true })))
        .groupBy("p.domain"),
    ),
    rows(
      sql,
      from
        .select((eb) => ["p.domain", eb.fn.countAll<number | bigint>().as("n")])
        .where("p.status", "in", ["approved", "rejected"])
        .where("p.decidedAt", ">=", since)
        .groupBy("p.domain"),
    ),
    rows(
      sql,
      // Through the (status, assignee) index: the twin test kept off the twin index.
      from
        .select((eb) => eb.fn.countAll<number | bigint>().as("n"))
        .where("p.status", "=", "pending")
        .where(fragment<boolean>(leadIn(sql, { acrossOwners })))
        .where("p.assigneeId", "=", q.callerId),
    ),
  ]);
  const byDomain = new Map<string, TProposalQueuesResponse["domains"][number]>();
  for (const r of pending)
    byDomain.set(r.domain, {
      domain: r.domain,
      pending: Number(r.n),
      oldest_ts: r.oldest === null ? null : dateOf(r.oldest).toISOString(),
      decided_24h: 0,
    });
  for (const r of decided) {
    const row = byDomain.get(r.domain) ?? { domain: r.domain, pending: 0, oldest_ts: null, decided_24h: 0 };
    row.decided_24h = Number(r.n);
    byDomain.set(r.domain, row);
  }
  return {
    domains: [...byDomain.values()].sort((a, b) => b.pending - a.pending || a.domain.localeCompare(b.domain)),
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
    const pending = await rows(
      tx,
      typed.selectFrom("UmbraProposal").select("id").where("id", "in", w.proposalIds).where("status", "=", "pending"),
    );
    if (pending.length === 0) return 0;
    await run(
      tx,
      typed
        .updateTable("UmbraProposal")
        .set({ assigneeId: w.assigneeId })
        .where(
          "id",
          "in",
          pending.map((r) => r.id),
        ),
    );
    await insertAudit(
      tx,
      pending.map((r) => ({
        ...w.audit,
        action: w.assigneeId ? "proposal.assign" : "proposal.unassign",
        targetType: "proposal" as const,
        targetId: r.id,
        details: { assignee_id: w.assigneeId },
      })),
      new Date(),
    );
    return pending.length;
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
    await run(
      tx,
      typed.insertInto("ProposalComment").values({
        id,
        proposalId: w.proposalId,
        authorId: w.audit.actorUserId,
        kind: w.kind,
        body: w.body,
        createdAt: now,
      }),
    );
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
  const [column, value] =
    "proposalId" in by ? (["p.id", by.proposalId] as const) : (["p.threadId", by.threadId] as const);
  // The latest 500 of each (a long discussion shows its end), in time order below.
  const [comments, reasons] = await Promise.all([
    rows(
      sql,
      typed
        .selectFrom("ProposalComment as c")
        .innerJoin("UmbraProposal as p", "p.id", "c.proposalId")
        .select(["c.id", "c.proposalId", "c.kind", "c.body", "c.authorId", "c.createdAt"])
        .where(column, "=", value)
        .orderBy("c.createdAt", "desc")
        .orderBy("c.id", "desc")
        .limit(500),
    ),
    rows(
      sql,
      typed
        .selectFrom("PromotionEvent as e")
        .innerJoin("UmbraProposal as p", "p.id", "e.proposalId")
        .select(["e.id", "e.proposalId", "e.reason", "e.decidedById as authorId", "e.createdAt"])
        .where(column, "=", value)
        .where("e.reason", "is not", null)
        .$narrowType<{ reason: NotNull }>()
        .orderBy("e.createdAt", "desc")
        .orderBy("e.id", "desc")
        .limit(500),
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
const pendingProposals = prepare((v: { threadId: string; limit: number }) =>
  typed
    .selectFrom("UmbraProposal")
    .select(["id", "title", "deltaSummary", "proposedCfb"])
    .where("threadId", "=", v.threadId)
    .where("status", "=", kyselySql.lit("pending"))
    .orderBy("createdAt", "desc")
    .limit(v.limit),
);

async function pendingOfThread(
  sql: TSql,
  threadId: string,
  limit: number,
): Promise<{ proposal_id: string; title: string; summary: string }[]> {
  const pending = await rows(sql, pendingProposals({ threadId, limit }, sql.dialect));
  return pending.map((r) => {
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
