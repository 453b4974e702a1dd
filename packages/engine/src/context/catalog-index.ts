// A system compiled for reading messages (once per system object, cached): every answer's
// patterns, the parts each step names, the safety and evidence rules, the symptom words of a
// complaint, the words an echo of a question repeats, and the speller for typing slips. With the
// part lookups intent.ts asks of it ("which steps does this item name?").

import { isNumber as isNumberToken, clauses as toClauses } from "@solserver/text";
import type { TEvidenceRule, TSafetyRule, TStep, TSystem } from "./catalog-schema";
import { type TLearnedReader, trainReader } from "./learned-reader";
import type { TPattern } from "./match";
import { indexOf, PhraseIndex } from "./phrases";
import { Speller } from "./spelling";
import { PACK_WORDS, phrase, type TLexClause, type TPhrase, VOCABULARY } from "./vocabulary";

/**
 * A rule's patterns: phrases, and combinations written "oil + coil" (every part in one clause,
 * in any order: "theres oil all over the condenser coil").
 */
export type TRuleMatcher = { index: PhraseIndex; combos: PhraseIndex[][] };

function ruleMatcher(patterns: readonly string[]): TRuleMatcher {
  const simple: TPhrase[] = [];
  const combos: PhraseIndex[][] = [];
  for (const p of patterns) {
    const parts = p
      .split("+")
      .map((part) => phrase(part))
      .filter((t) => t.length > 0);
    if (parts.length > 1) combos.push(parts.map((part) => new PhraseIndex([part])));
    else if (parts[0] !== undefined) simple.push(parts[0]);
  }
  return { index: new PhraseIndex(simple), combos };
}

/** Start positions of a rule's hits in one clause (each combo reported at its first part). */
export function ruleStarts(matcher: TRuleMatcher, clause: TLexClause): number[][] {
  const hits = matcher.index.in(clause.tokens).map((span) => [span.start]);
  for (const combo of matcher.combos) {
    const starts = combo.map((part) => part.in(clause.tokens)[0]?.start);
    if (starts.every((start) => start !== undefined)) hits.push(starts as number[]);
  }
  return hits;
}

export type TCompiled = {
  answers: Map<TStep, (readonly TPattern[])[]>;
  parts: { step: TStep; tokens: TPhrase }[];
  partIndex: (part: { tokens: TPhrase }) => PhraseIndex;
  /** All parts in one index; partOwners[i] are the steps phrase i names. */
  allParts: PhraseIndex;
  partOwners: TStep[][];
  safety: { rule: TSafetyRule; index: TRuleMatcher; clear: TRuleMatcher }[];
  evidence: { rule: TEvidenceRule; index: TRuleMatcher }[];
  symptoms: PhraseIndex;
  /** Words of the system's answer patterns: after one of them an elliptical non-answer is a statement. */
  content: ReadonlySet<string>;
  /** Mends typing slips toward the words of this system and of the language packs. */
  speller: Speller;
  /** The first words of the system's parts and keywords: a number right before one is a specification. */
  names: ReadonlySet<string>;
  /**
   * Every folded word of the system's own text (questions, how-tos, parts, patterns, constraints,
   * rules) in every language: a question with a word outside these and the language packs, and
   * none of the system's part or answer words, is about something else ("what's the weather
   * tomorrow?").
   */
  words: ReadonlySet<string>;
  /** Per step: the content words of its question in every language (what an echo repeats). */
  questionWords: ReadonlyMap<TStep, ReadonlySet<string>>;
  /**
   * The words of the system's parts: an echo of only these says nothing about the
   * question ("breaker for the pump was tripped" repeats "breaker" and "pump", not "intact").
   */
  partWords: ReadonlySet<string>;
  /** The reader learned from the system's examples (trained on first use); null without examples. */
  learned: () => TLearnedReader | null;
};
const compiled = new WeakMap<TSystem, TCompiled>();

