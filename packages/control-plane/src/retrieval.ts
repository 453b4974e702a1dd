import { compareIds } from "@solserver/contracts";
import {
  FUZZY_WEIGHT,
  type TCandidateIndex,
  type TCfbScope,
  type TRetrievableCfb,
  type TRetrievalSignals,
  visibleTo,
} from "@solserver/db";
import { semanticComponent, type TSemanticScale } from "@solserver/resolve";
import { cachedTermSet, termBigrams, termSet } from "@solserver/text";
import { uniqueContentWords } from "./text";

export type TRankedCfb = { cfb: TRetrievableCfb; score: number };

/** Words a CFB is about: title, summary, tags and entities (the offline model's plain words). */
export function cfbVocabulary(cfb: TRetrievableCfb): Set<string> {
  return new Set(uniqueContentWords([cfb.title, cfb.summary, ...cfb.tags, ...cfb.entities].join(" ")));
}

/**
 * Retrieval boosts (seed 001 §9.5), multiplied into a CFB's text score:
 * - hotness (recent use, cfb-stats.ts): up to +25% for the hottest;
 * - ignored rate (ignored / (used + ignored) over 30 days, from 5 observations on): up to −40%
 *   for a CFB the model keeps being given and keeps ignoring;
 * - staleness (past its TTL): −15%, and a stale CFB with review_on_use that is used is flagged
 *   for review (a promotion trigger, see respond.ts).
 * Text relevance stays the main term: a boost reorders close candidates, it cannot lift a CFB
 * that does not match the message at all (a zero text score stays out).
 */
export const BOOSTS = { hotness: 0.25, ignoredPenalty: 0.4, minObservations: 5, stale: 0.85 } as const;

export function retrievalBoost(signals: TRetrievalSignals | undefined): number {
  if (!signals) return 1;
  const seen = signals.used30d + signals.ignored30d;
  const ignoredRate = seen >= BOOSTS.minObservations ? signals.ignored30d / seen : 0;
  return (
    (1 + BOOSTS.hotness * signals.hotness) *
    (1 - BOOSTS.ignoredPenalty * ignoredRate) *
    (signals.stale ? BOOSTS.stale : 1)
  );
}

/**
 * A message word found in a CFB's title, tags or entities weighs this much more than one found
 * only in its summary: the knowledge a question is about names its subject there, and thousands
 * of CFBs mention the same words in passing.
 */
export const STRONG_FIELD_BOOST = 2;

/** Added to a CFB's relevance when every word pair of the message appears in it as written. */
export const PHRASE_BONUS = 0.2;

/** The routed domain's CFBs weigh this much more (scope "boost"); shared CFBs are domain "general". */
export const DOMAIN_BOOST = 1.25;
export const SHARED_DOMAIN = "general";

/** The turn's route as retrieval uses it: scope "domain" keeps only its own and shared CFBs. */
export type TRetrievalScope = { domain: string; scope: "domain" | "boost" };

/** How much one analysed term of the message weighs (retrieval passes idf; by default 1 each). */
export type TTermWeights = ReadonlyMap<string, number>;

function weightedCoverage(
  query: readonly string[],
  held: ReadonlySet<string>,
  weightOf: (t: string) => number,
): number {
  let total = 0;
  let hit = 0;
  for (const t of query) {
    const w = weightOf(t);
    total += w;
    if (held.has(t)) hit += w;
  }
  return total > 0 ? hit / total : 0;
}

/**
 * Ranks CFBs for a message by the (weighted) share of the message's analysed terms each one
 * holds (a term only in the summary at half weight) (packages/resolve analyzeTerms: stemmed, so "rotate" meets "rotation"), with a small
 * bonus for tag and entity hits (curated labels are stronger evidence than prose). Ties break on
 * cfb_id in numeric order, so the order is deterministic; the boosts above then weigh in usage
 * and age, and the route (selector step) scopes or boosts by domain. `weights` defaults to 1 per
 * term; retrieval passes each term's idf in the whole knowledge base.
 */
