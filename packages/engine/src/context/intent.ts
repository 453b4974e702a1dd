// How the context engine reads a technician's message: deterministic tables (the language packs,
// vocabulary.ts) and the catalog's patterns, word-boundary matching on normalised text, no
// regular expression from data, linear in the message for a given catalog.
//
// The message is cut into clauses (text.ts) and, inside a clause, into segments at "but". Before
// anything is matched, the reader sets words aside:
//   • non-answers ("no idea", "no multimeter", "haven't checked yet", "can't reach it") and
//     hedges ("maybe", "not sure if"): their whole segment states nothing
//   • correction markers ("no wait", "actually"), "already told you", skip phrases
//   • a no-word followed by a noun ("no tester here") is not the answer "no"
// Question clauses (ending in "?", or starting with a question word or a LOCATE / HOWTO / EXPLAIN
// phrase) are clarifications, never evidence. The rest is EVIDENCE, matched against the active
// step's answers (every pattern, and its numeric readings) and the other steps' (specific
// patterns only: "yes" can answer the step being asked, never another one).
//
// What the message does besides answering (a hazard, a repair, labor, a retraction, ...) is read
// in speech-acts.ts. The engine (engine.ts) decides what the findings mean in the current mode;
// this file only says what the message contains.

import { compile, namedSpans, namedSteps, namesOwnPart, namesPart, type TCompiled } from "./catalog-index";
import {
  findingKey,
  findingValue,
  type TAnswer,
  type TEvidenceRule,
  type TSafetyRule,
  type TStep,
  type TSystem,
} from "./catalog-schema";
import { matchAnswers, POSITION_STRIDE, type TGroupMatch, type TMatchCandidate, type TNegatedHit } from "./match";
import {
  MAX_ANALYSED_CHARS,
  mark,
  NON_ANSWERS,
  opensWithQuestionWord,
  questionTopic,
  read,
  type TRead,
} from "./message-read";
import { indexOf } from "./phrases";
import { readingAnswer, readingsOf, type TReading, withPair } from "./readings";
import { acknowledges, laborIn, requestsReport, resolvedIn, retractedIn, rulesIn } from "./speech-acts";
import { isCommonWord } from "./spelling";
import { evidenceValue, recordsFinding, type TContextState, type TIntent, type TTopicKind } from "./state";
import { phraseStarts } from "./text";
import {
  canonicalToken,
  lex,
  PACK_WORDS,
  phrase,
  type TLexClause,
  type TNonAnswerReason,
  type TPhrase,
  VOCABULARY,
} from "./vocabulary";

/** An answer stated for a step other than the active one. */
export type TMention = { step: TStep; index: number; answer: TAnswer };

/** What kind of authorization reply a message is (see `consentOf`). */
export type TConsent = "yes" | "no" | "deferral" | "conditional" | "cost" | "question" | null;

export type TClassification = {
  /**
   * What the message mainly is, before the mode decides what it means: a contradiction of a
   * completed step (with a correction marker, or without an answer to the active step) is
   * NEW_EVIDENCE, then ANSWER, a question (LOCATE / EXPLAIN / HOWTO), SKIP, NON_ANSWER, other
   * stated findings (NEW_EVIDENCE), else UNCLEAR.
   */
  intent: TIntent;
  /** The message only asks about something outside the diagnosis ("what's the weather tomorrow?"). */
  offTopic: boolean;
  /** The clarification topic, when the message asks one, and the step whose part it names. */
  topic: TTopicKind | null;
  topicStep: TStep | null;
  /** The active step's answer. */
  answer: TAnswer | null;
  /** Answer ids tied for the active step (the reply is then unclear). */
  ambiguous: string[];
  /** Completed steps now stated with a different answer, in completion order. */
  contradictions: TMention[];
  /** Whether the message says it corrects something (correction markers). */
  correction: boolean;
  /** Steps not completed yet (other than the active one) stated with an answer. */
  fresh: TMention[];
  /** Completed steps stated again with the answer on record. */
  restated: TMention[];
  /** The message states nothing because it says the answer is not known (and why). */
  nonAnswer: TNonAnswerReason | null;
  /** "skip", "move on". */
  skip: boolean;
  /** A safety rule the message triggers (not negated: "no gas smell" triggers nothing). */
  safety: TSafetyRule | null;
  /** The message clears the safety rule the case is stopped for. */
  safetyClear: boolean;
  /** Free-form evidence a rule recognises, with the clause it was found in. */
  evidence: { rule: TEvidenceRule; text: string } | null;
  /** "fixed it", "replaced the switch, works now". */
  resolved: boolean;
  alreadyTold: boolean;
  /** Completed steps the technician says were never really checked ("I never checked the fuse"). */
  retracted: TStep[];
  /** A labor statement: minutes, set as the total or added. */
  labor: { minutes: number; mode: "set" | "add" } | null;
  /** The message only acknowledges ("thanks", "ok", "got it"). */
  acknowledgement: boolean;
  /** The message announces a check ("ok let me check", "gonna pull the fuse"): it reports nothing. */
  announcement: boolean;
  /** The message only asks for the report ("START FINAL REPORT"): a command, never a note or a finding. */
  reportRequest: boolean;
  /** "start over, wrong coach": a fresh diagnosis of the same complaint; it states no finding. */
  restart: boolean;
  /** As an answer to the authorization request. */
  consent: TConsent;
  /** Some clause is a question. */
  question: boolean;
  /** Evidence clauses left after the reader set words aside (a note for the report). */
  evidenceText: string;
};

/**
 * Whether a conjunction ("but") or a word of sequence ("then", "after") stands between two
 * positions of one clause, or the first position's clause turns at "but" after it, or a word of
 * sequence opens the way to the second in a later clause: the second statement is the outcome.
 */
