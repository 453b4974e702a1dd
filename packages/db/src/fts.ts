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
// The search ORs the proposal's most specific terms (rarest first) while their posting lists
// add up to at most this many entries: FTS5 computes bm25 for every row the OR matches before
// the LIMIT, so a query over common words costs tens of milliseconds at 100k CFBs. The rarest
// term is always searched.
const POSTINGS_BUDGET = 1000;
// Term counts read from fts5vocab walk the term's whole posting list; they are kept per search
// and read again once the number of CFBs has moved (by more than this share in an index of
// MIN_DOCS_FOR_STALE or more: idf barely moves below that, and the counts only weigh terms,
// they never decide which CFBs exist). Edits that keep the count can leave a kept count off by
// a few documents until then.
const DF_STALE_SHARE = 0.01;
const MIN_DOCS_FOR_STALE = 1000;

// bm25_norm saturates at 1 from this share of the full-evidence score on: a candidate holding
// nearly all of the query's evidence is a full text match, and what separates two such
// candidates above it is wording, not subject (two CFBs that say the same thing then tie, which
// is what the merge band looks for). Calibrated on the evaluation set (docs/resolve.md).
const REFERENCE_SHARE = 0.9;

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
  const dfCache = new Map<string, { df: number; docs: number }>();

  async function documentFrequencies(terms: string[], docs: number): Promise<Map<string, number>> {
    // A small index is read exactly; a big one tolerates a 1% drift in size.
    const fresh = (e: { docs: number }) =>
      e.docs === docs || (docs >= MIN_DOCS_FOR_STALE && Math.abs(e.docs - docs) <= docs * DF_STALE_SHARE);
    const missing = terms.filter((t) => {
      const e = dfCache.get(t);
      return !e || !fresh(e);
    });
    if (missing.length > 0) {
      const rows = await sql.query<{ term: string; doc: number }>(
        Prisma.sql`SELECT "term", "doc" FROM "CfbFtsVocab" WHERE "term" IN (${Prisma.join(missing)})`,
      );
      const found = new Map(rows.map((r) => [r.term, Number(r.doc)]));
      if (dfCache.size > 50_000) dfCache.clear();
      // A term no CFB holds is not remembered: it is exactly the one the next CFB may bring.
      for (const t of missing) {
        const n = found.get(t) ?? 0;
        if (n > 0) dfCache.set(t, { df: n, docs });
        else dfCache.delete(t);
      }
    }
    // Every term is now either kept (fresh) or was just read; a term read as 0 is kept as none.
    return new Map(terms.map((t) => [t, dfCache.get(t)?.df ?? 0]));
  }

  return {
    async candidates(query, opts = {}) {
      const terms = [...new Set(query.terms.map((t) => t.trim().toLowerCase()).filter(Boolean))];
      if (terms.length === 0) return [];
      const [stats] = await sql.query<{ docs: number }>(Prisma.sql`SELECT "docs" FROM "CfbFtsStats" WHERE "id" = 1`);
      const docs = Number(stats?.docs ?? 0);
      if (docs === 0) return [];
      const df = await documentFrequencies(terms, docs);
      const tooCommon = (n: number) => docs >= MIN_DOCS_FOR_CUT && n > docs * MAX_DF_SHARE;
      // Terms the index holds, rarest first, within the postings budget.
      const known = terms
        .map((t) => ({ t, n: df.get(t) ?? 0 }))
        .filter(({ n }) => n > 0 && !tooCommon(n))
        .sort((a, b) => a.n - b.n);
      const searched: string[] = [];
      let postings = 0;
      for (const { t, n } of known) {
        if (searched.length > 0 && postings + n > POSTINGS_BUDGET) break;
        searched.push(t);
        postings += n;
      }
      if (searched.length === 0) return [];
      // The reference: REFERENCE_SHARE of what a CFB of average length holding every searched
      // term once would score. Only terms the index holds count: a word no CFB uses ("thirty",
      // "nobody") is wording, not evidence that the proposal is about something else; a
      // proposal about something else shares few of the words the knowledge base does use, and
      // scores low on those. docs/resolve.md has the evaluation behind both choices.
      const reference = REFERENCE_SHARE * searched.reduce((sum, t) => sum + fts5Idf(docs, df.get(t) ?? 0), 0);
      const rows = await sql.query<TCandidateRow>(
        // Ranked inside the subquery, joined after the LIMIT: only the returned candidates are
        // read from Cfb, not every row the OR matched.
        Prisma.sql`SELECT c."id" AS "id", c."title" AS "title", c."summary" AS "summary", c."tags" AS "tags",
            c."entities" AS "entities", f."score" AS "bm25"
          FROM (SELECT rowid AS "rid", -bm25("CfbFts") AS "score" FROM "CfbFts"
                WHERE "CfbFts" MATCH ${searched.map(quoted).join(" OR ")}
                ORDER BY bm25("CfbFts") LIMIT ${opts.limit ?? DEFAULT_LIMIT}) f
          JOIN "Cfb" c ON c.rowid = f."rid"
          WHERE c."mergedIntoId" IS NULL
          ORDER BY f."score" DESC, c."id" ASC`,
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

/**
 * A person's search words as an FTS5 query: every word must match, the last one as a prefix
 * (the person may still be typing it). Words are letters and digits only, each quoted, so no
 * text is ever FTS5 syntax. Null when the text holds no word.
 */
export function ftsAllWordsQuery(text: string): string | null {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  if (words.length === 0) return null;
  return words.map((w, i) => (i === words.length - 1 ? `${quoted(w)}*` : quoted(w))).join(" AND ");
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
