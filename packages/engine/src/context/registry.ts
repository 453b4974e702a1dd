// The diagnostic registry: a DATA PROVIDER ONLY (ADR 004). It looks things up in a catalog and
// formats step text for the model's prompt. It never decides flow: no next step, no pivot, no
// state. The context engine (engine.ts) is the single flow authority; test/context-authority
// checks that this module stays that way.

import { constraintLinesOf, type TCatalog, type TStep, type TSystem } from "./catalog-schema";
import { matchingSystem } from "./localize";
import { containsPhrase } from "./text";
import { lex, phrase } from "./vocabulary";

/** What the model is told about one step, plus the constraints that apply while it is asked. */
export type TStepContext = {
  question: string;
  howto: string;
  locate: string | null;
  explain: string | null;
  constraints: string[];
};

export type TSystemMatch = { system_id: string; score: number };

/** Points per detect entry found in the message (keywords are short and common, phrases specific). */
export const DETECT_WEIGHTS = { keyword: 1, phrase: 2 } as const;

export function getSystem(catalog: TCatalog, systemId: string): TSystem | null {
  return catalog.systems.find((system) => system.id === systemId) ?? null;
}

/** The system's procedure exactly as the catalog defines it. */
export function getProcedure(catalog: TCatalog, systemId: string): TSystem["procedure"] | null {
  return getSystem(catalog, systemId)?.procedure ?? null;
}

export function getStep(catalog: TCatalog, systemId: string, stepId: string): TStep | null {
  return getProcedure(catalog, systemId)?.steps.find((step) => step.id === stepId) ?? null;
}

/**
 * The system a message is about: each detect keyword present scores 1, each phrase 2 (counted
 * once, matched on word boundaries). The best score wins; no match, or a tie between systems
 * (e.g. "the A/C and the furnace are dead"), gives null: ask the technician which system.
 * Keywords of every language the catalog is translated into count.
 */
export function detectSystem(catalog: TCatalog, text: string): TSystemMatch | null {
  const clauses = lex(text);
  const scores = catalog.systems.map((original) => {
    // every language's keywords: "la bomba de agua no prende" is the water pump too
    const system = matchingSystem(catalog, original);
    const hits = (entries: readonly string[] | undefined) =>
      (entries ?? []).filter((entry) => containsPhrase(clauses, phrase(entry))).length;
    return {
      system_id: system.id,
      score:
        hits(system.detect.keywords) * DETECT_WEIGHTS.keyword + hits(system.detect.phrases) * DETECT_WEIGHTS.phrase,
    };
  });
  const best = Math.max(0, ...scores.map((s) => s.score));
  const top = scores.filter((s) => s.score === best);
  return best > 0 && top.length === 1 ? (top[0] ?? null) : null;
}

/**
 * The system's constraints as prompt lines ("Safety: …", "Warranty: …"), safety first, catalog
 * order. With a step: the `always` constraints plus those the step lists; without: all of them.
 */
export function getConstraints(catalog: TCatalog, systemId: string, stepId: string | null = null): string[] {
  const system = getSystem(catalog, systemId);
  if (system === null) return [];
  // (an unknown step lists none of its own: only the `always` ones apply)
  return constraintLinesOf(system, stepId === null ? null : (getStep(catalog, systemId, stepId) ?? {}));
}

/** Step text for the model's prompt (buildRegistryContext in the ADR). */
export function buildStepContext(catalog: TCatalog, systemId: string, stepId: string): TStepContext | null {
  const step = getStep(catalog, systemId, stepId);
  if (step === null) return null;
  return {
    question: step.question,
    howto: step.howto,
    locate: step.locate ?? null,
    explain: step.explain ?? null,
    constraints: getConstraints(catalog, systemId, stepId),
  };
}
