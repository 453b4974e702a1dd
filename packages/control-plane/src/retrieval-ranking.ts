import { compareIds } from "@solserver/contracts";
import type { TRetrievableCfb, TRetrievalSignals } from "@solserver/db";
import { analyzeTerms, cachedTermSet, termBigrams, termSet } from "@solserver/text";

// How one CFB scores against a message for retrieval (retrieval.ts): its lexical relevance and its
// boosts (usage, the routed domain), by which rankCfbs ranks small lists on their own.

/** Why a CFB was injected: the message's words it holds and how close its meaning is. */
type TWhyInjected = {
  /** The message's words (as typed, folded) whose stem the CFB holds. */
  matched: string[];
  /** Cosine similarity of the message's and the CFB's sentence vectors; null without one. */
  similarity: number | null;
  /** The lexical score (lexicalScore, before boosts), in [0, ~1.2]. */
  lexical: number;
};

export type TRankedCfb = { cfb: TRetrievableCfb; score: number; why: TWhyInjected };

/**
 * Retrieval boosts (seed 001 §9.5), multiplied into a CFB's fused score:
 * - hotness (recent use, cfb-stats.ts): up to +25% for the hottest;
 * - ignored rate (ignored / (used + ignored) over 30 days, from 5 observations on): up to −40%
 *   for a CFB the model keeps being given and keeps ignoring;
 * - staleness (past its TTL): −15%, and a stale CFB with review_on_use that is used is flagged
 *   for review (a promotion trigger, see respond.ts).
 * Relevance stays the main term: a boost reorders close candidates, it cannot lift a CFB that
 * does not match the message at all.
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

/** The routed domain's CFBs weigh this much more; shared CFBs are domain "general". */
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
 * The lexical relevance of a CFB to a message: the (weighted) share of the message's analysed
 * terms it holds (a term only in the summary at 1 / STRONG_FIELD_BOOST), a small bonus for tag
 * and entity hits (curated labels are stronger evidence than prose), and PHRASE_BONUS for the
 * message's word pairs found as written in the title or summary ("postmortem template").
 */
export function lexicalScore(
  query: readonly string[],
  pairs: ReadonlySet<string>,
  cfb: TRetrievableCfb,
  weightOf: (t: string) => number = () => 1,
): number {
  if (query.length === 0) return 0;
  const labels = [...cfb.tags, ...cfb.entities].join("\n");
  const strong = cachedTermSet(`${cfb.title}\n${labels}`);
  const body = cachedTermSet(cfb.summary);
  const base =
    weightedCoverage(query, strong, weightOf) +
    weightedCoverage(query, new Set([...body].filter((t) => !strong.has(t))), weightOf) / STRONG_FIELD_BOOST;
  if (base === 0) return 0;
  const bonus = 0.1 * weightedCoverage(query, cachedTermSet(labels), weightOf);
  let phrase = 0;
  if (pairs.size > 0) {
    const title = termBigrams(cfb.title);
    const summary = termBigrams(cfb.summary);
    let hit = 0;
    for (const p of pairs) if (title.has(p) || summary.has(p)) hit += 1;
    phrase = PHRASE_BONUS * (hit / pairs.size);
  }
  return Math.min(1, base + bonus) + phrase;
}

/**
 * Ranks CFBs for a message by their lexical score (lexicalScore) times the usage and domain
 * boosts, best first; ties by cfb_id in numeric order. The offline model and tests rank small
 * lists this way; a turn's retrieval is retrieveCfbs.
 */
export function rankCfbs(
  message: string,
  cfbs: readonly TRetrievableCfb[],
  limit: number,
  route?: TRetrievalScope,
  weights?: TTermWeights,
): TRankedCfb[] {
  const query = [...termSet(message)];
  const pairs = termBigrams(message);
  const weightOf = (t: string) => weights?.get(t) ?? 1;
  const ranked: TRankedCfb[] = [];
  for (const cfb of cfbs) {
    if (!inScope(cfb, route)) continue;
    const lexical = lexicalScore(query, pairs, cfb, weightOf);
    if (lexical === 0) continue;
    ranked.push({
      cfb,
      score: lexical * retrievalBoost(cfb.signals) * domainBoost(cfb, route),
      why: { matched: matchedWords(message, cfb), similarity: null, lexical },
    });
  }
  return ranked.sort(byScore).slice(0, limit);
}

export function inScope(cfb: TRetrievableCfb, route: TRetrievalScope | undefined): boolean {
  return route?.scope !== "domain" || cfb.domain === route.domain || cfb.domain === SHARED_DOMAIN;
}

export function domainBoost(cfb: TRetrievableCfb, route: TRetrievalScope | undefined): number {
  return route !== undefined && cfb.domain === route.domain ? DOMAIN_BOOST : 1;
}

export const byScore = (a: TRankedCfb, b: TRankedCfb) => b.score - a.score || compareIds(a.cfb.cfb_id, b.cfb.cfb_id);

/** The message's words (folded, as typed) whose analysed term the CFB holds. */
export function matchedWords(message: string, cfb: TRetrievableCfb): string[] {
  const held = cachedTermSet([cfb.title, cfb.summary, ...cfb.tags, ...cfb.entities].join("\n"));
  const words = analyzeTerms(message, { stem: false });
  const terms = analyzeTerms(message);
  const out = new Set<string>();
  terms.forEach((t, i) => {
    if (held.has(t)) out.add(words[i] as string);
  });
  return [...out];
}
