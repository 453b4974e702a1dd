// Intent detection for the context engine: deterministic tables, word-boundary matching on
// normalised text, no regular expression from data, linear in the message for a given catalog.
//
// A message is cut into clauses (text.ts). A clause is a CLARIFICATION when it holds a phrase of
// the LOCATE / HOWTO / EXPLAIN tables and either ends with "?" or starts with that phrase (after
// filler words such as "ok", "so", "wait"). The other clauses are EVIDENCE: they are matched
// against the answers of the active step (every pattern) and of the procedure's other steps
// (specific patterns only: a pattern made only of generic words like "yes" or "not working" can
// answer the step being asked, never another one).
//
// Priority, first match wins:
//   0. ANSWER: the message is one of the active step's offered options, word for word (its label,
//      as the dashboard's option buttons send it)
//   1. NEW_EVIDENCE contradicting a completed step's finding, when the message carries a
//      correction marker ("actually", "wait", …) or does not answer the active step → replan
//   2. ANSWER: an evidence clause states exactly one answer of the active step
//   3. LOCATE / EXPLAIN / HOWTO: the first clarification clause
//   4. NEW_EVIDENCE about a step not asked yet                                    → noted
//   5. UNCLEAR
// So "how do I check if the pump runs?" is HOWTO (the question clause is not evidence), and
// "it runs, no idea why" is an ANSWER ("why" neither starts the clause nor ends a question).
// An answer given only in generic words is dropped when the message restates a completed step
// ("yes, the fuse is fine" at the voltage step is about the fuse, not a "yes" to the voltage).

import { findingKey, findingValue, type TAnswer, type TStep, type TSystem } from "./catalog-schema";
import { matchAnswers, type TMatchCandidate } from "./match";
import { evidenceValue, type TContextState, type TIntent, type TTopicKind } from "./state";
import { containsPhrase, normalisePhrase, phraseStarts, type TClause, toClauses, toTokens } from "./text";

/** Clarification phrases, by topic. Written as a technician types them; normalised like messages. */
export const CLARIFICATION_PHRASES: Readonly<Record<TTopicKind, readonly string[]>> = {
  locate: [
    "where is",
    "where's",
    "where are",
    "where do i find",
    "where can i find",
    "where would",
    "where should i look",
    "where",
    "can't find",
    "i can't find",
    "we can't find",
    "cannot find",
    "don't know where",
    "not sure where",
    "can not find",
    "location of",
    "how do i find",
    "how do i get to",
    "locate",
  ],
  howto: [
    "how",
    "how do i",
    "how to",
    "how can i",
    "how should i",
    "how should i check",
    "how would i",
    "how do you",
    "walk me through",
    "what tool",
    "which tool",
    "what setting",
  ],
  explain: [
    "why",
    "what does",
    "what do",
    "what is",
    "what's",
    "what are",
    "what for",
    "purpose of",
    "explain",
    "what happens if",
  ],
};
/** Table order, for phrases that start at the same word and have the same length. */
const TOPIC_ORDER: readonly TTopicKind[] = ["locate", "howto", "explain"];

/** Words that may precede a clarification phrase at the start of a clause. */
export const LEADING_FILLERS: ReadonlySet<string> = new Set(
  [
    "ok",
    "okay",
    "so",
    "and",
    "but",
    "um",
    "uh",
    "hmm",
    "hey",
    "also",
    "sorry",
    "wait",
    "well",
    "oh",
    "then",
    "quick",
    "question",
    "alright",
  ].map((w) => toTokens(w).join(" ")),
);

/** Only the start of a long message (a pasted log, say) is analysed: bounded work per turn. */
export const MAX_ANALYSED_CHARS = 4000;

/** Words that mark a message as correcting something said earlier. */
export const CORRECTION_MARKERS: readonly string[] = [
  "actually",
  "wait",
  "sorry",
  "correction",
  "i was wrong",
  "my mistake",
  "my bad",
  "i meant",
  "turns out",
  "scratch that",
  "rechecked",
  "re-checked",
  "double checked",
  "double-checked",
  "looked again",
  "checked again",
  "after all",
];

