// A reply that repeats the step's question ("lit a stove burner, steady blue flame", "zero output
// from the switch"): said plainly it is the step's normal answer, negated its "no".

import type { TCompiled } from "./catalog-index";
import type { TAnswer, TStep } from "./catalog-schema";
import { phrase, type TLexClause, VOCABULARY } from "./vocabulary";

/**
 * What an echo of the step's question means: said plainly, the step's normal answer (or its
 * "yes"); negated, its "no". Null when the step has no such pair.
 */
export function yesNoAnswers(step: TStep): { yes: TAnswer; no: TAnswer } | null {
  const holds = (a: TAnswer, word: string) => a.patterns.some((p) => phrase(p).join(" ") === word);
  // only a step with a normal answer: where "yes" is the fault ("does the fuse still blow?") an
  // echo of the question says nothing about which answer is meant
  const yes = step.answers.find((a) => a.normal === true);
  const no = step.answers.find((a) => holds(a, "no"));
  return yes !== undefined && no !== undefined && yes !== no ? { yes, no } : null;
}

export const COMPARATOR_WORDS: ReadonlySet<string> = new Set(
  [...VOCABULARY.comparators.below, ...VOCABULARY.comparators.above].flat(),
);

/** Content words of the step's question that a reply may echo (not generic, not function words). */
export const ECHO_MIN_WORDS = 2;

export function echoAnswer(
  c: TCompiled,
  step: TStep,
  clauses: readonly TLexClause[],
  blocked: readonly (readonly boolean[])[],
  questions: ReadonlySet<number>,
): TAnswer | null {
  const answers = yesNoAnswers(step);
  if (answers === null) return null;
  const words = c.questionWords.get(step) ?? new Set<string>();
  // "no short cycling" repeats a fault's own words: the patterns have read it (negated), an echo
  // would read it as "no"
  const patterns = c.answers.get(step) ?? [];
  const faultWords = new Set(
    step.answers.flatMap((a, i) =>
      a.normal === true ? [] : (patterns[i] ?? []).flatMap((p) => (p.weak ? [] : p.tokens)),
    ),
  );
  let fault = false;
  let echoed = 0;
  let predicates = 0;
  let negative = false;
  clauses.forEach((clause, k) => {
    if (questions.has(k)) return;
    clause.tokens.forEach((t, i) => {
      if (blocked[k]?.[i] === true) return;
      if (words.has(t)) echoed++;
      if (words.has(t) && faultWords.has(t) && !c.partWords.has(t)) fault = true;
      // ("under the bed" repeats no "under 11.5 V" of the question)
      if (words.has(t) && !c.partWords.has(t) && !COMPARATOR_WORDS.has(t)) predicates++;
      if (
        VOCABULARY.negators.has(t) &&
        !(t === "no" && i === 0 && VOCABULARY.noContinuations.has(clause.tokens[1] ?? ""))
      )
        negative = true;
    });
  });
  // the echo must repeat what the question asks, not only the part it is about ("return filters
  // are caked" repeats "return filters" of "are the return filters clean?", not "clean")
  if (echoed < ECHO_MIN_WORDS || predicates === 0 || (negative && fault)) return null;
  return negative ? answers.no : answers.yes;
}
