// The CFB full-text index on PostgreSQL (migration *_search_and_change_log): a tsvector per CFB
// in "CfbSearch", kept by a trigger, searched through GIN. Same meaning as SQLite's FTS5 index
// (dialect/sqlite/fts.ts): every word must be there, the last one as a prefix.
import { Prisma } from "../../generated/prisma/client";
import type { TSqlBase } from "../../sql";

/**
 * A person's search words as a tsquery: letters and digits only, each quoted as a lexeme, joined
 * with AND, the last with a prefix match (`:*`). No user text is ever query syntax. Null when the
 * text holds no word.
 */
export function tsAllWordsQuery(text: string): string | null {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  if (words.length === 0) return null;
  return words.map((w, i) => (i === words.length - 1 ? `'${w}':*` : `'${w}'`)).join(" & ");
}

export function cfbTextMatch(alias: string, text: string): Prisma.Sql | null {
  const query = tsAllWordsQuery(text);
  if (query === null) return null;
  return Prisma.sql`${Prisma.raw(alias)}."id" IN (SELECT "cfbId" FROM "CfbSearch"
    WHERE "document" @@ to_tsquery('simple', ${query}))`;
}

/** Index health: CFB rows, indexed rows, and indexed rows whose document is what the CFB says now. */
export async function searchHealth(
  sql: TSqlBase,
): Promise<{ cfbs: number; indexed: number; counted: number; ok: boolean }> {
  const [row] = await sql.query<{ cfbs: number; indexed: number; current: number }>(
    Prisma.sql`SELECT (SELECT COUNT(*) FROM "Cfb") AS "cfbs",
      (SELECT COUNT(*) FROM "CfbSearch") AS "indexed",
      (SELECT COUNT(*) FROM "CfbSearch" s JOIN "Cfb" c ON c."id" = s."cfbId"
        WHERE s."document" = "solserver_cfb_document"(c."title", c."summary", c."text", c."tags", c."entities")) AS "current"`,
  );
  const cfbs = Number(row?.cfbs ?? 0);
  const indexed = Number(row?.indexed ?? 0);
  const current = Number(row?.current ?? 0);
  return { cfbs, indexed, counted: indexed, ok: cfbs === indexed && indexed === current };
}