function pattern(text: string, partWords: ReadonlySet<string>) {
  const tokens = phrase(text);
  return {
    tokens,
    weak: tokens.every((token) => VOCABULARY.generic.has(token)),
    negative: tokens.some((token) => VOCABULARY.negators.has(token)),
    names: tokens.some((token) => partWords.has(token)),
  };
}

/** Every string in a catalog value (catalogs are validated data: bounded, no cycles). */
function textsOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(textsOf);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(textsOf);
  return [];
}

export function compile(system: TSystem): TCompiled {
  const cached = compiled.get(system);
  if (cached !== undefined) return cached;
  const partWords = new Set(system.procedure.steps.flatMap((step) => step.parts ?? []).flatMap(phrase));
  const result: TCompiled = {
    answers: new Map(
      system.procedure.steps.map((step) => [
        step,
        step.answers.map((a) => a.patterns.map((p) => pattern(p, partWords)).filter((p) => p.tokens.length > 0)),
      ]),
    ),
    parts: system.procedure.steps
      .flatMap((step) => (step.parts ?? []).map((p) => ({ step, tokens: phrase(p) })))
      .filter((p) => p.tokens.length > 0)
      .sort((a, b) => b.tokens.length - a.tokens.length),
    ...(() => {
      const keys = new Map<string, number>();
      const phrases: TPhrase[] = [];
      const owners: TStep[][] = [];
      for (const step of system.procedure.steps)
        for (const part of step.parts ?? []) {
          const tokens = phrase(part);
          if (tokens.length === 0) continue;
          const key = tokens.join(" ");
          let i = keys.get(key);
          if (i === undefined) {
            i = phrases.length;
            keys.set(key, i);
            phrases.push(tokens);
            owners.push([]);
          }
          if (!owners[i]?.includes(step)) owners[i]?.push(step);
        }
      return { allParts: new PhraseIndex(phrases), partOwners: owners };
    })(),
    partIndex: (() => {
      const byPart = new Map<TPhrase, PhraseIndex>();
      return (part: { tokens: TPhrase }) => {
        let index = byPart.get(part.tokens);
        if (index === undefined) {
          index = new PhraseIndex([part.tokens]);
          byPart.set(part.tokens, index);
        }
        return index;
      };
    })(),
    safety: (system.safety_rules ?? []).map((rule) => ({
      rule,
      index: ruleMatcher(rule.patterns),
      clear: ruleMatcher(rule.clear_patterns),
    })),
    evidence: (system.evidence_rules ?? []).map((rule) => ({ rule, index: ruleMatcher(rule.patterns) })),
    symptoms: indexOf([...system.detect.keywords, ...(system.detect.phrases ?? [])].map(phrase)),
    names: new Set(
      [...system.detect.keywords, ...system.procedure.steps.flatMap((step) => step.parts ?? [])]
        .map((p) => phrase(p)[0] ?? "")
        .filter((t) => t.length >= 3 && !isNumberToken(t) && !VOCABULARY.generic.has(t) && !VOCABULARY.fillers.has(t)),
    ),
    partWords,
    questionWords: new Map(
      system.procedure.steps.map((step) => [
        step,
        new Set(
          [step.question, ...(step.parts ?? [])].flatMap(phrase).filter(
            (t) =>
              t.length >= 4 &&
              !VOCABULARY.generic.has(t) &&
              !VOCABULARY.fillers.has(t) &&
              !isNumberToken(t) &&
              // ("wait 3 minutes": how long to wait is no part of what the question asks)
              !VOCABULARY.labor.minuteUnits.has(t) &&
              !VOCABULARY.labor.hourUnits.has(t),
          ),
        ),
      ]),
    ),
    // (catalog words only: a slip is mended toward a part or an answer, never toward a question
    // word — "theres" is not "wheres")
    speller: new Speller(
      [
        ...[
          ...system.detect.keywords,
          ...(system.detect.phrases ?? []),
          ...system.procedure.steps.flatMap((step) => [
            ...(step.parts ?? []),
            ...step.answers.flatMap((a) => a.patterns),
          ]),
          ...(system.safety_rules ?? []).flatMap((r) => [...r.patterns, ...r.clear_patterns]),
          ...(system.evidence_rules ?? []).flatMap((r) => r.patterns),
        ].flatMap((p) => toClauses(p.replaceAll("+", " ")).flatMap((clause) => clause.tokens)),
      ],
      PACK_WORDS,
    ),
    // (the examples are what technicians said, not the system's own text)
    words: new Set(textsOf({ ...system, examples: [] }).flatMap(phrase)),
    content: new Set(
      system.procedure.steps
        .flatMap((step) => step.answers.flatMap((a) => a.patterns.flatMap(phrase)))
        .filter((t) => t.length >= 3 && !VOCABULARY.generic.has(t) && !isNumberToken(t)),
    ),
    learned: (() => {
      let reader: TLearnedReader | null | undefined;
      return () => {
        reader ??=
          (system.examples ?? []).length === 0
            ? null
            : trainReader(
                (system.examples ?? []).map((e) => ({
                  text: e.text,
                  labels: e.records.map((r) => `${r.step}=${r.answer}`),
                })),
              );
        return reader;
      };
    })(),
  };
  compiled.set(system, result);
  return result;
}