/** Words that say nothing about which step they answer; a pattern made only of these is generic. */
export const GENERIC_ANSWER_WORDS: ReadonlySet<string> = new Set([
  "yes",
  "y",
  "yeah",
  "yep",
  "yup",
  "sure",
  "no",
  "n",
  "nope",
  "nah",
  "ok",
  "okay",
  "fine",
  "good",
  "bad",
  "correct",
  "right",
  "wrong",
  "not",
  "none",
  "nothing",
  "normal",
  "works",
  "working",
  "work",
  "worked",
  "it",
  "its",
  "is",
  "does",
  "do",
  "did",
  "dont",
  "doesnt",
  "isnt",
  "the",
  "a",
  "an",
]);

/** The authorization request's answers, as pseudo-answers of a step. */
export const AUTHORIZATION_ANSWERS: readonly TAnswer[] = [
  {
    id: "yes",
    label: "Yes, proceed with the repair",
    finding: "authorization=yes",
    patterns: [
      "yes",
      "y",
      "yeah",
      "yep",
      "yup",
      "sure",
      "ok",
      "okay",
      "go ahead",
      "approved",
      "approve",
      "authorized",
      "authorize",
      "proceed",
      "do it",
      "go for it",
    ],
  },
  {
    id: "no",
    label: "No, do not repair",
    finding: "authorization=no",
    patterns: [
      "no",
      "n",
      "nope",
      "nah",
      "not approved",
      "not authorized",
      "dont proceed",
      "do not proceed",
      "dont do it",
      "do not do it",
      "decline",
      "declined",
      "hold off",
      "not yet",
      "not now",
    ],
  },
];

/** An answer stated for a step other than the active one. */
export type TMention = { step: TStep; index: number; answer: TAnswer };

export type TClassification = {
  intent: TIntent;
  /** The clarification topic, when the message asks one. */
  topic: TTopicKind | null;
  /** The active step's answer (in authorization mode: yes / no). */
  answer: TAnswer | null;
  /** Answer ids tied for the active step (the reply is then UNCLEAR). */
  ambiguous: string[];
  /** Completed steps now stated with a different answer, in completion order. */
  contradictions: TMention[];
  /** Whether the message says it corrects something (CORRECTION_MARKERS). */
  correction: boolean;
  /** Steps not completed yet (other than the active one) stated with an answer: to be noted. */
  fresh: TMention[];
};

function pattern(text: string) {
  const tokens = toTokens(text);
  return { tokens, weak: tokens.every((token) => GENERIC_ANSWER_WORDS.has(token)) };
}

function clarificationOf(clause: TClause): TTopicKind | null {
  let best: { start: number; length: number; order: number; kind: TTopicKind } | null = null;
  TOPIC_ORDER.forEach((kind, order) => {
    for (const phrase of CLARIFICATION_PHRASES[kind]) {
      const tokens = toTokens(phrase);
      const start = phraseStarts(clause.tokens, tokens)[0];
      if (start === undefined) continue;
      const better =
        best === null ||
        start < best.start ||
        (start === best.start &&
          (tokens.length > best.length || (tokens.length === best.length && order < best.order)));
      if (better) best = { start, length: tokens.length, order, kind };
    }
  });
  if (best === null) return null;
  const { start, kind } = best;
  return clause.question || clause.tokens.slice(0, start).every((t) => LEADING_FILLERS.has(t)) ? kind : null;
}

function answerCandidates(group: number, answers: readonly TAnswer[], priority: number, specificOnly: boolean) {
  return answers.map(
    (answer, a): TMatchCandidate => ({
      group,
      answer: a,
      priority,
      patterns: answer.patterns.map(pattern).filter((p) => !(specificOnly && p.weak)),
    }),
  );
}

const ACTIVE_GROUP = -1;

/** The last finding noted for a step that is not completed (what the technician mentioned early). */
export function notedFinding(state: TContextState, stepId: string): string | null {
  if (state.completed.includes(stepId)) return null;
  for (let i = state.evidence_log.length - 1; i >= 0; i--) {
    const entry = state.evidence_log[i];
    if (entry?.step === stepId) return entry.finding;
  }
  return null;
}

