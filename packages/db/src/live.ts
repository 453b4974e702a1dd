import type { TSqlDialect } from "./dialect/dialect";
import { Prisma } from "./generated/prisma/client";

// A live CFB is one answers draw on: not merged into another, not retired. Retrieval, resolve's
// candidates, the default list and the vector index hold only live CFBs; every other read (a
// CFB's page and history, an id that resolves to its survivor) sees them all. One definition, so
// the places that leave a CFB out cannot disagree.

/** The SQL condition "the CFB is live", on the Cfb table (or its alias, a constant of the caller). */
export function liveCfbSql(alias?: string): Prisma.Sql {
  const column = (name: string) => Prisma.raw(alias ? `${alias}."${name}"` : `"${name}"`);
  return Prisma.sql`${column("mergedIntoId")} IS NULL AND ${column("retiredAt")} IS NULL`;
}

/**
 * The same, for live CFBs read in id order from a cursor (`"id" > ? ORDER BY "id"`): SQLite would
 * read "mergedIntoId IS NULL" through that column's index (every live CFB matches it) and sort
 * them all for each page, at 100,000 CFBs 100 ms or more of the event loop per page.
 */
export function liveCfbInIdOrderSql(dialect: TSqlDialect, alias?: string): Prisma.Sql {
  const column = (name: string) => Prisma.raw(alias ? `${alias}."${name}"` : `"${name}"`);
  return Prisma.sql`${dialect.unindexed(column("mergedIntoId"))} IS NULL AND ${column("retiredAt")} IS NULL`;
}

/** The same for a row already read. */
export function isLiveCfb(row: { mergedIntoId: string | null; retiredAt: unknown }): boolean {
  return row.mergedIntoId === null && (row.retiredAt === null || row.retiredAt === undefined);
}
