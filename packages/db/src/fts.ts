import type { TCandidateQuery, TResolveCandidate } from "@solserver/contracts";
import { Prisma } from "./generated/prisma/client";
import { asStringArray } from "./json";
import { jsonOf, type TSql } from "./sql";

/**
 * Candidate search for Umbra resolve (seed 001 §6.1). The interface is what resolve needs, so a
 * PostgreSQL implementation (tsvector + ts_rank_cd, same reference idea) can stand in for this
 * SQLite FTS5 one.
 */
export type TCandidateSearch = {
  candidates(query: TCandidateQuery, opts?: { limit?: number }): Promise<TResolveCandidate[]>;
};

const DEFAULT_LIMIT = 20;
// FTS5's bm25 constants (k1 = 1.2, b = 0.75) only matter through idf below: a CFB of average
// length holding a term once contributes exactly idf(term) (f·(k1+1) / (f + k1) = 1 at f = 1).
/** FTS5's idf: ln((N − n + 0.5) / (n + 0.5)), floored at 1e-6 as FTS5 does. */
export function fts5Idf(docs: number, withTerm: number): number {
  const idf = Math.log((docs - withTerm + 0.5) / (withTerm + 0.5));
  return idf > 0 ? idf : 1e-6;
}

// Terms in more than this share of the CFBs are left out of the search: their idf is near zero
// (they cannot tell candidates apart) and each costs a scan of a long posting list. Only once
// the index is big enough for the share to mean something.
const MAX_DF_SHARE = 0.1;
const MIN_DOCS_FOR_CUT = 200;

/** A term as an FTS5 string: every term is quoted, so no user text is ever query syntax. */
function quoted(term: string): string {
  return `"${term.replaceAll('"', '""')}"`;
}

type TCandidateRow = {
  id: string;
  title: string;
  summary: string;
  tags: unknown;
  entities: unknown;
  bm25: number;
};

export function createSqliteCandidateSearch(sql: TSql): TCandidateSearch {
  return {
    async candidates(query, opts = {}) {
      const terms = [...new Set(query.terms.map((t) => t.trim().toLowerCase()).filter(Boolean))];
      if (terms.length === 0) return [];
      const [stats] = await sql.query<{ docs: number }>(Prisma.sql`SELECT "docs" FROM "CfbFtsStats" WHERE "id" = 1`);
      const docs = Number(stats?.docs ?? 0);
      if (docs === 0) return [];
      const vocab = await sql.query<{ term: string; doc: number }>(
        Prisma.sql`SELECT "term", "doc" FROM "CfbFtsVocab" WHERE "term" IN (${Prisma.join(terms)})`,
      );
      const df = new Map(vocab.map((v) => [v.term, Number(v.doc)]));
      const tooCommon = (t: string) => docs >= MIN_DOCS_FOR_CUT && (df.get(t) ?? 0) > docs * MAX_DF_SHARE;
      const searched = terms.filter((t) => !tooCommon(t));
      // The reference: a CFB of average length holding every searched term once. A term no CFB
      // holds still counts (as the rarest known term would): the proposal says something the
      // knowledge base does not, which must lower every candidate's normalised score.
      const reference = searched.reduce((sum, t) => sum + fts5Idf(docs, Math.max(1, df.get(t) ?? 0)), 0);
      const matchable = searched.filter((t) => (df.get(t) ?? 0) > 0);
      if (matchable.length === 0) return [];
      const match = matchable.map(quoted).join(" OR ");
      const rows = await sql.query<TCandidateRow>(
        Prisma.sql`SELECT c."id" AS "id", c."title" AS "title", c."summary" AS "summary", c."tags" AS "tags",
            c."entities" AS "entities", -bm25("CfbFts") AS "bm25"
          FROM "CfbFts" JOIN "Cfb" c ON c.rowid = "CfbFts".rowid
          WHERE "CfbFts" MATCH ${match}
          ORDER BY bm25("CfbFts") LIMIT ${opts.limit ?? DEFAULT_LIMIT}`,
      );
      return rows.map((r) => ({
        cfb_id: r.id,
        title: r.title,
        summary: r.summary,
        tags: asStringArray(jsonOf(r.tags), "Cfb.tags"),
        entities: asStringArray(jsonOf(r.entities), "Cfb.entities"),
        bm25: Number(r.bm25),
        bm25_reference: reference,
      }));
    },
  };
}

/** Index health: CFB rows against indexed rows and the kept count (tests, after migrations). */
export async function ftsHealth(sql: TSql): Promise<{ cfbs: number; indexed: number; counted: number; ok: boolean }> {
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
