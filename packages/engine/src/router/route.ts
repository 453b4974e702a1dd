// The selector step (seed 001 §7.1, DeliveryAttempt.step "selector"): before the main model
// answers, a deterministic router picks the turn's router_domain and modeLabel. Every Umbra
// counter is keyed by that domain, retrieval is scoped and boosted by it, and a strict domain
// holds the answer's claim map to account (seed 001 §4).
//
// Scores, per domain of the routing config (first match of each entry only, word boundaries,
// matched token by token as the context engine matches catalog patterns: no regex from data):
//   keyword  +1 (+2 for a phrase of several words)     tag  +1     entity  +2
//   the thread's previous domain                                        +0.5 (stickiness)
//   the share of the thread's recent answers whose domainHints name it   +1 × share
// A procedure thread routes to the domain that lists its system, whatever the words. The best
// score at or above `min_score` wins; ties go to the previous domain, then config order. Below
// it the previous domain holds, else the default. Pure: same input, same route.

import { containsPhrase, toClauses, toTokens } from "../context/text";

export type TRoutingDomain = {
  id: string;
  label: string;
  mode_label: string;
  strict: boolean;
  scope: "domain" | "boost";
  keywords: readonly string[];
  tags: readonly string[];
  entities: readonly string[];
  procedures: readonly string[];
};

export type TRoutingConfig = { default_domain: string; min_score: number; domains: readonly TRoutingDomain[] };

export type TRouteInput = {
  message: string;
  /** The domain the thread's previous turn was routed to, if any. */
  previousDomain: string | null;
  /** domainHints of the thread's recent answers, newest first. */
  hintHistory: readonly (readonly string[])[];
  /** The catalog system of a procedure thread. */
  procedureSystem: string | null;
};

export type TDomainScore = { domain: string; score: number; hits: string[] };

export type TRoute = {
  domain: string;
  mode_label: string;
  strict: boolean;
  scope: "domain" | "boost";
  reason: "procedure" | "words" | "history" | "previous" | "default";
  /** Every domain that scored, best first. */
  scores: TDomainScore[];
};

export const ROUTE_WEIGHTS = { keyword: 1, phrase: 2, tag: 1, entity: 2, previous: 0.5, history: 1 } as const;

/** The general fallback when the default domain is not one of the config's domains. */
const GENERAL: Omit<TRoutingDomain, "id"> = {
  label: "General",
  mode_label: "System",
  strict: false,
  scope: "boost",
  keywords: [],
  tags: [],
  entities: [],
  procedures: [],
};

function routeTo(config: TRoutingConfig, id: string, reason: TRoute["reason"], scores: TDomainScore[]): TRoute {
  const domain = config.domains.find((d) => d.id === id) ?? { ...GENERAL, id };
  return {
    domain: domain.id,
    mode_label: domain.mode_label,
    strict: domain.strict,
    scope: domain.scope,
    reason,
    scores,
  };
}

function scoreDomain(domain: TRoutingDomain, clauses: ReturnType<typeof toClauses>, input: TRouteInput): TDomainScore {
  let score = 0;
  const hits: string[] = [];
  const count = (entries: readonly string[], weigh: (tokens: string[]) => number, kind: string) => {
    for (const entry of entries) {
      const tokens = toTokens(entry);
      if (tokens.length === 0 || !containsPhrase(clauses, tokens)) continue;
      score += weigh(tokens);
      hits.push(`${kind}:${entry}`);
    }
  };
  count(domain.keywords, (t) => (t.length > 1 ? ROUTE_WEIGHTS.phrase : ROUTE_WEIGHTS.keyword), "keyword");
  count(domain.tags, () => ROUTE_WEIGHTS.tag, "tag");
  count(domain.entities, () => ROUTE_WEIGHTS.entity, "entity");
  if (input.previousDomain === domain.id) {
    score += ROUTE_WEIGHTS.previous;
    hits.push("previous");
  }
  if (input.hintHistory.length > 0) {
    const share = input.hintHistory.filter((hints) => hints.includes(domain.id)).length / input.hintHistory.length;
    if (share > 0) {
      score += ROUTE_WEIGHTS.history * share;
      hits.push(`history:${Math.round(share * 100)}%`);
    }
  }
  return { domain: domain.id, score: Math.round(score * 1000) / 1000, hits };
}

/** The route of one turn (see the header for the rules). */
export function routeTurn(config: TRoutingConfig, input: TRouteInput): TRoute {
  if (input.procedureSystem !== null) {
    const owner = config.domains.find((d) => d.procedures.includes(input.procedureSystem as string));
    if (owner !== undefined) return routeTo(config, owner.id, "procedure", []);
  }
  const clauses = toClauses(input.message);
  const scores = config.domains
    .map((d) => scoreDomain(d, clauses, input))
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score);
  const best = scores[0];
  if (best !== undefined && best.score >= config.min_score) {
    const tied = scores.filter((s) => s.score === best.score);
    const winner = tied.find((s) => s.domain === input.previousDomain) ?? best;
    const fromWords = winner.hits.some((h) => /^(keyword|tag|entity):/.test(h));
    return routeTo(config, winner.domain, fromWords ? "words" : "history", scores);
  }
  if (input.previousDomain !== null) return routeTo(config, input.previousDomain, "previous", scores);
  return routeTo(config, config.default_domain, "default", scores);
}