/**
 * The steps whose parts an item names, longest part first and each word for one part only:
 * "the pump switch" names the switch, not the pump.
 */
export function namedSteps(c: TCompiled, tokens: readonly string[]): Set<TStep> {
  return new Set(namedSpans(c, tokens).map((n) => n.step));
}

export function namedSpans(c: TCompiled, tokens: readonly string[]): { step: TStep; start: number }[] {
  const claimed = tokens.map((t) => t === "");
  const named: { step: TStep; start: number }[] = [];
  for (const part of c.parts)
    for (const span of c.partIndex(part).in(tokens)) {
      if (claimed.slice(span.start, span.start + span.length).some(Boolean)) continue;
      for (let i = span.start; i < span.start + span.length; i++) claimed[i] = true;
      named.push({ step: part.step, start: span.start });
    }
  return named;
}

/** Whether a clause names one of a step's parts. */
export function namesPart(c: TCompiled, step: TStep, clause: TLexClause | undefined): boolean {
  return clause !== undefined && stepsNamedIn(c, clause.tokens).has(step);
}

/**
 * Whether the clause names a part of `step` that `asked` does not share: "el motor arranca" at
 * the motor step is about that step, not the direct motor test that names the same motor.
 */
export function namesOwnPart(c: TCompiled, step: TStep, clause: TLexClause, asked: TStep | undefined): boolean {
  const spans = c.allParts.in(clause.tokens);
  const askedOwns = (span: (typeof spans)[number]) => asked !== undefined && c.partOwners[span.phrase]?.includes(asked);
  return spans.some((span) => {
    const owners = c.partOwners[span.phrase] ?? [];
    // (a word inside the asked step's longer part names that part: "another fuse" at the short check)
    const inside = spans.some(
      (outer) =>
        outer.length > span.length &&
        outer.start <= span.start &&
        span.start + span.length <= outer.start + outer.length &&
        askedOwns(outer),
    );
    return owners.includes(step) && !askedOwns(span) && !inside;
  });
}

/** Every step whose part a run of tokens names (one pass over one index of all parts; cached per run). */
const namedCache = new WeakMap<readonly string[], Set<TStep>>();
function stepsNamedIn(c: TCompiled, tokens: readonly string[]): Set<TStep> {
  const cached = namedCache.get(tokens);
  if (cached !== undefined) return cached;
  const steps = new Set<TStep>();
  for (const span of c.allParts.in(tokens)) for (const step of c.partOwners[span.phrase] ?? []) steps.add(step);
  namedCache.set(tokens, steps);
  return steps;
}
