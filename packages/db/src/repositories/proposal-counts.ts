import { Prisma } from "../generated/prisma/client";
import type { TSql } from "../sql";

// The review queue's counts per status (issue 20), kept as they change rather than counted on
// every read: a GROUP BY over the whole queue cost ~8.5 ms of CPU per page at 100,000 proposals
// (53 ms for a user's, joined to the threads), and more as the queue grew (docs/performance.md). "ProposalCount" holds one row per (owner of the thread, kind), and
// every statement that changes a proposal's kind adds its difference in the same transaction
// (proposal creation in turns.ts, a decision and its folded twins in promotion-write.ts, a reopen
// in proposal-reopen.ts), so the counts are exact after any commit and a crash or a rollback takes
// them back with the change. Concurrent writers add to a row with `n = n + ?`, which both SQLite
// (one writer at a time) and PostgreSQL (the row's lock) apply one after the other.
//
// Why in the writers rather than in triggers: the writers are the three places that change a
// status, each already one transaction through the SQL driver; triggers would be a second, SQLite-
// only write path (PostgreSQL writes them as functions) that a table rewrite by a later migration
// drops without a word (Prisma's SQLite "RedefineTables" drops a table's triggers), leaving the
// counts quietly wrong.
//
// The owner is the thread's (`""` for a thread from before accounts, which only Jam editors see).
// Nothing changes a thread's owner or deletes a proposal today; whatever starts to (an account's
// deletion sets its threads' owner to null) must move that owner's rows in its transaction, or
// call `recountProposals`.

/**
 * How the queue counts a proposal: its status, and pending twins apart (the lists show their
 * lead): an `echo` (grouped under another person's proposal) is a lead in its own owner's queue
 * and a twin in the Jam queue, which sums every owner's `pending` alone.
 */
export type TProposalKind = "pending" | "twin" | "echo" | "approved" | "rejected" | "duplicate";

const PENDING_KIND = Prisma.sql`CASE WHEN p."twinOfId" IS NULL THEN 'pending' WHEN p."echo" THEN 'echo' ELSE 'twin' END`;

/** The kind of proposal `p` as stored now. */
const KIND = Prisma.sql`CASE WHEN p."status" = 'pending' THEN ${PENDING_KIND} ELSE p."status" END`;

/** The kind proposal `p` had while pending (before a decision flipped its status). */
export const KIND_WHILE_PENDING = PENDING_KIND;

/**
 * Which pending proposals a list shows as leads. Across owners (a Jam editor's queue) a group is
 * one item, its echoes from other people's threads included; within one owner's proposals (their
 * queue, one thread, one response) an echo is a lead, since its group's lead is in a thread they
 * may not see.
 */
export type TGroupScope = { acrossOwners: boolean };

export type TLeadScope = TGroupScope & {
  /** The twin test on the twin index (a domain count reads that index alone); else kept off it. */
  indexed?: boolean;
};

export function leadIn(sql: TSql, scope: TLeadScope): Prisma.Sql {
  const twin = scope.indexed ? Prisma.sql`p."twinOfId"` : sql.dialect.unindexed(Prisma.sql`p."twinOfId"`);
  return scope.acrossOwners ? Prisma.sql`${twin} IS NULL` : Prisma.sql`(${twin} IS NULL OR p."echo")`;
}

const OWNER = Prisma.sql`COALESCE(t."ownerId", '')`;

/**
 * Adds `sign` × the proposals `where` selects (alias `p`) to the counts, by owner and kind: their
 * kind now, or `kind` (an expression over `p`, or a literal) to take off what they were before.
 * One statement; bounded by the proposals selected (a turn's, a decision's group).
 */
export async function addProposalCounts(
  tx: TSql,
  where: Prisma.Sql,
  sign: 1 | -1,
  kind: Prisma.Sql = KIND,
): Promise<void> {
  // The WHERE before ON CONFLICT is required: without it SQLite may read the upsert's ON as a join's.
  // Grouped by position: `kind` may be a literal, which PostgreSQL refuses as a GROUP BY term.
  await tx.execute(Prisma.sql`INSERT INTO "ProposalCount" ("ownerKey", "kind", "n")
    SELECT ${OWNER}, ${kind}, ${sign} * COUNT(*) FROM "UmbraProposal" p JOIN "Thread" t ON t."id" = p."threadId"
    WHERE ${where} GROUP BY 1, 2
    ON CONFLICT ("ownerKey", "kind") DO UPDATE SET "n" = "ProposalCount"."n" + excluded."n"`);
}

/**
 * Counts every proposal again, from scratch (a bulk copy that bypassed the writers; the same SQL
 * as the migration that created the table).
 */
export async function recountProposals(tx: TSql): Promise<void> {
  await tx.execute(Prisma.sql`DELETE FROM "ProposalCount"`);
  await tx.execute(Prisma.sql`INSERT INTO "ProposalCount" ("ownerKey", "kind", "n")
    SELECT ${OWNER}, ${KIND}, COUNT(*) FROM "UmbraProposal" p JOIN "Thread" t ON t."id" = p."threadId"
    GROUP BY ${OWNER}, ${KIND}`);
}

/** The queue's counts as stored, by kind: one owner's, or every owner's summed (a Jam editor's queue). */
export async function storedProposalCounts(
  sql: TSql,
  ownerId: string | undefined,
): Promise<Partial<Record<TProposalKind, number>>> {
  const rows = await sql.query<{ kind: string; n: number | bigint }>(
    ownerId === undefined
      ? Prisma.sql`SELECT "kind" AS "kind", SUM("n") AS "n" FROM "ProposalCount" GROUP BY "kind"`
      : Prisma.sql`SELECT "kind" AS "kind", "n" AS "n" FROM "ProposalCount" WHERE "ownerKey" = ${ownerId}`,
  );
  return Object.fromEntries(rows.map((r) => [r.kind, Number(r.n)]));
}
