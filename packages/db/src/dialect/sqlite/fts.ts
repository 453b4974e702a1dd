// The CFB full-text index (SQLite FTS5, migration *_cfb_fts) behind /cfbs search. Resolve and
// retrieval use the candidate index instead (candidates/), which ranks over every live CFB.
import { Prisma } from "../../generated/prisma/client";
import type { TSqlBase } from "../../sql";

/** A term as an FTS5 string: every term is quoted, so no user text is ever query syntax. */
function quoted(term: string): string {
  return `"${term.replaceAll('"', '""')}"`;
}

/**
 * A person's search words as an FTS5 query: every word must match, the last one as a prefix
 * (the person may still be typing it). Words are letters and digits only, each quoted, so no
 * text is ever FTS5 syntax. Null when the text holds no word.
 */
function ftsAllWordsQuery(text: string): string | null {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  if (words.length === 0) return null;
  return words.map((w, i) => (i === words.length - 1 ? `${quoted(w)}*` : quoted(w))).join(" AND ");
}

/** Index health: CFB rows against indexed rows and the kept count (tests, after migrations). */
export async function ftsHealth(
  sql: TSqlBase,
): Promise<{ cfbs: number; indexed: number; counted: number; ok: boolean }> {
  const [row] = await sql.query<{ cfbs: number; indexed: number; counted: number }>(
    Prisma.sql`SELECT (SELECT COUNT(*) FROM "Cfb") AS "cfbs",
      (SELECT COUNT(*) FROM "CfbFts_docsize") AS "indexed",
      (SELECT "docs" FROM "CfbFtsStats" WHERE "id" = 1) AS "counted"`,
  );
  const cfbs = Number(row?.cfbs ?? 0);
  const indexed = Number(row?.indexed ?? 0);
  const counted = Number(row?.counted ?? 0);
  // 'integrity-check' compares the index with the content table row by row.
  let consistent = true;
  try {
    await sql.execute(Prisma.sql`INSERT INTO "CfbFts" ("CfbFts", rank) VALUES ('integrity-check', 1)`);
  } catch {
    consistent = false;
  }
  return { cfbs, indexed, counted, ok: consistent && cfbs === indexed && cfbs === counted };
}

/** A condition on the Cfb row `alias`: its indexed text holds every word of `text` (see above). */
export function cfbTextMatch(alias: string, text: string): Prisma.Sql | null {
  const match = ftsAllWordsQuery(text);
  if (match === null) return null;
  return Prisma.sql`${Prisma.raw(alias)}.rowid IN (SELECT rowid FROM "CfbFts" WHERE "CfbFts" MATCH ${match})`;
}
