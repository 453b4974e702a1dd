import { DomainError } from "@solserver/contracts";

// Keyset pagination for lists ordered newest first by (timestamp desc, id desc). The cursor is
// the last id of the previous page; the next page starts strictly after that row's position,
// whatever has happened to the row since (decided, filtered out). Prisma's own `cursor` + `skip`
// instead skips one row of the *filtered* list, which loses an item once the cursor row leaves
// the filter.

export type TKeysetCursor = { at: Date; id: string };

/** Rows strictly after the cursor in (field desc, id desc) order. */
export function afterCursor<F extends string>(field: F, cursor: TKeysetCursor) {
  return {
    OR: [{ [field]: { lt: cursor.at } }, { [field]: cursor.at, id: { lt: cursor.id } }],
  } as { OR: Record<string, unknown>[] };
}

/**
 * The position of the cursor row (`lookup` reads its creation time), null without a cursor, or
 * NOT_FOUND: an unknown cursor must not look like the last page.
 */
export async function cursorPosition(
  id: string | undefined,
  what: string,
  lookup: (id: string) => Promise<{ createdAt: Date } | null>,
): Promise<TKeysetCursor | null> {
  if (id === undefined) return null;
  const row = await lookup(id);
  if (!row) throw new DomainError("NOT_FOUND", `cursor: ${what} ${id} does not exist`, { field: "cursor" });
  return { at: row.createdAt, id };
}

/** Splits a `limit + 1` fetch into a page and the next cursor. */
export function pageOf<T extends { id: string }>(rows: T[], limit: number): { page: T[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  return { page, nextCursor: rows.length > limit ? (page.at(-1)?.id ?? null) : null };
}
