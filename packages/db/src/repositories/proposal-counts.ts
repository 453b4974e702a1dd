import { expressionBuilder, sql as kysely } from "kysely";
import { Prisma } from "../generated/prisma/client";
import type { TSql } from "../sql";
import { fragment, rows, run, type TDatabase, toSql, typed } from "../typed-sql";

// The review queue's counts per status (issue 20), kept as they change rather than counted on every
// read: a GROUP BY over the whole queue cost ~8.5 ms of CPU per page at 100,000 proposals (53 ms
// for a user's, joined to the threads), and more as the queue grew (docs/performance.md).
// "ProposalCount" holds one row per (owner of the thread, kind), and every statement that changes a
// proposal's kind adds its difference in the same transaction (proposal creation in turn-write.ts,
// a decision and its folded twins in promotion-write.ts, a reopen in proposal-reopen.ts), so the
// counts are exact after any commit and a crash or a rollback takes them back with the change.
// Concurrent writers add to a row with `n = n + ?`, which both SQLite (one writer at a time) and
// PostgreSQL (the row's lock) apply one after the other.
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

/** A proposal `p` and its thread `t`, as the counting statements join them. */
const counted = expressionBuilder<{ p: TDatabase["UmbraProposal"]; t: TDatabase["Thread"] }, "p" | "t">();

// The kinds are literals, not bound values: recountProposals groups by these very expressions,
// which PostgreSQL matches to the selected ones by their text.
const PENDING_KIND = counted
  .case()
  .when("p.twinOfId", "is", null)
  .then(kysely.lit("pending"))
  .when(counted.ref("p.echo"))
  .then(kysely.lit("echo"))
  .else(kysely.lit("twin"))
  .end();

/** The kind of proposal `p` as stored now. */
const KIND = counted
  .case()
  .when("p.status", "=", kysely.lit("pending"))
  .then(PENDING_KIND)
  .else(counted.ref("p.status"))
  .end();

/**
 * The kind proposal `p` had while pending (before a decision flipped its status), compiled to
 * Prisma.Sql: promotion-write.ts passes it to addProposalCounts beside its Prisma.Sql conditions.
 */
export const KIND_WHILE_PENDING = toSql({ compile: () => kysely`${PENDING_KIND}`.compile(typed) });

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

// Prisma.Sql: built around the dialect's `unindexed`, for the list statements of proposals.ts.
export function leadIn(sql: TSql, scope: TLeadScope): Prisma.Sql {
  const twin = scope.indexed ? Prisma.sql`p."twinOfId"` : sql.dialect.unindexed(Prisma.sql`p."twinOfId"`);
  return scope.acrossOwners ? Prisma.sql`${twin} IS NULL` : Prisma.sql`(${twin} IS NULL OR p."echo")`;
}

const OWNER = counted.fn.coalesce("t.ownerId", kysely.lit(""));

/** Every proposal `p` with its thread `t`. */
const proposalsWithThreads = () =>
  typed.selectFrom("UmbraProposal as p").innerJoin("Thread as t", "t.id", "p.threadId");

/**
 * Adds `sign` × the proposals `where` selects (alias `p`) to the counts, by owner and kind: their
 * kind now, or `kind` (an expression over `p`, or a literal) to take off what they were before.
 * One statement; bounded by the proposals selected (a turn's, a decision's group).
 */
export async function addProposalCounts(tx: TSql, where: Prisma.Sql, sign: 1 | -1, kind?: Prisma.Sql): Promise<void> {
  // `where` and `kind` are the callers' Prisma.Sql fragments over `p`.
  const counts = proposalsWithThreads()
    .select((eb) => [
      OWNER.as("ownerKey"),
      kind ? fragment<string>(kind).as("kind") : KIND.as("kind"),
      eb(eb.val<number>(sign), "*", eb.fn.countAll<number>()).as("n"),
    ])
    // The WHERE before ON CONFLICT is required: without it SQLite may read the upsert's ON as a join's.
    .where(fragment<boolean>(where))
    // Grouped by position (raw: Kysely has no positional GROUP BY): `kind` may be a literal, which
    // PostgreSQL refuses as a GROUP BY term.
    .groupBy([kysely`1`, kysely`2`]);
  await run(
    tx,
    typed
      .insertInto("ProposalCount")
      .columns(["ownerKey", "kind", "n"])
      .expression(counts)
      .onConflict((oc) =>
        oc.columns(["ownerKey", "kind"]).doUpdateSet((eb) => ({ n: eb("ProposalCount.n", "+", eb.ref("excluded.n")) })),
      ),
  );
}

/**
 * Counts every proposal again, from scratch (a bulk copy that bypassed the writers; the same SQL
 * as the migration that created the table).
 */
export async function recountProposals(tx: TSql): Promise<void> {
  await run(tx, typed.deleteFrom("ProposalCount"));
  const counts = proposalsWithThreads()
    .select((eb) => [OWNER.as("ownerKey"), KIND.as("kind"), eb.fn.countAll<number>().as("n")])
    .groupBy([OWNER, KIND]);
  await run(tx, typed.insertInto("ProposalCount").columns(["ownerKey", "kind", "n"]).expression(counts));
}

/** The queue's counts as stored, by kind: one owner's, or every owner's summed (a Jam editor's queue). */
export async function storedProposalCounts(
  sql: TSql,
  ownerId: string | undefined,
): Promise<Partial<Record<TProposalKind, number>>> {
  const counts =
    ownerId === undefined
      ? await rows(
          sql,
          typed
            .selectFrom("ProposalCount")
            .select((eb) => ["kind", eb.fn.sum<number | bigint>("n").as("n")])
            .groupBy("kind"),
        )
      : await rows(sql, typed.selectFrom("ProposalCount").select(["kind", "n"]).where("ownerKey", "=", ownerId));
  return Object.fromEntries(counts.map((r) => [r.kind, Number(r.n)]));
}
