// The selector step (seed 001 §7.1, DeliveryAttempt.step "selector"): before the main model
// answers, a deterministic router picks the turn's router_domain and modeLabel. Every Umbra
// counter is keyed by that domain, retrieval is scoped and boosted by it, and a strict domain
// holds the answer's claim map to account (seed 001 §4).
//
// Scores, per domain of the routing config (each entry counts once however often it occurs, and
// entries that normalise alike are one; matched as normalise.ts says: folded case, NFKC, plurals,
// possessives, compounds written apart or together, one-letter typos; no regex from data):
//   keyword or phrase in another language  +1 (+2 for several words)   tag  +1   entity  +2
//   a word of the domain's `against` list   -1 (-2 for several words)
//   the thread's previous domain                                        +0.5 (stickiness)
//   the share of the thread's recent answers whose domainHints name it   +1 × share
// A procedure thread routes to the domain that lists its system, whatever the words. The best
// score at or above `min_score` wins; ties go to a strict domain over a non-strict one, then to
// the previous domain, then to config order. Below it the previous domain holds, else the
// default. The model cannot steer out of a strict domain: when the route without the thread's
// domainHints is strict, the hints are not counted (the answer's hints then only raise the
// domain_mismatch suggestion). Pure: same input, same route.

import { buildEntryIndex, entryKeys, findEntries, type TEntryIndex, toRouteTokens, wordCount } from "./normalise";

