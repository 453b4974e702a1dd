import { compareIds } from "@solserver/contracts";
import type { TCandidateIndex, TRetrievableCfb, TRetrievalSignals } from "@solserver/db";
import { cachedTermSet, semanticComponent, type TSemanticScale, termSet } from "@solserver/resolve";
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
 * holds (packages/resolve analyzeTerms: stemmed, so "rotate" meets "rotation"), with a small
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
): TRankedCfb[] {
  const query = [...termSet(message)];
  if (query.length === 0) return [];
  const weightOf = (t: string) => weights?.get(t) ?? 1;
  const ranked: TRankedCfb[] = [];
  for (const cfb of cfbs) {
    const own = route === undefined || cfb.domain === route.domain;
    if (route?.scope === "domain" && !own && cfb.domain !== SHARED_DOMAIN) continue;
    const labels = [...cfb.tags, ...cfb.entities].join("\n");
    const base = weightedCoverage(query, cachedTermSet(`${cfb.title}\n${cfb.summary}\n${labels}`), weightOf);
    if (base === 0) continue;
    const bonus = 0.1 * weightedCoverage(query, cachedTermSet(labels), weightOf);
    const domainBoost = route !== undefined && own ? DOMAIN_BOOST : 1;
    ranked.push({ cfb, score: Math.min(1, base + bonus) * retrievalBoost(cfb.signals) * domainBoost });
  }
  ranked.sort((a, b) => b.score - a.score || compareIds(a.cfb.cfb_id, b.cfb.cfb_id));
  return ranked.slice(0, limit);
}

/** Candidates the index hands to rankCfbs: enough that usage and domain boosts can reorder. */
export const INDEX_CANDIDATES = 24;
/** A message's first terms searched (a pasted log must not cost more than a question). */
export const MAX_MESSAGE_TERMS = 32;

/** idf as BM25 has it (never negative): rare words in the knowledge base weigh more. */
export function retrievalWeight(documents: number, df: number): number {
  return df === 0 ? 0 : Math.log(1 + (documents - df + 0.5) / (df + 0.5));
}

/** What retrieval needs from the database: the candidate index and the CFB rows with signals. */
export type TRetrievalSource = {
  search: TCandidateIndex["search"];
  retrievable: (ids: readonly string[], now?: Date) => Promise<TRetrievableCfb[]>;
};

/**
 * A turn's CFBs (seed 001 §9): the candidate index ranks *every* live CFB in scope by the
 * idf-weighted terms it shares with the message (bounded work at any size: a walk of the
 * message's posting lists), the best INDEX_CANDIDATES are read with their usage signals, and
 * rankCfbs orders them with the boosts. With semantic matching on, `neighbours` (the message's
 * nearest CFBs by embedding) join the candidates, and a CFB's text relevance is the better of its
 * word overlap and its scaled similarity (so a paraphrase with no shared word is found too).
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
  },
): Promise<TRankedCfb[]> {
  const terms = [...termSet(message)].slice(0, MAX_MESSAGE_TERMS);
  if (terms.length === 0 || opts.limit <= 0) return [];
  const weights = new Map<string, number>();
  const route = opts.route;
  const hits = await source.search(
    {
      terms,
      weight: (documents, df, term) => {
        const w = retrievalWeight(documents, df);
        weights.set(term, w);
        return w;
      },
    },
    {
      limit: INDEX_CANDIDATES,
      domains: route?.scope === "domain" ? new Set([route.domain, SHARED_DOMAIN]) : undefined,
      boost: route ? (domain) => (domain === route.domain ? DOMAIN_BOOST : 1) : undefined,
      maxBoost: DOMAIN_BOOST,
    },
  );
  const neighbours = opts.neighbours ?? [];
  const ids = [...new Set([...hits.map((h) => h.id), ...neighbours.map((n) => n.cfb_id)])];
  const cfbs = await source.retrievable(ids, opts.now);
  if (neighbours.length === 0) return rankCfbs(message, cfbs, opts.limit, route, weights);
  const lexical = new Map(rankCfbs(message, cfbs, cfbs.length, route, weights).map((r) => [r.cfb.cfb_id, r.score]));
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
