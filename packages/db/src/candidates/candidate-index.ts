// The candidate index over the database: a TermIndex of every live CFB's analysed terms (live.ts:
// neither merged nor retired), built
// from the Cfb table on first use and kept in step with it through the CfbChange log that
// triggers on Cfb write (migration *_candidate_index). Every process (server, CLI, workers) holds
// its own; before each search it applies the log entries written since its last one, so a CFB
// another process promoted a moment ago is found. Resolve asks it for the CFBs sharing the most
// terms with a proposal, retrieval for those sharing the most weighted terms with a message.
// Both in one user's scope (issue 19): the shared CFBs and that user's private ones; each indexed
// CFB carries its owner, and a visibility change is a new version, so the log carries it too.
import { setImmediate } from "node:timers/promises";
import type { TCandidateQuery, TResolveCandidate } from "@solserver/contracts";
import { analysisLanguage, analyzeTerms } from "@solserver/text";
import type { SqlBool } from "kysely";
import { asStringArray } from "../json";
import { isLiveCfb, liveCfbInIdOrderSql } from "../live";
import { prepare } from "../prepared-sql";
import { inScope, visibleTo } from "../repositories/cfb-visibility";
import { jsonOf, type TSql } from "../sql";
import { fragment, rows, type TDatabase, typed } from "../typed-sql";
import { vectorOf } from "../vectors";
import { TermIndex } from "./term-index";
import type { TIndexedDoc, TIndexHit, TSearchOptions } from "./term-index-types";
import { type TNeighbour, VectorIndex } from "./vector-index";

/** Analysed terms and how to weigh each from the live document count and its document frequency. */
export type TWeightedQuery = {
  terms: readonly string[];
  weight: (documents: number, df: number, term: string) => number;
};

/** More log entries than this since the last sync: rebuilding is cheaper than applying them. */
const MAX_APPLIED = 2000;
/** Rows per IN (…) lookup. */
const CHUNK = 500;

const TEXT_COLUMNS = [
  "id",
  "domain",
  "title",
  "summary",
  "text",
  "tags",
  "entities",
  "mergedIntoId",
  "retiredAt",
  "privateToId",
] as const;

type TCfbTextRow = Pick<TDatabase["Cfb"], (typeof TEXT_COLUMNS)[number]>;

/** The indexed columns of the listed CFBs. */
function textRows(sql: TSql, ids: readonly string[]): Promise<TCfbTextRow[]> {
  return rows(sql, typed.selectFrom("Cfb").select(TEXT_COLUMNS).where("id", "in", ids));
}

/** Whose private CFBs a search may return besides the shared ones (null or absent: none). */
export type TVisibleTo = { visibleTo?: string | null | undefined };

type TIndexStatus = { documents: number; builtMs: number | null; appliedChanges: number; rebuilds: number };

export type TCandidateIndex = {
  /** Resolve's candidates: the live CFBs in scope sharing the most terms with the proposal, best first. */
  candidates(query: TCandidateQuery, opts?: { limit?: number } & TVisibleTo): Promise<TResolveCandidate[]>;
  /** The same shape for given CFBs (nearest neighbours), in the order given; merged, retired and out-of-scope ones left out. */
  candidatesByIds(ids: readonly string[], opts?: TVisibleTo): Promise<TResolveCandidate[]>;
  /**
   * Raw hits (retrieval): each term weighted by `weight(documents, df)` from the index's own
   * counts, then the documents with the highest summed weight (times the boost).
   */
  search(query: TWeightedQuery, opts: TSearchOptions & { fuzzy?: boolean }): Promise<TIndexHit[]>;
  /** Applies what changed since the last call (also done by every search). */
  sync(): Promise<void>;
  status(): TIndexStatus;
  /**
   * From now on also hold the stored vectors of `model` (CfbEmbedding) for the live CFBs, and
   * follow what is written (by any process) on every sync. Another model or dimension replaces them.
   */
  attachVectors(model: string, dims: number): Promise<void>;
  /** Vectors this process just stored: held at once, before the next sync reads them back. */
  putVectors(rows: readonly { cfbId: string; vector: Float32Array }[]): void;
  /** The k live CFBs in scope nearest `vector` (attachVectors first), most similar first. */
  nearest(
    vector: Float32Array,
    k: number,
    opts?: TVisibleTo & { domains?: ReadonlySet<string> | undefined },
  ): Promise<TNeighbour[]>;
  /** Cosine similarity of `vector` with each listed CFB that has a vector. */
  similarities(vector: Float32Array, ids: readonly string[]): Map<string, number>;
};

/** Vectors written this long before the last read are read again (transactions commit late). */
const VECTOR_OVERLAP_MS = 60_000;
/** Vectors fetched per query (SQLite's bound-parameter limit is far above). */
const VECTOR_BATCH = 500;

const DEFAULT_LIMIT = 20;
/** CFBs read and indexed per slice of a build, between which other work runs (about 25 ms each). */
const BUILD_PAGE = 250;
/** A near spelling of an unknown word counts at this share of its weight: a typo is a guess. */
export const FUZZY_WEIGHT = 0.8;