function contrasted(clauses: readonly TLexClause[], from: number, to: number): boolean {
  const k = Math.floor(from / POSITION_STRIDE);
  const clause = clauses[k];
  if (clause === undefined) return false;
  const a = from % POSITION_STRIDE;
  const b = to % POSITION_STRIDE;
  // "it runs and water comes out but it wont shut off, keeps cycling": a clause that turns at
  // "but" after the first statement hands on to what follows it, in the clauses after too;
  // "motor runs, room moves then stalls", "Sieb ist sauber, aber zieht Luft": so does "then" or
  // "but" in a later clause, before the later statement
  const kt = Math.floor(to / POSITION_STRIDE);
  const turns = (t: string) => VOCABULARY.sequence.has(t) || VOCABULARY.conjunctions.has(t);
  if (kt > k)
    return (
      clause.segments.slice(a + 1).some((s) => s !== clause.segments[a]) ||
      clauses
        .slice(k + 1, kt + 1)
        .some((later, j) => (k + 1 + j === kt ? later.tokens.slice(0, b) : later.tokens).some(turns))
    );
  if (k !== Math.floor(to / POSITION_STRIDE)) return false;
  return (
    clause.segments[a] !== clause.segments[b] || clause.tokens.slice(a + 1, b).some((t) => VOCABULARY.sequence.has(t))
  );
}

/**
 * What an echo of the step's question means: said plainly, the step's normal answer (or its
 * "yes"); negated, its "no". Null when the step has no such pair.
 */
function yesNoAnswers(step: TStep): { yes: TAnswer; no: TAnswer } | null {
  const holds = (a: TAnswer, word: string) => a.patterns.some((p) => phrase(p).join(" ") === word);
  // only a step with a normal answer: where "yes" is the fault ("does the fuse still blow?") an
  // echo of the question says nothing about which answer is meant
  const yes = step.answers.find((a) => a.normal === true);
  const no = step.answers.find((a) => holds(a, "no"));
  return yes !== undefined && no !== undefined && yes !== no ? { yes, no } : null;
}

const COMPARATOR_WORDS: ReadonlySet<string> = new Set(
  [...VOCABULARY.comparators.below, ...VOCABULARY.comparators.above].flat(),
);