export type TRoutingDomain = {
  id: string;
  label: string;
  mode_label: string;
  strict: boolean;
  scope: "domain" | "boost";
  keywords: readonly string[];
  /** Keywords in other languages, by language tag ("de", "fr", "es"); scored as keywords. */
  phrases?: Readonly<Record<string, readonly string[]>>;
  tags: readonly string[];
  entities: readonly string[];
  /** Words that say a message is about something else: each counts against the domain. */
  against?: readonly string[];
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
  /** Every domain that scored, best first (ties in the order they are broken). */
  scores: TDomainScore[];
  /**
   * The domain the thread's domainHints would have moved this turn to, when the route without
   * them was strict and held (the hints were not counted); null otherwise.
   */
  hints_overruled: string | null;
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

// ---- the compiled config ---------------------------------------------------------------------------

type TEntry = { domain: number; hit: string; weight: number };
type TCompiled = { index: TEntryIndex<TEntry>; entries: TEntry[][] };

// Compiled once per config object (configs are loaded once and never changed).
const compiledConfigs = new WeakMap<TRoutingConfig, TCompiled>();

function compile(config: TRoutingConfig): TCompiled {
  const cached = compiledConfigs.get(config);
  if (cached) return cached;
  const indexed: { tokens: ReturnType<typeof toRouteTokens>; value: TEntry }[] = [];
  const entries = config.domains.map((domain, d) => {
    const list: TEntry[] = [];
    // Entries of a domain that normalise alike ("cfb" and "cfbs", "slide-out" and "slideout", the
    // keyword "umbra" and the entity "Umbra") are one entry, weighing what the heaviest of them
    // weighs: one word of the message is one vote for a domain.
    const byKey = new Map<string, TEntry>();
    const add = (label: string, text: string, weight: number) => {
      const tokens = toRouteTokens(text);
      if (tokens.length === 0) return;
      // Words against the domain are kept apart from its own words (a config listing one in both
      // gets both, and they cancel).
      const key = `${weight < 0 ? "-" : "+"}${entryKeys(tokens).compact}`;
      const same = byKey.get(key);
      if (same) {
        if (Math.abs(weight) > Math.abs(same.weight)) Object.assign(same, { hit: `${label}:${text}`, weight });
        return;
      }
      const entry = { domain: d, hit: `${label}:${text}`, weight };
      byKey.set(key, entry);
      list.push(entry);
      indexed.push({ tokens, value: entry });
    };
    const keyword = (text: string) =>
      wordCount(toRouteTokens(text)) > 1 ? ROUTE_WEIGHTS.phrase : ROUTE_WEIGHTS.keyword;
    for (const k of domain.keywords) add("keyword", k, keyword(k));
    for (const [language, phrases] of Object.entries(domain.phrases ?? {}))
      for (const p of phrases) add(`keyword(${language})`, p, keyword(p));
    for (const t of domain.tags) add("tag", t, ROUTE_WEIGHTS.tag);
    for (const e of domain.entities) add("entity", e, ROUTE_WEIGHTS.entity);
    for (const a of domain.against ?? []) add("against", a, -keyword(a));
    return list;
  });
  const compiled = { index: buildEntryIndex(indexed), entries };
  compiledConfigs.set(config, compiled);
  return compiled;
}

// ---- scoring ---------------------------------------------------------------------------------------

function routeTo(
  config: TRoutingConfig,
  id: string,
  reason: TRoute["reason"],
  scores: TDomainScore[],
  hintsOverruled: string | null = null,
): TRoute {
  const domain = config.domains.find((d) => d.id === id) ?? { ...GENERAL, id };
  return {
    domain: domain.id,
    mode_label: domain.mode_label,
    strict: domain.strict,
    scope: domain.scope,
    reason,
    scores,
    hints_overruled: hintsOverruled,
  };
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/** Each domain's score, best first; ties: strict, then the previous domain, then config order. */
function scoreDomains(
  config: TRoutingConfig,
  compiled: TCompiled,
  found: ReadonlySet<TEntry>,
  input: TRouteInput,
  withHints: boolean,
): TDomainScore[] {
  const scored = config.domains.map((domain, d) => {
    let score = 0;
    const hits: string[] = [];
    for (const entry of compiled.entries[d] ?? []) {
      if (!found.has(entry)) continue;
      score += entry.weight;
      hits.push(entry.hit);
    }
    if (input.previousDomain === domain.id) {
      score += ROUTE_WEIGHTS.previous;
      hits.push("previous");
    }
    if (withHints && input.hintHistory.length > 0) {
      const share = input.hintHistory.filter((hints) => hints.includes(domain.id)).length / input.hintHistory.length;
      if (share > 0) {
        score += ROUTE_WEIGHTS.history * share;
        hits.push(`history:${Math.round(share * 100)}%`);
      }
    }
    return { order: d, strict: domain.strict, previous: input.previousDomain === domain.id, score: round(score), hits };
  });
  return scored
    .filter((s) => s.score > 0)
    .sort(
      (a, b) =>
        b.score - a.score ||
        Number(b.strict) - Number(a.strict) ||
        Number(b.previous) - Number(a.previous) ||
        a.order - b.order,
    )
    .map((s) => ({ domain: config.domains[s.order]?.id ?? "", score: s.score, hits: s.hits }));
}

const WORD_HIT = /^(keyword|keyword\([^)]*\)|tag|entity):/;

/** The route these scores give (the best at or above min_score, else the previous domain, else the default). */
function decide(config: TRoutingConfig, input: TRouteInput, scores: TDomainScore[]): TRoute {
  const best = scores[0];
  if (best !== undefined && best.score >= config.min_score) {
    const fromWords = best.hits.some((h) => WORD_HIT.test(h));
    return routeTo(config, best.domain, fromWords ? "words" : "history", scores);
  }
  if (input.previousDomain !== null) return routeTo(config, input.previousDomain, "previous", scores);
  return routeTo(config, config.default_domain, "default", scores);
}

/** The route of one turn (see the header for the rules). */
export function routeTurn(config: TRoutingConfig, input: TRouteInput): TRoute {
  if (input.procedureSystem !== null) {
    const owner = config.domains.find((d) => d.procedures.includes(input.procedureSystem as string));
    if (owner !== undefined) return routeTo(config, owner.id, "procedure", []);
  }
  const compiled = compile(config);
  const found = findEntries(compiled.index, input.message);
  const withoutHints = decide(config, input, scoreDomains(config, compiled, found, input, false));
  const withHints = decide(config, input, scoreDomains(config, compiled, found, input, true));
  // The model's domainHints never move a turn out of a strict route.
  if (withoutHints.strict)
    return { ...withoutHints, hints_overruled: withHints.domain === withoutHints.domain ? null : withHints.domain };
  return withHints;
}