/** A CFB as the index holds it: every analysed term, and those of its title and labels as strong. */
function docOf(row: TCfbTextRow): TIndexedDoc {
  const tags = asStringArray(jsonOf(row.tags), "Cfb.tags");
  const entities = asStringArray(jsonOf(row.entities), "Cfb.entities");
  // Title, summary and labels in the CFB's one language (a title alone is often too short to tell).
  const language = analysisLanguage(`${row.title}\n${row.summary}`);
  const terms = (...texts: string[]) => new Set(texts.flatMap((t) => analyzeTerms(t, { language })));
  return {
    id: row.id,
    domain: row.domain,
    terms: terms(row.summary, row.text ?? ""),
    strong: terms(row.title, ...tags, ...entities),
    owner: row.privateToId ?? null,
  };
}

/**
 * Resolve's query weights: 1 for sharing a term at all, up to 2 for a rare one. Candidates are
 * the CFBs sharing the *most* terms (a proposal's rarest words are often the ones it adds), with
 * rarity only breaking near-ties; the score that decides is resolve's own.
 */
export function resolveWeight(documents: number, df: number): number {
  return 1 + Math.log((documents + 1) / (df + 1)) / Math.log(documents + 2);
}

/**
 * The vectors of one embedding model kept beside the term index. `readAt`: when the last read
 * began; `recent`: the vectors it saw within the overlap, by CFB, with the time each was written,
 * so that a turn reads the overlap's ids and times only, and the numbers of what it has not
 * applied yet.
 */
type TVectors = { model: string; dims: number; index: VectorIndex; readAt: number; recent: Map<string, unknown> };

/**
 * Reads the vectors of `v.model` written since the last read (all of them at first), and
 * again those written within VECTOR_OVERLAP_MS before it: a transaction that began earlier may
 * have committed since. Rows older than that were committed before the last read and seen by it.
 */
async function followVectors(sql: TSql, index: TermIndex, v: TVectors): Promise<void> {
  const readAt = Date.now();
  const from = new Date(Number.isFinite(v.readAt) ? Math.max(0, v.readAt - VECTOR_OVERLAP_MS) : 0);
  const ofModel = typed.selectFrom("CfbEmbedding").where("model", "=", v.model).where("dims", "=", v.dims);
  const written = await rows(sql, ofModel.select(["cfbId", "createdAt"]).where("createdAt", ">=", from));
  const recent = new Map<string, unknown>();
  const fresh: string[] = [];
  for (const row of written) {
    if (!index.has(row.cfbId)) continue;
    // The time as the driver gives it (ISO text on SQLite, a Date on PostgreSQL), compared as is.
    const at = row.createdAt instanceof Date ? row.createdAt.getTime() : row.createdAt;
    recent.set(row.cfbId, at);
    if (v.recent.get(row.cfbId) !== at) fresh.push(row.cfbId);
  }
  for (let i = 0; i < fresh.length; i += VECTOR_BATCH) {
    const batch = fresh.slice(i, i + VECTOR_BATCH);
    for (const row of await rows(sql, ofModel.select(["cfbId", "vector"]).where("cfbId", "in", batch)))
      if (index.has(row.cfbId)) v.index.upsert(row.cfbId, vectorOf(row.vector));
  }
  // Only once every number is read: a read that failed halfway is done again whole.
  v.recent = recent;
  v.readAt = readAt;
}

/** Rows for resolve, in the order of `ids`; merged, retired or gone since the sync, or out of scope, are left out. */
async function candidateRows(sql: TSql, ids: readonly string[], opts: TVisibleTo = {}): Promise<TResolveCandidate[]> {
  if (ids.length === 0) return [];
  const byId = new Map((await textRows(sql, [...new Set(ids)])).map((r) => [r.id, r]));
  const scope = visibleTo(opts.visibleTo ?? null);
  return ids.flatMap((id) => {
    const r = byId.get(id);
    if (!r || !isLiveCfb(r) || !inScope(scope, r.privateToId ?? null)) return [];
    return [
      {
        cfb_id: r.id,
        title: r.title,
        summary: r.summary,
        tags: asStringArray(jsonOf(r.tags), "Cfb.tags"),
        entities: asStringArray(jsonOf(r.entities), "Cfb.entities"),
      },
    ];
  });
}

/** The change log from entry `seq` on (every search reads it: hot path). */
const changesFrom = prepare((v: { seq: number; limit: number }) =>
  typed
    .selectFrom("CfbChange")
    .select(["seq", "cfbId", "token"])
    .where("seq", ">=", v.seq)
    .orderBy("seq")
    .limit(v.limit),
);

