import { DomainError } from "@solserver/contracts";
import { Prisma } from "./generated/prisma/client";
import type { TSql } from "./sql";

// Keyset pagination, the one way lists page: rows strictly after the cursor row's position in
// the list's order, as one row-value comparison over the ORDER BY columns. SQLite and PostgreSQL
// answer that from an index at any page depth (an OR of comparisons, as an ORM writes it, scanned
// 100k rows per page), and the position stays valid when the cursor row is decided, edited or
// filtered out between two page requests. The cursor is the last id of the previous page.

export type TKeyset = {
  /** The table and the alias the list's statement gives it. */
  table: string;
  alias: string;
  /** ORDER BY columns, all in one direction; the last one is unique (the id, or its number `seq`). */
  columns: readonly string[];
  direction: "asc" | "desc";
  /** What a cursor names, for the NOT_FOUND message ("proposal", "audit event"). */
  what: string;
};

/** The list's ORDER BY. */
export function keysetOrder(k: TKeyset): Prisma.Sql {
  const dir = k.direction === "desc" ? "DESC" : "ASC";
  return Prisma.raw(k.columns.map((c) => `${k.alias}."${c}" ${dir}`).join(", "));
}

/**
 * The condition "after the cursor row", or null without a cursor; NOT_FOUND naming the field
 * `cursor` when the row does not exist (an unknown cursor must not look like the last page).
 * Values are compared as stored, so the row value matches the index's order.
 */
export async function afterCursor(sql: TSql, k: TKeyset, cursor: string | undefined): Promise<Prisma.Sql | null> {
  if (cursor === undefined) return null;
  const cols = Prisma.raw(k.columns.map((c) => `"${c}"`).join(", "));
  const [row] = await sql.query<Record<string, unknown>>(
    Prisma.sql`SELECT ${cols} FROM ${Prisma.raw(`"${k.table}"`)} WHERE "id" = ${cursor}`,
  );
  if (!row) throw new DomainError("NOT_FOUND", `cursor: ${k.what} ${cursor} does not exist`, { field: "cursor" });
  const mine = Prisma.raw(k.columns.map((c) => `${k.alias}."${c}"`).join(", "));
  const values = Prisma.join(k.columns.map((c) => Prisma.sql`${row[c]}`));
  return Prisma.sql`(${mine}) ${Prisma.raw(k.direction === "desc" ? "<" : ">")} (${values})`;
}

/** Splits a `limit + 1` fetch into a page and the next cursor. */
export function pageOf<T>(
  rows: T[],
  limit: number,
  idOf: (row: T) => string,
): { page: T[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { page, nextCursor: rows.length > limit && last !== undefined ? idOf(last) : null };
}
