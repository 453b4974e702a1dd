// The selector step (seed 001 §7.1, DeliveryAttempt.step "selector"): before the main model
// answers, the router picks the turn's router_domain and modeLabel. Every Umbra counter is keyed
// by that domain, retrieval is scoped and boosted by it, and a strict domain holds the answer's
// claim map to account (seed 001 §4). docs/routing.md has the rules; in order:
// 1. a procedure thread routes to the domain that lists its catalog system;
// 2. an operator's rule (`always`): a message holding one of a domain's phrases routes there;
// 3. the classifier (classifier.ts), trained on each domain's examples, keywords, tags,
//    entities and the examples learned from corrections: its best domain when its probability
//    reaches `min_confidence` (in a thread that has another domain, when it also leads the
//    thread's domain by `min_confidence`);
// 4. else (or when the best domain is the fallback, "nothing in particular", in a thread that
//    has a domain) the turn is unrouted: the domain most of the thread's recent answers name in their
//    domainHints, then the thread's previous domain, then the fallback domain. The hints never
//    move a thread out of a strict previous domain.
// Pure: the same router and input, the same route.

import type { TRoutingConfig, TRoutingDomainConfig } from "@solserver/contracts";
import { analysisLanguage, analyzeTerms, analyzeToken, clauses } from "@solserver/text";
import { type TDomainProbability, type TRouterExample, type TRouterModel, trainRouter } from "./classifier";

export type TRouteInput = {
  message: string;
  /** The domain the thread's previous turn was routed to, if any. */
  previousDomain: string | null;
  /** domainHints of the thread's recent answers, newest first. */
  hintHistory: readonly (readonly string[])[];
  /** The catalog system of a procedure thread. */
  procedureSystem: string | null;
  /** The message's sentence vector, when the sentence model is loaded. */
  vector?: Float32Array | null;
};

export type TRoute = {
  domain: string;
  mode_label: string;
  strict: boolean;
  scope: "domain" | "boost";
  reason: "procedure" | "rule" | "classifier" | "history" | "previous" | "fallback";
  /** The classifier's probability of its best domain (1 for a procedure or a rule). */
  confidence: number;
  /** The classifier's domains, best first, with their probabilities. */
  ranking: TDomainProbability[];
  /** The operator's rule that decided (`always` phrase), for reason "rule". */
  rule: string | null;
  /** The domain the thread's domainHints named, when a strict previous domain held against them. */
  hints_overruled: string | null;
};

export type TRouter = {
  readonly config: TRoutingConfig;
  readonly model: TRouterModel;
};

/** A hint history names a domain when at least this share of the recent answers name it. */
const HINT_SHARE = 0.5;

/** The texts the classifier learns a domain from: its examples and its words. */
export function domainExamples(domain: TRoutingDomainConfig): TRouterExample[] {
  const texts = [...domain.examples, ...domain.keywords, ...domain.tags, ...domain.entities];
  return texts.map((text) => ({ text, domain: domain.id }));
}

/** Trains the router on the config's examples and those learned from corrections. */
export function buildRouter(config: TRoutingConfig, learned: readonly TRouterExample[] = []): TRouter {
  const ids = new Set(config.domains.map((d) => d.id));
  const examples = [...config.domains.flatMap(domainExamples), ...learned.filter((e) => ids.has(e.domain))];
  return { config, model: trainRouter([...ids], examples) };
}

type TRule = { domain: string; phrase: string; terms: string[] };
const compiledRules = new WeakMap<TRoutingConfig, TRule[]>();

function rulesOf(config: TRoutingConfig): TRule[] {
  let rules = compiledRules.get(config);
  if (!rules) {
    rules = config.domains.flatMap((d) =>
      d.always.map((phrase) => ({ domain: d.id, phrase, terms: analyzeTerms(phrase) })),
    );
    compiledRules.set(config, rules);
  }
  return rules;
}