/** Content words of the step's question that a reply may echo (not generic, not function words). */
const ECHO_MIN_WORDS = 2;
function echoAnswer(
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

/** Where the item (between list words and conjunctions) that holds token `at` starts and ends. */
function itemBounds(clause: TLexClause, at: number): { from: number; to: number } {
  const cut = (i: number) =>
    VOCABULARY.listWords.has(clause.tokens[i] ?? "") || clause.segments[i] !== clause.segments[at];
  let from = at;
  while (from > 0 && !cut(from - 1)) from--;
  let to = at;
  while (to + 1 < clause.tokens.length && !cut(to + 1)) to++;
  return { from, to };
}

/** The item (between list words and conjunctions) of a clause that holds token `at`. */
function itemAround(clause: TLexClause | undefined, at: number): TLexClause | undefined {
  if (clause === undefined) return undefined;
  const { from, to } = itemBounds(clause, at);
  return {
    ...clause,
    tokens: clause.tokens.slice(from, to + 1),
    words: clause.words.slice(from, to + 1),
    segments: clause.segments.slice(from, to + 1),
  };
}

/** The item without the conditions a reading was taken under ("12.5 with the switch on at the pump" is at the pump). */
function withoutConditions(item: TLexClause | undefined): TLexClause | undefined {
  if (item === undefined) return undefined;
  const tokens = [...item.tokens];
  for (const span of indexOf(VOCABULARY.conditions).in(item.tokens))
    tokens.fill("", span.start, span.start + span.length);
  return { ...item, tokens };
}

/** Whether a negator precedes `start` within a few words of `tokens` ("no good", "not working"). */
function negatedIn(tokens: readonly string[], start: number): boolean {
  for (let i = start - 1; i >= 0 && i >= start - 3; i--) {
    if (VOCABULARY.listWords.has(tokens[i] ?? "") || VOCABULARY.conjunctions.has(tokens[i] ?? "")) return false;
    if (VOCABULARY.negators.has(tokens[i] ?? "")) return true;
  }
  return false;
}

function clauseText(clause: TLexClause | undefined): string {
  return clause?.tokens.join(" ") ?? "";
}

// ---- consent ------------------------------------------------------------------------------------

/**
 * A message as an answer to "do you authorize the repair?". Only a plain yes is "yes": every word
 * is an approval phrase or a polite or repair word ("yes please, replace it"), no question, no
 * condition. A condition ("yes if it's under warranty"), a cost question, a deferral ("ok, I need
 * to ask the customer first") or any other question is not consent; a plain decline is "no".
 */
export function consentOf(message: string): TConsent {
  const clauses = lex(message.slice(0, MAX_ANALYSED_CHARS));
  const tokens = clauses.flatMap((c) => c.tokens);
  if (tokens.length === 0) return null;
  const has = (table: readonly TPhrase[]) => clauses.some((c) => indexOf(table).in(c.tokens).length > 0);
  const question = clauses.some((c) => c.question || questionTopic(c) !== null || opensWithQuestionWord(c));
  if (has(VOCABULARY.consent.conditional)) return "conditional";
  const deferral = has(VOCABULARY.consent.deferral) || NON_ANSWERS.all(clauses).length > 0;
  // Polite and repair words may come with a plain yes or no; "yes" and "no" themselves never count as extra.
  const extra = new Set(
    [...VOCABULARY.consent.plainExtra, ...VOCABULARY.fillers].filter((t) => t !== "yes" && t !== "no"),
  );
  const only = (table: readonly TPhrase[]) => clauses.every((c) => indexOf(table).covers(c.tokens, extra));
  const plain = !question && !deferral;
  // "not approved" holds "approved": a yes counts only when nothing negates it
  const yes = clauses.some((c) =>
    indexOf(VOCABULARY.consent.yes)
      .in(c.tokens)
      .some((span) => !negatedIn(c.tokens, span.start)),
  );
  if (plain && yes && only(VOCABULARY.consent.yes) && !has(VOCABULARY.consent.no)) return "yes";
  // A decline may say why ("customer declined, they'll swap it themselves"); a bare "no" with more
  // words ("no, it does not run") is not one, and a yes may never say more.
  const declines = clauses.some((c) =>
    indexOf(VOCABULARY.consent.no)
      .in(c.tokens)
      .some((span) => VOCABULARY.consent.no[span.phrase]?.join(" ") !== "no"),
  );
  if (plain && !yes && (declines || (has(VOCABULARY.consent.no) && only(VOCABULARY.consent.no)))) return "no";
  if (has(VOCABULARY.consent.cost)) return "cost";
  if (deferral) return "deferral";
  if (question) return "question";
  return null;
}

/** Approval phrases beyond a bare yes ("go ahead", "approved", "do it"): permission, not a finding. */
const APPROVALS = VOCABULARY.consent.yes.filter((p) => !(p.length === 1 && (p[0] === "yes" || p[0] === "sure")));

/** Whether the message grants permission in words the step asked does not take ("yes go ahead"). */
function grantsPermission(m: TMessage): boolean {
  const taken = new Set(
    (m.activeStep === undefined ? [] : (m.c.answers.get(m.activeStep) ?? [])).flat().map((p) => p.tokens.join(" ")),
  );
  return indexOf(APPROVALS)
    .all(m.r.clauses)
    .some((span) => !taken.has(APPROVALS[span.phrase]?.join(" ") ?? ""));
}

/** Whether a message is a plain yes to the authorization request (what authorizes a repair). */
export function isPlainYes(message: string): boolean {
  return consentOf(message) === "yes";
}

// ---- the classification ---------------------------------------------------------------------------

const ACTIVE_GROUP = -1;

/** The finding stated for a step before its branch was established (applied when the step comes up). */
export function notedFinding(state: TContextState, stepId: string): string | null {
  if (state.completed.includes(stepId) || !Object.hasOwn(state.pending_findings, stepId)) return null;
  return state.pending_findings[stepId] ?? null;
}

/** The active answer whose offered label the message repeats word for word, if exactly one. */
function chosenOption(answers: readonly TAnswer[], labels: readonly string[], message: string): TAnswer | null {
  const said = phrase(message.slice(0, MAX_ANALYSED_CHARS)).join(" ");
  const chosen = answers.filter((answer, i) =>
    [answer.label ?? answer.id, labels[i] ?? ""].some((l) => l !== "" && phrase(l).join(" ") === said),
  );
  return chosen.length === 1 ? (chosen[0] ?? null) : null;
}

export type TClassifyOptions = {
  /** The complaint: the system's symptom phrases ("pump won't run") describe it, they are not findings. */
  complaint?: boolean;
  /** The active step's labels as offered in the technician's language (option buttons send them). */
  labels?: readonly string[];
  /** During authorization: the step the diagnosis concludes from (its answers are read without its part named). */
  about?: string;
};

/** One message under classification: what the readers below share. */
type TMessage = {
  c: TCompiled;
  state: TContextState;
  steps: readonly TStep[];
  /** The message as read, with the words that answer no step set aside (`setAsideFor`). */
  r: TRead;
  activeStep: TStep | undefined;
  /** The step the diagnosis concludes from, during authorization (TClassifyOptions.about). */
  about: string | undefined;
};

/** The answers a message states, as each reader below leaves them for the next. */
type TFound = {
  /** The active step's answer. */
  answer: TAnswer | null;
  /** The answer rests on generic words only: a reading replaces it, a restated step drops it. */
  weak: boolean;
  /** Answer ids tied for the active step. */
  ambiguous: string[];
  /** Where the answer was said (clause × POSITION_STRIDE + token); -1 when nowhere in particular. */
  at: number;
  /** Other steps stated with an answer. */
  stated: TMention[];
  /** Clauses that state an answer or a reading: they are no question. */
  hitClauses: Set<number>;
};

/** Words that answer no step: the complaint's symptoms; for the answers (not the rules), a hazard's too. */
function setAsideFor(c: TCompiled, r: TRead, complaint: boolean): { rules: boolean[][]; answers: boolean[][] } {
  const rules = r.masks.blocked.map((mask) => [...mask]);
  // the complaint: the system's symptom phrases ("pump won't run") describe it, they are not findings
  if (complaint) for (const span of c.symptoms.all(r.clauses)) mark(rules[span.clause] ?? [], span.start, span.length);
  // Words of a hazard or of rule evidence are no answer to a step, said or denied: "no gas smell"
  // is not the LP check's "no gas". (The rules themselves read the message as it was set aside before.)
  const answers = rules.map((mask) => [...mask]);
  r.clauses.forEach((clause, k) => {
    for (const { index } of [...c.safety, ...c.evidence])
      for (const span of index.index.in(clause.tokens)) {
        let from = span.start;
        for (let i = span.start - 1; i >= 0 && i >= span.start - 3; i--)
          if (VOCABULARY.negators.has(clause.tokens[i] ?? "")) from = i;
        mark(answers[k] ?? [], from, span.start + span.length - from);
      }
  });
  return { rules, answers };
}

/** Bypass wording in a clause, but not a reading that wanders ("10.2-10.6 jumping around") nor a bypass valve. */
function bypassSpans(clause: TLexClause) {
  const notBypass = indexOf(VOCABULARY.notBypass).in(clause.tokens);
  return indexOf(VOCABULARY.bypass)
    .in(clause.tokens)
    .filter((span) => !notBypass.some((u) => u.start <= span.start && span.start < u.start + u.length));
}

/**
 * "with a good lead the motor runs fine on direct 12v": a clause with bypass wording is about the
 * step whose parts the bypass names (the direct test), not another step naming the same motor;
 * null when the clause has no bypass wording.
 */
function bypassTested(c: TCompiled, clause: TLexClause): Set<TStep> | null {
  const spans = bypassSpans(clause);
  if (spans.length === 0) return null;
  return new Set(
    spans.flatMap((span) => [...namedSteps(c, clause.tokens.slice(span.start, span.start + span.length))]),
  );
}

/** The clause without the items that hold bypass wording: what the bypass reaches, not what it bypasses. */
function pastBypass(clause: TLexClause): TLexClause {
  const tokens = [...clause.tokens];
  for (const span of bypassSpans(clause)) {
    const { from, to } = itemBounds(clause, span.start);
    tokens.fill("", from, to + 1);
  }
  return { ...clause, tokens };
}

/** The answers that compete for the message's words: the active step's, and those of the steps it names. */
function candidatesOf(m: TMessage): TMatchCandidate[] {
  const { c, steps, activeStep } = m;
  // Another step's answers compete for the words only when the message names that step's part
  // (a finding is recorded only from an explicit statement about its component).
  const named = new Set(
    steps.filter((step) =>
      m.r.clauses.some((clause) => {
        // "jumped the pump straight off the battery, it runs": no step but the direct test's
        const tested = bypassTested(c, clause);
        // (a part shared with the step asked is about that step, unless the message corrects)
        const names = m.r.correction ? namesPart(c, step, clause) : namesOwnPart(c, step, clause, activeStep);
        // (bypass words that name no step test what lies past the bypassed part: "jumped R to G at
        // the stat plug and the blower comes on" names the blower past it, "jumped the pump off
        // the battery" names only the part bypassed)
        if (tested?.size === 0) return step !== activeStep && namesPart(c, step, pastBypass(clause));
        return names && (tested === null || tested.has(step));
      }),
    ),
  );
  // A message that reports a bypass of another step's part ("runs fine when I apply 12V directly",
  // asked whether it runs from the switch) answers that step's direct test, not this one; a clause
  // that names no part goes on about the bypass ("jumpered the motor off the battery, spins fine").
  const bypassing = (clause: TLexClause) => {
    const tested = bypassTested(c, clause);
    return tested !== null && tested.size > 0 && activeStep !== undefined && !tested.has(activeStep);
  };
  const bypassed =
    m.r.clauses.some(bypassing) &&
    m.r.clauses.every((clause) => bypassing(clause) || namedSteps(c, clause.tokens).size === 0);
  const candidates: TMatchCandidate[] = [];
  steps.forEach((step, index) => {
    const patterns = c.answers.get(step) ?? [];
    const active = step === activeStep;
    if (active && bypassed) return;
    if (!active && !named.has(step) && step.id !== m.about) return;
    step.answers.forEach((_, a) => {
      candidates.push({
        group: active ? ACTIVE_GROUP : index,
        answer: a,
        priority: active ? 0 : 1 + index,
        patterns: (patterns[a] ?? []).filter((p) => active || !p.weak),
      });
    });
  });
  return candidates;
}

/** A denied normal answer ("the blower never pushes any air") is the asked step's "no" when nothing else answers it. */
function withNegatedNormal(
  matches: readonly TGroupMatch[],
  negatedHits: readonly TNegatedHit[],
  step: TStep | undefined,
): TGroupMatch[] {
  const all = [...matches];
  for (const hit of negatedHits) {
    if (hit.group !== ACTIVE_GROUP) continue; // only for the step asked: elsewhere it says too little
    if (step === undefined || step.answers[hit.answer]?.normal !== true || all.some((m) => m.group === hit.group))
      continue;
    const no = yesNoAnswers(step)?.no;
    const a = no === undefined ? -1 : step.answers.indexOf(no);
    if (a >= 0)
      all.push({
        group: hit.group,
        answers: [a],
        score: 1,
        weak: true,
        last: new Map([[a, hit.clause * POSITION_STRIDE]]),
      });
  }
  return all;
}

/** The answer a step's match states: the only one, or the last said when the message changes its mind. */
function winnerOf(match: TGroupMatch, r: TRead): number | undefined {
  // A self-correction ("blown, no wait it's fine"), a paste, or a contrast ("it runs but barely
  // moves any water"): the last statement wins.
  const [last, before] = [...match.last.entries()].sort((a, b) => b[1] - a[1]);
  if (
    last !== undefined &&
    before !== undefined &&
    (r.correction || r.quoted.size > 0 || contrasted(r.clauses, before[1], last[1]))
  )
    return last[0];
  return match.answers.length === 1 ? match.answers[0] : undefined;
}

/** Another step's answer, when the message states it about that step's part (not in words about something else). */
function mentionOf(
  m: TMessage,
  match: TGroupMatch,
  winner: number | undefined,
  answer: TAnswer | null,
): TMention | null {
  const { c, r, activeStep } = m;
  const step = m.steps[match.group];
  if (winner === undefined || step === undefined) return null;
  const mentioned = step.answers[winner];
  if (mentioned === undefined) return null;
  // Words about another step count only as an explicit statement about its part: "fuse is
  // blown" names the fuse; "it moves a foot" (the motor stalling) is no manual-override test,
  // "pump plug" no clogged strainer, a "trip" no tripped breaker.
  // …and when the clause names the active step's part too, it is about the active step
  // ("stove lights, steady blue flame" answers the LP check, not the igniter's).
  const atIndex = Math.floor((match.last.get(winner) ?? 0) / POSITION_STRIDE);
  // (the part may be named a clause earlier: "the pump does run, it only sputters")
  if (step.id !== m.about && !r.clauses.slice(0, atIndex + 1).some((clause) => namesPart(c, step, clause))) return null;
  // (unless it corrects a step done: "wait wrong fuse … the pump fuse is fine" at the fuse recheck)
  const corrects = r.correction && m.state.completed.includes(step.id);
  // (the part a bypass goes around is not what the clause is about)
  const clause = r.clauses[atIndex];
  const about = clause === undefined ? undefined : pastBypass(clause);
  if (activeStep !== undefined && namesPart(c, activeStep, about) && answer === null && !corrects) return null;
  return { step, index: match.group, answer: mentioned };
}

/**
 * Per clause and token: whether its item names the part of a step not done yet and not the asked
 * step's ("compressor kicks on" at the fan). A step done is context for the one asked ("pump keeps
 * going" at the pressure switch, "the new fuse blows" at the short check), unless the technician
 * says it again ("like i said").
 */
function elsewhereMask(m: TMessage): boolean[][] {
  const { c, activeStep, state } = m;
  return m.r.clauses.map((clause) =>
    clause.tokens.map((_, i) => {
      const named = namedSteps(c, itemAround(clause, i)?.tokens ?? []);
      return (
        activeStep !== undefined &&
        !named.has(activeStep) &&
        // ("like i said the gas is fine, the stove lights": said again, a done step is the subject)
        [...named].some((step) => m.r.alreadyTold || !state.completed.includes(step.id))
      );
    }),
  );
}

/** What the catalog's patterns find: the active step's answer (or the answers tied for it), and other steps'. */
function matchedAnswers(m: TMessage): TFound {
  const found: TFound = { answer: null, weak: false, ambiguous: [], at: -1, stated: [], hitClauses: new Set() };
  const activeAnswers = m.activeStep?.answers ?? [];
  const negatedHits: TNegatedHit[] = [];
  const elsewhere = elsewhereMask(m);
  const matches = matchAnswers(m.r.clauses, candidatesOf(m), { ...m.r.masks, elsewhere }, negatedHits);
  // the step asked (ACTIVE_GROUP) first: whether it is answered decides what other steps may take
  for (const match of withNegatedNormal(matches, negatedHits, m.activeStep).sort((x, y) => x.group - y.group)) {
    for (const position of match.last.values()) found.hitClauses.add(Math.floor(position / POSITION_STRIDE));
    const winner = winnerOf(match, m.r);
    if (match.group !== ACTIVE_GROUP) {
      const mention = mentionOf(m, match, winner, found.answer);
      if (mention !== null) found.stated.push(mention);
    } else if (winner !== undefined) {
      const at = match.last.get(winner) ?? -1;
      // (generic words in an item about another part answer nothing here: "like i said nothing
      // at the pump plug" at the switch step)
      if (match.weak && elsewhere[Math.floor(at / POSITION_STRIDE)]?.[at % POSITION_STRIDE] === true) continue;
      found.answer = activeAnswers[winner] ?? null;
      found.at = at;
      // ("fuse fine": a generic word in an item that names the part asked about is its answer)
      const clause = m.r.clauses[Math.floor(found.at / POSITION_STRIDE)];
      const named =
        m.activeStep !== undefined && namesPart(m.c, m.activeStep, itemAround(clause, found.at % POSITION_STRIDE));
      found.weak = match.weak && match.answers.length === 1 && !named;
    } else {
      found.ambiguous = match.answers.map((a) => activeAnswers[a]?.id ?? "");
      found.weak = false;
    }
  }
  return found;
}

/** The step other than the active one a reading is of, if one is meant beyond doubt. */
function readingStep(m: TMessage, reading: TReading, item: TLexClause | undefined): TStep | undefined {
  const { c, steps, activeStep, state } = m;
  // Another step takes a reading when the clause names its part ("12.4 at the pump plug",
  // "batteries at 12.8"), or, with a unit, when it is the system's only step in that unit.
  const readers = steps.filter(
    (s) => s !== activeStep && s.readings !== undefined && (reading.unit === null || s.readings.unit === reading.unit),
  );
  const named = readers.filter((s) => namesPart(c, s, item));
  // (of several steps in that unit, the ones that apply now: the switch output is read only
  // once the pump connector had no voltage)
  const applies = (s: TStep) => s.requires === undefined || recordsFinding(state.evidence, s.requires.finding);
  const inUnit = reading.unit === null ? [] : steps.filter((s) => s.readings?.unit === reading.unit && applies(s));
  if (named.length > 1) return nearestNamed(c, named, item, reading.start);
  return named.length === 1 ? named[0] : inUnit.length === 1 ? inUnit[0] : undefined;
}

/**
 * Of several steps the item names, the one whose part stands nearest the number ("12.6 at the
 * pump with the switch on" is the pump's voltage); none when two stand as near.
 */
function nearestNamed(
  c: TCompiled,
  named: readonly TStep[],
  item: TLexClause | undefined,
  at: number,
): TStep | undefined {
  if (item === undefined) return undefined;
  const distances = namedSpans(c, item.tokens)
    .filter((span) => named.includes(span.step))
    .map((span) => ({ step: span.step, distance: Math.abs(span.start - at) }))
    .sort((a, b) => a.distance - b.distance);
  const [first, second] = distances;
  return first !== undefined && (second === undefined || second.distance > first.distance) ? first.step : undefined;
}

/**
 * The completed step last read in the reading's unit, unless the item names another step read in
 * that unit ("had the probe on the wrong pin, pump is getting 12.5" corrects the pump voltage).
 */
function lastReadStep(m: TMessage, reading: TReading, item: TLexClause | undefined): TStep | undefined {
  const { c, steps, state, activeStep } = m;
  for (const id of [...state.completed].reverse()) {
    const step = steps.find((s) => s.id === id);
    if (step === undefined || step === activeStep || step.readings === undefined) continue;
    if (reading.unit !== null && step.readings.unit !== reading.unit) continue;
    const unit = step.readings.unit;
    const other = steps.some((s) => s !== step && s.readings?.unit === unit && namesPart(c, s, item));
    return other && !namesPart(c, step, item) ? undefined : step;
  }
  return undefined;
}

/**
 * The completed step a corrected reading is of: the one the message names ("hold up, that batt
 * reading was with the charger on. charger off its 12.0"), else after a remeasurement the last
 * one read in the reading's unit.
 */
function correctedStep(m: TMessage, reading: TReading, item: TLexClause | undefined): TStep | undefined {
  const { c, r, steps, state, activeStep } = m;
  if (!r.correction || (activeStep !== undefined && namesPart(c, activeStep, item))) return undefined;
  const named = steps.filter(
    (s) =>
      s !== activeStep &&
      state.completed.includes(s.id) &&
      s.readings !== undefined &&
      (reading.unit === null || s.readings.unit === reading.unit) &&
      r.clauses.some((clause) => namesPart(c, s, clause)),
  );
  if (named.length === 1) return named[0];
  // "no wait that was the fan side, the herm side reads 31 on a 45": a reading against a rating
  // corrects the step read against one
  const rated = steps.filter(
    (s) => s !== activeStep && state.completed.includes(s.id) && s.readings?.of_rating === true,
  );
  if (reading.rating !== null && rated.length === 1) return rated[0];
  return r.remeasured ? lastReadStep(m, reading, item) : undefined;
}

/** Meter readings answer a step by its ranges, not by its patterns. */
function withReadings(m: TMessage, before: TFound): TFound {
  const { c, r, steps, activeStep } = m;
  const found: TFound = { ...before, stated: [...before.stated], hitClauses: new Set(before.hitClauses) };
  const saidNow = new Set<TStep>();
  // Readings: the active step takes a number in its unit or with no unit; another step only
  // one with its unit, when no other step of the system reads that unit.
  for (const reading of withPair(activeStep, readingsOf(r.clauses, r.masks.blocked, c.names), r.clauses)) {
    // "motor direct 12v off batt runs strong": the supply a bypass names is not a measurement
    const clause = r.clauses[reading.clause];
    if (
      clause !== undefined &&
      bypassSpans(clause).some((s) => reading.start >= s.start && reading.start < s.start + s.length)
    )
      continue;
    const position = reading.clause * POSITION_STRIDE + reading.start;
    found.hitClauses.add(reading.clause);
    // a reading the item says is of another step's part ("12 volts at the pump" while the switch
    // is asked) is that step's, not the step asked
    const item = withoutConditions(itemAround(r.clauses[reading.clause], reading.start));
    const elsewhere =
      activeStep !== undefined &&
      !namesPart(c, activeStep, item) &&
      steps.some((s) => s !== activeStep && s.readings !== undefined && namesPart(c, s, item));
    // "actually i measured wrong, its 11.3 under load": a remeasurement that names no part
    // corrects the last step read in that unit, not the step asked (issue 36)
    const corrected = elsewhere && !r.correction ? undefined : correctedStep(m, reading, item);
    if (corrected !== undefined) {
      const answer = readingAnswer(corrected, reading);
      // (of the readings of a correction the one said now stands, not the old one put elsewhere:
      // "119 was at the pedestal, at the ac its 104", "its 10.9, the 12.2 was at the battery")
      const now = !(item?.tokens.some((t) => VOCABULARY.pastMarkers.has(t)) ?? false);
      if (answer !== null && (now || !saidNow.has(corrected))) {
        if (now) saidNow.add(corrected);
        found.stated = found.stated.filter((s) => s.step !== corrected);
        found.stated.push({ step: corrected, index: steps.indexOf(corrected), answer });
      }
      continue;
    }
    const own = activeStep === undefined || elsewhere ? null : readingAnswer(activeStep, reading);
    if (own !== null) {
      if (found.answer === null || found.weak || position > found.at || !r.correction) {
        const conflict = found.answer !== null && found.answer !== own && !r.correction && found.at >= 0 && !found.weak;
        // "breaker is on, only 98 at the unit", "12 in but nothing out": of a reading and words
        // that disagree, the one that finds a fault says more than the one that finds none
        const fault =
          conflict && Boolean(found.answer?.normal) !== Boolean(own.normal) ? (own.normal ? found.answer : own) : null;
        // (two faults: the words name the cause, the reading only measures it: "return 80 supply
        // 71, filters full of dog hair" is the dirty filter)
        if (conflict && found.answer?.normal !== true && own.normal !== true) continue;
        if (conflict && fault === null && found.answer !== null) {
          found.ambiguous = [found.answer.id, own.id];
          found.answer = null;
        } else if (fault === null || fault === own) {
          found.answer = own;
          found.at = position;
          found.weak = false;
          found.ambiguous = [];
        }
      }
      continue;
    }
    const step = readingStep(m, reading, item);
    if (step === undefined || step === activeStep || found.stated.some((s) => s.step === step)) continue;
    const stepAnswer = readingAnswer(step, reading);
    if (stepAnswer !== null) found.stated.push({ step, index: steps.indexOf(step), answer: stepAnswer });
  }
  return found;
}

/** A clause's items ("fuse is good and 12 V at the pump"), each as the clause's tokens with the rest blanked. */
function itemsOf(clause: TLexClause, blocked: readonly boolean[] | undefined): string[][] {
  let item = 0;
  const items = clause.tokens.map((t, i) =>
    VOCABULARY.listWords.has(t) || (i > 0 && clause.segments[i] !== clause.segments[i - 1]) ? ++item : item,
  );
  return [...new Set(items)].map((segment) =>
    clause.tokens.map((t, i) => (items[i] === segment && blocked?.[i] !== true ? t : "")),
  );
}

/** Another step's answer in an item that names its part: by all its patterns, or "good" for its normal one. */
function itemAnswer(
  c: TCompiled,
  step: TStep,
  index: number,
  tokens: string[],
  sound: boolean,
  negated: readonly boolean[] | undefined,
): TAnswer | undefined {
  const patterns = c.answers.get(step) ?? [];
  const own = step.answers.map(
    (_, a): TMatchCandidate => ({ group: index, answer: a, priority: 0, patterns: patterns[a] ?? [] }),
  );
  // (the clause's negations hold in its items: "the compressor tried to come on")
  const masks = { blocked: [[]], weakBlocked: [[]], negated: [negated ?? []] };
  const [match] = matchAnswers([{ tokens, question: false }], own, masks);
  if (match === undefined) return sound ? step.answers.find((a) => a.normal === true) : undefined;
  return match.answers.length === 1 ? step.answers[match.answers[0] ?? -1] : undefined;
}

/** Generic words ("its good") count for the step whose part their item names; patterns give other steps none. */
function withItems(m: TMessage, before: TFound): TFound {
  const { c, r, steps, activeStep } = m;
  const found: TFound = { ...before, stated: [...before.stated], hitClauses: new Set(before.hitClauses) };
  const saidNow = new Set<TStep>();
  // Items: segments cut again at list words ("fuse is good and 12 V at the pump"). In an item,
  // generic words count for another step when the item names that step's part (and no other
  // step's): "checked the fuse, its good". "Good", "fine", "checks out" (not negated) are the
  // normal answer of the step whose part is named, or of the active step when no part is.
  const healthy = indexOf(VOCABULARY.healthy);
  let activeHealthy: TAnswer | null = null;
  // "fan doesnt run, no air at the vents": the words that answered the step asked ("no air") are
  // no answer of another step whose part the item also names (the vents are only where)
  const answeredBy =
    activeStep === undefined || found.answer === null
      ? []
      : (c.answers.get(activeStep)?.[activeStep.answers.indexOf(found.answer)] ?? []).filter((p) => !p.weak);
  const unanswered = (tokens: string[]): string[] => {
    const out = [...tokens];
    for (const p of answeredBy)
      for (const start of phraseStarts(out, p.tokens)) out.fill("", start, start + p.tokens.length);
    return out;
  };
  r.clauses.forEach((clause, k) => {
    if (r.questions.has(k) || r.quoted.has(k)) return;
    let previous: Set<TStep> = new Set();
    for (const tokens of itemsOf(clause, r.masks.blocked[k]).map(unanswered)) {
      // ("nothing at the pump plug with the switch on": the switch is how it was measured)
      let named = namedSteps(c, withoutConditions({ ...clause, tokens })?.tokens ?? tokens);
      // "looked at the fuse and its fine": "it" is the part of the item before
      const first = tokens.find((t) => t !== "" && !VOCABULARY.listWords.has(t)) ?? "";
      if (named.size === 0 && VOCABULARY.pronouns.has(first)) named = previous;
      // (an item of a clause with bypass wording is about the step the bypass names: see bypassTested)
      const tested = bypassTested(c, clause);
      if (tested !== null && named.size > 0) named = new Set([...tested].filter((s) => namesPart(c, s, clause)));
      previous = named;
      const [step] = named;
      const sound = healthy.in(tokens).some((span) => !negatedIn(tokens, span.start));
      if (named.size === 0 && sound && activeStep !== undefined && !found.hitClauses.has(k))
        activeHealthy = activeStep.answers.find((a) => a.normal === true) ?? null;
      if (named.size !== 1 || step === undefined || found.stated.some((s) => s.step === step)) continue;
      // "no wait wrong fuse, the pump one is fine": a clause that names the asked step's part is about it
      if (step !== activeStep && activeStep !== undefined && namesPart(c, activeStep, clause)) continue;
      if (step === activeStep) {
        if (found.answer === null && found.ambiguous.length === 0 && sound)
          activeHealthy = step.answers.find((a) => a.normal === true) ?? null;
        continue;
      }
      const index = steps.indexOf(step);
      const answer = itemAnswer(c, step, index, tokens, sound, r.masks.negated?.[k]);
      if (answer !== undefined) {
        found.stated.push({ step, index, answer });
        found.hitClauses.add(k);
      }
    }
  });
  if (found.answer === null && found.ambiguous.length === 0 && activeHealthy !== null) {
    found.answer = activeHealthy;
    found.weak = true;
  }
  return found;
}

/** A reply may answer a yes / no question by repeating it, when nothing else answers it. */
function withEcho(m: TMessage, found: TFound): TFound {
  if (found.answer !== null || found.ambiguous.length > 0 || m.activeStep === undefined) return found;
  // ("cant get the probes in there to check the switch output, skip" echoes the question to
  // say why it is not answered)
  if (m.r.skip || m.r.nonAnswer !== null) return found;
  // An echo of a yes / no question ("lit a stove burner, steady blue flame"; "zero output from
  // the switch"): its words, said plainly, are the answer "yes"; negated, the answer "no".
  const echo = echoAnswer(m.c, m.activeStep, m.r.clauses, m.r.masks.blocked, m.r.questions);
  return echo === null ? found : { ...found, answer: echo, weak: true };
}

/** What the message states for the steps: an option sent as is, else what each reader finds after the one before. */
function foundOf(m: TMessage, option: TAnswer | null): TFound {
  if (option !== null) return { answer: option, weak: false, ambiguous: [], at: -1, stated: [], hitClauses: new Set() };
  return withEcho(m, withItems(m, withReadings(m, matchedAnswers(m))));
}

/** The steps stated, against the record: a completed step contradicted or restated, another one fresh. */
function mentionsOf(state: TContextState, stated: readonly TMention[]) {
  const completedAt = (id: string) => state.completed.indexOf(id);
  const recorded = (finding: string) => evidenceValue(state.evidence, findingKey(finding));
  const done = stated.filter((m) => completedAt(m.step.id) >= 0);
  const contradictions = done
    .filter((m) => recorded(m.answer.finding) !== findingValue(m.answer.finding))
    .sort((a, b) => completedAt(a.step.id) - completedAt(b.step.id));
  // A branch step counts only when its branch holds (recorded, or stated in this same message).
  // (a step whose branch is not established yet is kept by the engine until it comes up)
  const fresh = stated
    .filter((m) => completedAt(m.step.id) < 0 && notedFinding(state, m.step.id) !== m.answer.finding)
    .sort((a, b) => a.index - b.index);
  // Completed steps stated again with what is on record ("the fuse is fine", again).
  const restated = done.filter((m) => recorded(m.answer.finding) === findingValue(m.answer.finding));
  return { done, contradictions, fresh, restated };
}

/** The question clauses: also those opening with a question word that state no answer (known only now). */
function questionsOf(r: TRead, hitClauses: ReadonlySet<number>) {
  const questions = new Set(r.questions);
  let topic = r.topic;
  let topicClause = r.topicClause;
  // A clause that starts with a question word and states nothing is a question too.
  r.clauses.forEach((clause, k) => {
    if (questions.has(k) || hitClauses.has(k) || !opensWithQuestionWord(clause)) return;
    questions.add(k);
    if (topic === null) {
      topic = "howto";
      topicClause = k;
    }
  });
  return { questions, topic, topicClause };
}

/**
 * A message about something else ("what's the weather tomorrow?", "anyone know a good taco
 * place"): a common English word that neither the system's text nor the language packs hold (a
 * slip such as "fuze" is no such word), and none of the system's part or answer words beyond
 * the words any message may hold ("good").
 */
function offTopic(c: TCompiled, clauses: readonly TLexClause[]): boolean {
  // (one word alone, "banana", is noise: the loop guard's business)
  if (clauses.reduce((n, clause) => n + clause.words.length, 0) < 2) return false;
  const foreign = clauses.some((clause) =>
    clause.words.some((w) => w.length >= 4 && isCommonWord(w) && !c.words.has(canonicalToken(w)) && !PACK_WORDS.has(w)),
  );
  const about = clauses.some((clause) =>
    clause.tokens.some(
      (t, i) => t.length >= 4 && !PACK_WORDS.has(clause.words[i] ?? "") && (c.partWords.has(t) || c.content.has(t)),
    ),
  );
  return foreign && !about;
}

/** The step a question is about when it names another step's part than the active step's. */
function topicStepOf(m: TMessage, topicClause: number): TStep | null {
  const { c, state, activeStep } = m;
  // Of the parts named, the diagnosis' own (the step asked, or one done) before others, then the
  // first named: "why the pump and not the wiring?" is about the pump the diagnosis found.
  const asked = m.r.clauses[topicClause];
  const named = asked === undefined ? [] : namedSpans(c, asked.tokens);
  const onPath = (step: TStep) => step === activeStep || state.completed.includes(step.id);
  named.sort((a, b) => Number(onPath(b.step)) - Number(onPath(a.step)) || a.start - b.start);
  const [first] = named;
  return first !== undefined && first.step !== activeStep && !named.some((n) => n.step === activeStep)
    ? first.step
    : null;
}

/** The active step's answer, unless the rest of the message says it is no finding (an option sent always stands). */
function keptAnswer(
  m: TMessage,
  answer: TAnswer | null,
  option: TAnswer | null,
  own: readonly TLexClause[],
  consent: TConsent,
  at: number,
): TAnswer | null {
  const { c, r, activeStep } = m;
  if (answer === null || option !== null) return answer;
  // "jumped it straight to 12v, motor runs fine" at the switch step: power that bypasses the
  // part asked tests what is past it, never the part itself (issue 36); only a message that names
  // the asked step's own part answers it, and not in the clause that bypasses it ("jumped across
  // the pump switch, the pump takes off").
  // (an echo of the question has no position: any clause may be the one)
  const answering = at < 0 ? r.clauses : r.clauses.slice(Math.floor(at / POSITION_STRIDE)).slice(0, 1);
  const bypassed =
    activeStep !== undefined &&
    own.some((clause) => bypassSpans(clause).length > 0) &&
    (!r.clauses.some((clause) => namesPart(c, activeStep, clause)) ||
      answering.some((clause) => {
        const tested = bypassTested(c, clause);
        return tested !== null && !tested.has(activeStep) && namesPart(c, activeStep, clause);
      }));
  // "yes if it's under warranty", "yes, how much?": a short yes with a condition or a price
  // question is consent talk, never a finding of the step asked (issue 36).
  const consentTalk = r.clauses.length <= 2 && (consent === "conditional" || consent === "cost");
  return bypassed || consentTalk ? null : answer;
}

/** What the message mainly is: the first that holds, in the order TClassification.intent gives. */
function intentOf(
  read: Pick<TClassification, "contradictions" | "correction" | "answer" | "topic" | "skip" | "nonAnswer" | "fresh">,
): TIntent {
  if (read.contradictions.length > 0 && (read.correction || read.answer === null)) return "NEW_EVIDENCE";
  if (read.answer !== null) return "ANSWER";
  if (read.topic !== null) return read.topic === "locate" ? "LOCATE" : read.topic === "howto" ? "HOWTO" : "EXPLAIN";
  if (read.skip) return "SKIP";
  if (read.nonAnswer !== null) return "NON_ANSWER";
  if (read.fresh.length > 0) return "NEW_EVIDENCE";
  return "UNCLEAR";
}

/**
 * The complaint read as the answer to the step asked, when it names that step's part ("the pump
 * won't run at all" at "does the pump run?"): what "I already told you" points back to. A
 * complaint about the system alone ("water pump won't run") answers no step.
 */
export function answerInComplaint(system: TSystem, state: TContextState, complaint: string): TAnswer | null {
  const step = system.procedure.steps.find((s) => s.id === state.active_step);
  if (step === undefined) return null;
  const c = compile(system);
  const { clauses } = read(complaint, c.content, c.speller);
  return clauses.some((clause) => namesPart(c, step, clause)) ? classifyMessage(system, state, complaint).answer : null;
}

/** Reads one technician message against the state (see the header). `system` carries every language's patterns. */
export function classifyMessage(
  system: TSystem,
  state: TContextState,
  message: string,
  options: TClassifyOptions = {},
): TClassification {
  const c = compile(system);
  const asRead = read(message, c.content, c.speller);
  const setAside = setAsideFor(c, asRead, options.complaint === true);
  const r: TRead = { ...asRead, masks: { ...asRead.masks, blocked: setAside.answers } };
  const steps = system.procedure.steps;
  const activeStep = state.mode === "diagnostic" ? steps.find((s) => s.id === state.active_step) : undefined;
  const m: TMessage = { c, state, steps, r, activeStep, about: options.about };
  const option = chosenOption(activeStep?.answers ?? [], options.labels ?? [], message);
  const found = foundOf(m, option);
  const { done, contradictions, fresh, restated } = mentionsOf(state, found.stated);
  // An answer given only in generic words is dropped when the message restates a completed step
  // ("yes, the fuse is fine" at the voltage step is about the fuse, not a "yes" to the voltage).
  const weighed = found.weak && done.length > 0 ? null : found.answer;
  const { questions, topic, topicClause } = questionsOf(r, found.hitClauses);
  const own = r.clauses.filter((_, k) => !r.quoted.has(k));
  const consent = consentOf(message);
  // (a generic word in talk about something else answers nothing: "a good taco place")
  const elsewhere =
    option === null && found.stated.length === 0 && (found.answer === null || found.weak) && offTopic(c, own);
  // ("ok give me the report": the "ok" beside a report request answers nothing)
  const reportOnly = requestsReport(r.clauses, own);
  // ("yes go ahead" mid-diagnosis grants permission; it answers no step)
  const permission = option === null && found.weak && consent === "yes" && grantsPermission(m);
  const answer =
    elsewhere || permission || (reportOnly && found.weak)
      ? null
      : keptAnswer(m, weighed, option, own, consent, found.at);
  const hasEvidence = answer !== null || found.stated.length > 0 || found.ambiguous.length > 0;
  const nonAnswer = hasEvidence ? null : r.nonAnswer;
  const skip = r.skip && !hasEvidence;
  const stopped = (system.safety_rules ?? []).find((rule) => rule.id === state.safety?.rule);
  const rules = rulesIn(c, r.clauses, r.quoted, setAside.rules, stopped, message);
  return {
    intent: intentOf({ contradictions, correction: r.correction, answer, topic, skip, nonAnswer, fresh }),
    topic,
    offTopic: elsewhere,
    topicStep: topic === null ? null : topicStepOf(m, topicClause),
    answer,
    ambiguous: found.ambiguous,
    contradictions,
    correction: r.correction,
    fresh,
    restated,
    nonAnswer,
    skip,
    safety: rules.safety,
    safetyClear: rules.safetyClear,
    evidence: rules.evidence,
    // "resetting it now" announces the repair; it has not worked yet
    resolved: !r.announcement && resolvedIn(c, activeStep, own, weighed !== null),
    alreadyTold: r.alreadyTold && answer === null,
    retracted: retractedIn(c, own, state.completed),
    labor: laborIn(own),
    acknowledgement: acknowledges(r.clauses),
    announcement: r.announcement && !hasEvidence,
    reportRequest: reportOnly && !hasEvidence,
    restart: r.restart && !hasEvidence,
    consent,
    question: questions.size > 0,
    evidenceText: r.clauses
      .filter((_, k) => !questions.has(k))
      .map((clause) => clauseText(clause))
      .join(", "),
  };
}