export function createCandidateIndex(sql: TSql): TCandidateIndex {
  const index = new TermIndex();
  // The last log entry applied (seq and its token), or null before the first build.
  let applied: { seq: number; token: string | null } | null = null;
  let pending: Promise<void> | null = null;
  const status: TIndexStatus = { documents: 0, builtMs: null, appliedChanges: 0, rebuilds: 0 };

  let vectors: TVectors | null = null;

  async function rebuild(): Promise<void> {
    const started = performance.now();
    const [last] = await rows(
      sql,
      typed.selectFrom("CfbChange").select(["seq", "token"]).orderBy("seq", "desc").limit(1),
    );
    // Page by page, giving the event loop back between pages: at 100,000 CFBs one read and one
    // pass held it for seconds, and health probes and every other request waited behind it.
    // Searches wait for the whole build (sync), so none sees half an index.
    index.clear();
    let after = "";
    for (;;) {
      const page = await rows(
        sql,
        typed
          .selectFrom("Cfb")
          .select(TEXT_COLUMNS)
          .where(fragment<SqlBool>(liveCfbInIdOrderSql(sql.dialect)))
          .where("id", ">", after)
          .orderBy("id")
          .limit(BUILD_PAGE),
      );
      for (const row of page) index.upsert(docOf(row));
      const last = page.at(-1);
      if (!last || page.length < BUILD_PAGE) break;
      after = last.id;
      await setImmediate();
    }
    index.spellings();
    if (vectors) {
      vectors.index.clear();
      vectors.readAt = Number.NEGATIVE_INFINITY;
      vectors.recent.clear();
    }
    applied = { seq: Number(last?.seq ?? 0), token: last?.token ?? null };
    status.documents = index.size;
    status.builtMs = Math.round(performance.now() - started);
    status.rebuilds += 1;
  }

  async function applyChanges(): Promise<void> {
    if (applied === null) return rebuild();
    const from = applied;
    // From the last applied entry on: if it is gone (pruned) or carries another token (its write
    // was rolled back and the number reused, perhaps even for the same CFB id), the log cannot be
    // trusted from here, so rebuild.
    const entries = await rows(sql, changesFrom({ seq: from.seq, limit: MAX_APPLIED + 2 }, sql.dialect));
    const [head] = entries;
    if (from.seq > 0 && (head === undefined || Number(head.seq) !== from.seq || head.token !== from.token))
      return rebuild();
    const fresh = entries.filter((e) => Number(e.seq) > from.seq);
    if (fresh.length === 0) return;
    if (fresh.length > MAX_APPLIED) return rebuild();
    const ids = [...new Set(fresh.map((e) => e.cfbId))];
    const read = new Map<string, TCfbTextRow>();
    for (let i = 0; i < ids.length; i += CHUNK)
      for (const row of await textRows(sql, ids.slice(i, i + CHUNK))) read.set(row.id, row);
    for (const id of ids) {
      const row = read.get(id);
      if (!row || !isLiveCfb(row)) {
        index.remove(id);
        vectors?.index.remove(id);
        vectors?.recent.delete(id);
      } else index.upsert(docOf(row));
    }
    const last = fresh[fresh.length - 1] as { seq: number; token: string };
    applied = { seq: Number(last.seq), token: last.token };
    status.documents = index.size;
    status.appliedChanges += fresh.length;
  }

  /** One sync at a time: concurrent callers wait for the one under way, then look again. */
  async function sync(): Promise<void> {
    while (pending) await pending;
    pending = applyChanges()
      .then(() => (vectors ? followVectors(sql, index, vectors) : undefined))
      .finally(() => {
        pending = null;
      });
    return pending;
  }

  /**
   * The query's terms with their weights; with `fuzzy`, a term no CFB holds (a typo) also
   * searches its near spellings at FUZZY_WEIGHT of their own weight.
   */
  function weighted(query: TWeightedQuery, fuzzy = false) {
    const documents = index.size;
    return query.terms.flatMap((term) => {
      const df = index.documentFrequency(term);
      const own = { term, weight: query.weight(documents, df, term) };
      if (!fuzzy || df > 0) return [own];
      return [
        own,
        ...index.nearSpellings(term).map((near) => ({
          term: near,
          weight: FUZZY_WEIGHT * query.weight(documents, index.documentFrequency(near), near),
        })),
      ];
    });
  }

  return {
    async candidates(query, opts = {}) {
      await sync();
      const hits = index.search(weighted({ terms: query.terms, weight: resolveWeight }), {
        limit: opts.limit ?? DEFAULT_LIMIT,
        visibleTo: opts.visibleTo,
      });
      return candidateRows(
        sql,
        hits.map((h) => h.id),
        opts,
      );
    },
    candidatesByIds: (ids, opts) => candidateRows(sql, ids, opts),
    async search(query, opts) {
      await sync();
      return index.search(weighted(query, opts.fuzzy), opts);
    },
    sync,
    status: () => ({ ...status }),
    async attachVectors(model, dims) {
      if (vectors?.model === model && vectors.dims === dims) return;
      vectors = { model, dims, index: new VectorIndex(dims), readAt: Number.NEGATIVE_INFINITY, recent: new Map() };
      await sync();
    },
    putVectors(rows) {
      for (const r of rows) if (index.has(r.cfbId)) vectors?.index.upsert(r.cfbId, r.vector);
    },
    async nearest(vector, k, opts = {}) {
      await sync();
      if (!vectors) return [];
      return vectors.index.nearest(vector, k, (id) => index.visible(id, opts.visibleTo, opts.domains));
    },
    similarities: (vector, ids) => vectors?.index.similarities(vector, ids) ?? new Map(),
  };
}