export function rankCfbs(
  message: string,
  cfbs: readonly TRetrievableCfb[],
  limit: number,
  route?: TRetrievalScope,
  weights?: TTermWeights,
  opts: {
    /** The analysed terms to match (default: the message's own); retrieval adds near spellings. */
    terms?: readonly string[];
    /** Rank of each CFB in the candidate index (length-normalised): breaks ties before the id. */
    priority?: ReadonlyMap<string, number>;
  } = {},
): TRankedCfb[] {
  const query = opts.terms ? [...opts.terms] : [...termSet(message)];
  if (query.length === 0) return [];
  const weightOf = (t: string) => weights?.get(t) ?? 1;
  const pairs = termBigrams(message);
  const ranked: TRankedCfb[] = [];
  for (const cfb of cfbs) {
    const own = route === undefined || cfb.domain === route.domain;
    if (route?.scope === "domain" && !own && cfb.domain !== SHARED_DOMAIN) continue;
    const labels = [...cfb.tags, ...cfb.entities].join("\n");
    // A word in the title or labels counts fully, one only in the summary at 1 / STRONG_FIELD_BOOST
    // (as the candidate index weighs them): the CFB a question is about names its subject there.
    const strong = cachedTermSet(`${cfb.title}\n${labels}`);
    const body = cachedTermSet(cfb.summary);
    const base =
      weightedCoverage(query, strong, weightOf) +
      weightedCoverage(query, new Set([...body].filter((t) => !strong.has(t))), weightOf) / STRONG_FIELD_BOOST;
    if (base === 0) continue;
    const bonus = 0.1 * weightedCoverage(query, cachedTermSet(labels), weightOf);
    // The message's word pairs found as they stand in the title or summary ("postmortem
    // template"): a card about the question says it the way the question does.
    let phrase = 0;
    if (pairs.size > 0) {
      const title = termBigrams(cfb.title);
      const summary = termBigrams(cfb.summary);
      let hit = 0;
      for (const p of pairs) if (title.has(p) || summary.has(p)) hit += 1;
      phrase = PHRASE_BONUS * (hit / pairs.size);
    }
    const domainBoost = route !== undefined && own ? DOMAIN_BOOST : 1;
    ranked.push({ cfb, score: (Math.min(1, base + bonus) + phrase) * retrievalBoost(cfb.signals) * domainBoost });
  }
  const priority = (id: string) => opts.priority?.get(id) ?? Number.MAX_SAFE_INTEGER;
  ranked.sort(
    (a, b) =>
      b.score - a.score || priority(a.cfb.cfb_id) - priority(b.cfb.cfb_id) || compareIds(a.cfb.cfb_id, b.cfb.cfb_id),
  );
  return ranked.slice(0, limit);
}

/** Candidates the index hands to rankCfbs: enough that usage and domain boosts can reorder. */
export const INDEX_CANDIDATES = 24;
/** A message's first terms searched (a pasted log must not cost more than a question). */
export const MAX_MESSAGE_TERMS = 32;

/** BM25's constants for retrieval's length normalisation (candidate index, TSearchOptions.lengthNorm). */
export const LENGTH_NORM = { k1: 1.2, b: 0.75 } as const;

/** idf as BM25 has it (never negative): rare words in the knowledge base weigh more. */
export function retrievalWeight(documents: number, df: number): number {
  return df === 0 ? 0 : Math.log(1 + (documents - df + 0.5) / (df + 0.5));
}

/** What retrieval needs from the database: the candidate index and the CFB rows with signals. */
export type TRetrievalSource = {
  search: TCandidateIndex["search"];
  retrievable: (ids: readonly string[], now?: Date, scope?: TCfbScope) => Promise<TRetrievableCfb[]>;
};