/** The longest `always` phrase found in one clause of the message (its analysed terms in a row). */
function matchRule(config: TRoutingConfig, message: string): TRule | null {
  const rules = rulesOf(config);
  if (rules.length === 0) return null;
  const language = analysisLanguage(message);
  const sequences = clauses(message).map((c) =>
    c.tokens.flatMap((t) => {
      const term = analyzeToken(t, language);
      return term === null ? [] : [term];
    }),
  );
  let best: TRule | null = null;
  for (const rule of rules) {
    if (rule.terms.length === 0 || (best && best.terms.length >= rule.terms.length)) continue;
    const found = sequences.some((seq) => seq.some((_, i) => rule.terms.every((term, j) => seq[i + j] === term)));
    if (found) best = rule;
  }
  return best;
}

function routeTo(
  config: TRoutingConfig,
  id: string,
  fields: Pick<TRoute, "reason" | "confidence" | "ranking"> & Partial<Pick<TRoute, "rule" | "hints_overruled">>,
): TRoute {
  const domain = config.domains.find((d) => d.id === id);
  return {
    domain: id,
    // The fallback need not be a configured domain: then it is the general, non-strict one.
    mode_label: domain?.mode_label ?? "System",
    strict: domain?.strict ?? false,
    scope: domain?.scope ?? "boost",
    rule: null,
    hints_overruled: null,
    ...fields,
  };
}

/** The domain most of the recent answers name (at least HINT_SHARE of them), if a configured one. */
function hintedDomain(config: TRoutingConfig, history: TRouteInput["hintHistory"]): string | null {
  if (history.length === 0) return null;
  let best: { domain: string; n: number } | null = null;
  for (const d of config.domains) {
    const n = history.filter((hints) => hints.includes(d.id)).length;
    if (n / history.length >= HINT_SHARE && (!best || n > best.n)) best = { domain: d.id, n };
  }
  return best?.domain ?? null;
}

/** The route of one turn (see the header for the rules). */
export function routeTurn(router: TRouter, input: TRouteInput): TRoute {
  const { config } = router;
  if (input.procedureSystem !== null) {
    const owner = config.domains.find((d) => d.procedures.includes(input.procedureSystem as string));
    if (owner) return routeTo(config, owner.id, { reason: "procedure", confidence: 1, ranking: [] });
  }
  const rule = matchRule(config, input.message);
  if (rule) return routeTo(config, rule.domain, { reason: "rule", confidence: 1, ranking: [], rule: rule.phrase });

  // A message with no word the analyser reads (empty, only emoji or punctuation) is unrouted.
  const ranking = analyzeTerms(input.message).length > 0 ? router.model.classify(input.message, input.vector) : [];
  const best = ranking[0];
  const confidence = best?.p ?? 0;
  const previous = input.previousDomain;
  // The fallback domain is "nothing in particular" ("thanks", "and then?"): in a thread that has
  // a domain, such a message is treated as unrouted and the thread keeps its own.
  const nothingInParticular = best?.domain === config.fallback_domain && previous !== null;
  // Leaving a thread's domain takes more than starting one: the classifier must prefer the new
  // domain over the thread's by min_confidence ("still nothing" in an RV thread stays there).
  const lead = best ? best.p - (ranking.find((r) => r.domain === previous)?.p ?? 0) : 0;
  const staysInThread = previous !== null && best?.domain !== previous && lead < config.min_confidence;
  if (best && confidence >= config.min_confidence && !nothingInParticular && !staysInThread)
    return routeTo(config, best.domain, { reason: "classifier", confidence, ranking });

  const unrouted = { confidence, ranking };
  const hinted = hintedDomain(config, input.hintHistory);
  const previousStrict = config.domains.find((d) => d.id === previous)?.strict ?? false;
  if (hinted !== null && previous !== null && previousStrict && hinted !== previous)
    return routeTo(config, previous, { reason: "previous", ...unrouted, hints_overruled: hinted });
  if (hinted !== null) return routeTo(config, hinted, { reason: "history", ...unrouted });
  if (previous !== null) return routeTo(config, previous, { reason: "previous", ...unrouted });
  return routeTo(config, config.fallback_domain, { reason: "fallback", ...unrouted });
}
