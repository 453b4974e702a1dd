import { type Expression, expressionBuilder, type SqlBool } from "kysely";
import type { TSqlDialect } from "../dialect/dialect";
import { Prisma } from "../generated/prisma/client";
import { fragment, type TDatabase } from "../typed-sql";

// Which CFBs a read may see (issue 19). A CFB is shared (Cfb.privateToId null) or private to the
// user whose own approval wrote it. Retrieval and resolve in a thread see the shared CFBs and
// those private to the thread's owner; a user's knowledge browser the same for themself; a Jam
// editor's browser every one. One definition here, so every read says it the same way.

/** Every CFB (a Jam editor's browser), or the shared ones plus those private to `viewer` (null: shared only). */
export type TCfbScope = { all: true } | { viewer: string | null };

export const ALL_CFBS: TCfbScope = { all: true };

/** The shared CFBs and those private to `userId` (null, e.g. a thread from before accounts: shared only). */
export function visibleTo(userId: string | null): TCfbScope {
  return { viewer: userId };
}

/** Whether a CFB private to `privateToId` (null: shared) is in `scope`. */
export function inScope(scope: TCfbScope, privateToId: string | null): boolean {
  return "all" in scope || privateToId === null || privateToId === scope.viewer;
}

/**
 * The scope as a condition on the Cfb row aliased `alias`, for a typed statement's `.where`.
 * Unindexed keeps SQLite off the privateToId index: every use filters rows found another way (ids,
 * the keyset order), and the index would make it walk every shared CFB instead.
 */
export function scopeCondition(dialect: TSqlDialect, alias: string, scope: TCfbScope): Expression<SqlBool> {
  const eb = expressionBuilder<TDatabase>();
  if ("all" in scope) return eb.and([]); // no condition: Kysely writes it 1 = 1
  // The dialect's unindexed column (SQLite `+c."privateToId"`, PostgreSQL a COALESCE).
  const column = fragment<string | null>(dialect.unindexed(cfbColumn(alias, "privateToId")));
  if (scope.viewer === null) return eb(column, "is", null);
  return eb.or([eb(column, "is", null), eb(column, "=", scope.viewer)]);
}

/** `alias."column"` of a Cfb row, for a dialect helper (which takes Prisma SQL); tsc checks the name. */
export function cfbColumn(alias: string, column: keyof TDatabase["Cfb"]): Prisma.Sql {
  return Prisma.raw(`${alias}."${column}"`);
}
