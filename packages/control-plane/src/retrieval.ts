import type { TRetrievableCfb, TRetrievalSignals } from "@solserver/db";
import { coverage, uniqueContentWords } from "./text";

export type TRankedCfb = { cfb: TRetrievableCfb; score: number };

/** Words a CFB is about: title, summary, tags and entities. */
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

/**
 * Ranks CFBs for a message by the share of the message's content words each one covers, with a
 * small bonus for tag and entity hits (curated labels are stronger evidence than prose). Ties
 * break on cfb_id so the order is deterministic; the boosts above then weigh in usage and age,
 * and the route (selector step) scopes or boosts by domain.
 */
export function rankCfbs(
  message: string,
  cfbs: readonly TRetrievableCfb[],
  limit: number,
  route?: TRetrievalScope,
): TRankedCfb[] {
  const query = uniqueContentWords(message);
  if (query.length === 0) return [];
  const ranked: TRankedCfb[] = [];
  for (const cfb of cfbs) {
    const own = route === undefined || cfb.domain === route.domain;
    if (route?.scope === "domain" && !own && cfb.domain !== SHARED_DOMAIN) continue;
    const base = coverage(query, cfbVocabulary(cfb));
    if (base === 0) continue;
    const labels = new Set(uniqueContentWords([...cfb.tags, ...cfb.entities].join(" ")));
    const bonus = 0.1 * coverage(query, labels);
    const domainBoost = route !== undefined && own ? DOMAIN_BOOST : 1;
    ranked.push({ cfb, score: Math.min(1, base + bonus) * retrievalBoost(cfb.signals) * domainBoost });
  }
  ranked.sort((a, b) => b.score - a.score || a.cfb.cfb_id.localeCompare(b.cfb.cfb_id, "en", { numeric: true }));
  return ranked.slice(0, limit);
}
