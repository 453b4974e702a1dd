import { Prisma } from "../generated/prisma/client";
import type { TSql } from "../sql";

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
 * The scope as a condition on the Cfb row aliased `alias`. Unindexed keeps SQLite off the
 * privateToId index: every use filters rows found another way (ids, the keyset order), and the
 * index would make it walk every shared CFB instead.
 */
export function scopeCondition(sql: TSql, alias: string, scope: TCfbScope): Prisma.Sql {
  if ("all" in scope) return Prisma.sql`1 = 1`;
  const column = sql.dialect.unindexed(Prisma.raw(`${alias}."privateToId"`));
  if (scope.viewer === null) return Prisma.sql`${column} IS NULL`;
  return Prisma.sql`(${column} IS NULL OR ${column} = ${scope.viewer})`;
}