/** The active answer whose offered label the message repeats word for word, if exactly one. */
function chosenOption(answers: readonly TAnswer[], message: string): TAnswer | null {
  const said = normalisePhrase(message.slice(0, MAX_ANALYSED_CHARS));
  const chosen = answers.filter((answer) => normalisePhrase(answer.label ?? answer.id) === said);
  return chosen.length === 1 ? (chosen[0] ?? null) : null;
}

/** Classifies one technician message against the state (see the priority table above). */
export function classifyMessage(system: TSystem, state: TContextState, message: string): TClassification {
  const steps = system.procedure.steps;
  const clauses = toClauses(message.slice(0, MAX_ANALYSED_CHARS));
  let topic: TTopicKind | null = null;
  const evidenceClauses: TClause[] = [];
  for (const clause of clauses) {
    const kind = clarificationOf(clause);
    if (kind === null) evidenceClauses.push(clause);
    else topic ??= kind;
  }
  const correction = CORRECTION_MARKERS.some((marker) => containsPhrase(clauses, toTokens(marker)));

  const activeAnswers: readonly TAnswer[] =
    state.mode === "authorization"
      ? AUTHORIZATION_ANSWERS
      : state.mode === "diagnostic"
        ? (steps.find((s) => s.id === state.active_step)?.answers ?? [])
        : [];
  const option = chosenOption(activeAnswers, message);
  if (option !== null)
    return { intent: "ANSWER", topic: null, answer: option, ambiguous: [], contradictions: [], correction, fresh: [] };
  const candidates = answerCandidates(ACTIVE_GROUP, activeAnswers, 0, false);
  steps.forEach((step, index) => {
    if (step.id !== state.active_step) candidates.push(...answerCandidates(index, step.answers, 1 + index, true));
  });

  let answer: TAnswer | null = null;
  let weakAnswer = false;
  let ambiguous: string[] = [];
  const stated: TMention[] = [];
  for (const match of matchAnswers(evidenceClauses, candidates)) {
    const winner = match.answers.length === 1 ? match.answers[0] : undefined;
    if (match.group === ACTIVE_GROUP) {
      if (winner !== undefined) answer = activeAnswers[winner] ?? null;
      else ambiguous = match.answers.map((a) => activeAnswers[a]?.id ?? "");
      weakAnswer = match.weak;
      continue;
    }
    const step = steps[match.group];
    const mentioned = winner === undefined ? undefined : step?.answers[winner];
    if (step !== undefined && mentioned !== undefined) stated.push({ step, index: match.group, answer: mentioned });
  }

  const completedAt = (id: string) => state.completed.indexOf(id);
  const recorded = (finding: string) => evidenceValue(state.evidence, findingKey(finding));
  const statedFindings = new Set(stated.map((m) => m.answer.finding));
  const holds = (finding: string) => statedFindings.has(finding) || recorded(finding) === findingValue(finding);
  const done = stated.filter((m) => completedAt(m.step.id) >= 0);
  const contradictions = done
    .filter((m) => recorded(m.answer.finding) !== findingValue(m.answer.finding))
    .sort((a, b) => completedAt(a.step.id) - completedAt(b.step.id));
  // A branch step counts only when its branch holds (recorded, or stated in this same message).
  const fresh = stated.filter(
    (m) =>
      completedAt(m.step.id) < 0 &&
      (m.step.requires === undefined || holds(m.step.requires.finding)) &&
      notedFinding(state, m.step.id) !== m.answer.finding,
  );
  if (weakAnswer && done.length > 0) answer = null;

  let intent: TIntent = "UNCLEAR";
  if (contradictions.length > 0 && (correction || answer === null)) intent = "NEW_EVIDENCE";
  else if (answer !== null) intent = "ANSWER";
  else if (topic !== null) intent = topic === "locate" ? "LOCATE" : topic === "howto" ? "HOWTO" : "EXPLAIN";
  else if (fresh.length > 0) intent = "NEW_EVIDENCE";
  return { intent, topic, answer, ambiguous, contradictions, correction, fresh };
}