/**
 * A turn's CFBs (seed 001 §9): the candidate index ranks *every* live CFB in scope by the
 * idf-weighted terms it shares with the message (bounded work at any size: a walk of the
 * message's posting lists), the best INDEX_CANDIDATES are read with their usage signals, and
 * rankCfbs orders them with the boosts. With semantic matching on, `neighbours` (the message's
 * nearest CFBs by embedding) join the candidates, and a CFB's text relevance is the better of its
 * word overlap and its scaled similarity (so a paraphrase with no shared word is found too).
 * Only shared CFBs and those private to `visibleTo` (the thread's owner, issue 19) are retrieved:
 * the index skips the others as it ranks, and the row read leaves out any neighbour that slipped
 * through.
 */
export async function retrieveCfbs(
  source: TRetrievalSource,
  message: string,
  opts: {
    limit: number;
    route?: TRetrievalScope;
    now?: Date;
    neighbours?: readonly { cfb_id: string; similarity: number }[];
    /** The semantic scale of the embeddings model the neighbours came from. */
    semanticScale?: TSemanticScale;
    /** Whose private CFBs may be retrieved besides the shared ones (the thread's owner; null: none). */
    visibleTo?: string | null;
  },
): Promise<TRankedCfb[]> {
  const terms = [...termSet(message)].slice(0, MAX_MESSAGE_TERMS);
  if (terms.length === 0 || opts.limit <= 0) return [];
  const weights = new Map<string, number>();
  const asked = new Set(terms);
  const route = opts.route;
  const hits = await source.search(
    {
      terms,
      weight: (documents, df, term) => {
        const w = retrievalWeight(documents, df);
        // A near spelling of a typo (the index adds them) counts at FUZZY_WEIGHT, as it searched.
        weights.set(term, asked.has(term) ? w : w * FUZZY_WEIGHT);
        return w;
      },
    },
    {
      limit: INDEX_CANDIDATES,
      domains: route?.scope === "domain" ? new Set([route.domain, SHARED_DOMAIN]) : undefined,
      boost: route ? (domain) => (domain === route.domain ? DOMAIN_BOOST : 1) : undefined,
      maxBoost: DOMAIN_BOOST,
      strongBoost: STRONG_FIELD_BOOST,
      lengthNorm: LENGTH_NORM,
      fuzzy: true,
      visibleTo: opts.visibleTo ?? null,
    },
  );
  const neighbours = opts.neighbours ?? [];
  const ids = [...new Set([...hits.map((h) => h.id), ...neighbours.map((n) => n.cfb_id)])];
  const cfbs = await source.retrievable(ids, opts.now, visibleTo(opts.visibleTo ?? null));
  const ranking = { terms: [...weights.keys()], priority: new Map(hits.map((h, i) => [h.id, i] as const)) };
  if (neighbours.length === 0) return rankCfbs(message, cfbs, opts.limit, route, weights, ranking);
  const lexical = new Map(
    rankCfbs(message, cfbs, cfbs.length, route, weights, ranking).map((r) => [r.cfb.cfb_id, r.score]),
  );
  const similarity = new Map(neighbours.map((n) => [n.cfb_id, n.similarity] as const));
  const ranked: TRankedCfb[] = [];
  for (const cfb of cfbs) {
    const own = route === undefined || cfb.domain === route.domain;
    if (route?.scope === "domain" && !own && cfb.domain !== SHARED_DOMAIN) continue;
    const semantic =
      (semanticComponent(similarity.get(cfb.cfb_id), opts.semanticScale) ?? 0) *
      retrievalBoost(cfb.signals) *
      (route !== undefined && own ? DOMAIN_BOOST : 1);
    const score = Math.max(lexical.get(cfb.cfb_id) ?? 0, semantic);
    if (score > 0) ranked.push({ cfb, score });
  }
  ranked.sort((a, b) => b.score - a.score || compareIds(a.cfb.cfb_id, b.cfb.cfb_id));
  return ranked.slice(0, opts.limit);
}
