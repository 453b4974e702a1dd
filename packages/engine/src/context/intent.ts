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
import { consentOf, grantsPermission } from "./consent";
import { echoAnswer, yesNoAnswers } from "./echo";
import {
  bypassSpans,
  bypassTested,
  clauseText,
  contrasted,
  itemAround,
  itemBounds,
  itemsOf,
  negatedIn,
  pastBypass,
  withoutConditions,
  withoutTimeClauses,
} from "./items";
import { withLearned } from "./learned-answers";
import { matchAnswers, POSITION_STRIDE, type TGroupMatch, type TMatchCandidate, type TNegatedHit } from "./match";
import { MAX_ANALYSED_CHARS, mark, opensWithQuestionWord, read, type TRead } from "./message-read";
import { indexOf } from "./phrases";
import { withReadings } from "./reading-steps";
import { acknowledges, laborIn, requestsReport, resolvedIn, retractedIn, rulesIn } from "./speech-acts";
import { isCommonWord } from "./spelling";
import { evidenceValue, type TContextState, type TIntent, type TTopicKind } from "./state";
import { phraseStarts } from "./text";
import { canonicalToken, PACK_WORDS, phrase, type TLexClause, type TNonAnswerReason, VOCABULARY } from "./vocabulary";

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
export type TMessage = {
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
export type TFound = {
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

/** Whether the step has a finding on record. */
function onRecord(state: TContextState, step: TStep): boolean {
  const finding = step.answers[0]?.finding;
  return finding !== undefined && evidenceValue(state.evidence, findingKey(finding)) !== undefined;
}

/** The answers that compete for the message's words: the active step's, and those of the steps it names. */
function candidatesOf(m: TMessage): TMatchCandidate[] {
  const { c, steps, activeStep } = m;
  // Another step's answers compete for the words only when the message names that step's part
  // (a finding is recorded only from an explicit statement about its component).
  // What the normal circuit showed stays: "pump is dead", then "jumpered it off the battery, it
  // runs" is no pump that runs (only a step the bypass itself names is its direct test).
  const bypass = m.r.clauses.map((clause) => bypassTested(c, clause));
  const keeps = (step: TStep) =>
    step !== activeStep && onRecord(m.state, step) && bypass.some((t) => t !== null && !t.has(step));
  const timeless = m.r.clauses.map(withoutTimeClauses);
  const named = new Set(
    steps.filter(
      (step) =>
        !keeps(step) &&
        m.r.clauses.some((whole, k) => {
          const clause = step === activeStep ? whole : (timeless[k] ?? whole);
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
  const position = match.last.get(winner) ?? 0;
  const atIndex = Math.floor(position / POSITION_STRIDE);
  // (the part may be named a clause earlier: "the pump does run, it only sputters")
  if (step.id !== m.about && !r.clauses.slice(0, atIndex + 1).some((clause) => namesPart(c, step, clause))) return null;
  // (unless it corrects a step done: "wait wrong fuse … the pump fuse is fine" at the fuse recheck)
  const corrects = r.correction && m.state.completed.includes(step.id);
  // (the part a bypass goes around is not what the clause is about; an item of a list is about
  // its own part: "lp good and tstat calls")
  const item = itemAround(r.clauses[atIndex], position % POSITION_STRIDE);
  const about = item === undefined ? undefined : pastBypass(item);
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
  if (activeStep === undefined) return [];
  return m.r.clauses.map((clause) => {
    // (the tokens of one item share its answer: its parts are looked up once)
    const byItem = new Map<string, boolean>();
    return clause.tokens.map((_, i) => {
      const { from, to } = itemBounds(clause, i);
      const key = `${from}:${to}`;
      let elsewhere = byItem.get(key);
      if (elsewhere === undefined) {
        const named = namedSteps(c, clause.tokens.slice(from, to + 1));
        elsewhere =
          !named.has(activeStep) &&
          // ("like i said the gas is fine, the stove lights": said again, a done step is the subject)
          [...named].some((step) => m.r.alreadyTold || !state.completed.includes(step.id));
        byItem.set(key, elsewhere);
      }
      return elsewhere;
    });
  });
}

const NOTHING_FOUND: TFound = { answer: null, weak: false, ambiguous: [], at: -1, stated: [], hitClauses: new Set() };

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
  // ("checked the pump fuse, it's good": "it" may open the next clause)
  let previous: Set<TStep> = new Set();
  // ("runs fine, good water" at the pressure switch: "fine" and "good" are how the pump runs, not
  // the switch)
  // (looked up only for an item that would give the asked step its normal answer)
  let otherSays: boolean | undefined;
  const saysOther = () =>
    (otherSays ??= r.clauses.some((clause) =>
      steps.some(
        (step) =>
          step !== activeStep &&
          (c.answers.get(step) ?? []).some((patterns) =>
            patterns.some((p) => !p.weak && phraseStarts(clause.tokens, p.tokens).length > 0),
          ),
      ),
    ));
  r.clauses.forEach((clause, k) => {
    if (r.questions.has(k) || r.quoted.has(k)) return;
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
      // ("the glass fuse for the pump looks perfect" at the fuse: of the parts an item names, the
      // one asked takes its generic words)
      const [step] = activeStep !== undefined && named.has(activeStep) ? [activeStep] : named;
      const sound = healthy
        .in(tokens)
        .some((span) => !negatedIn(tokens, span.start) && r.masks.weakBlocked[k]?.[span.start] !== true);
      if (named.size === 0 && sound && activeStep !== undefined && !found.hitClauses.has(k) && !saysOther())
        activeHealthy = activeStep.answers.find((a) => a.normal === true) ?? null;
      if ((named.size !== 1 && step !== activeStep) || step === undefined || found.stated.some((s) => s.step === step))
        continue;
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
  // (nor does a message that announces the check: "power's off at the pedestal, gonna discharge
  // it and check" repeats the capacitor question's conditions, not its result)
  if (m.r.skip || m.r.nonAnswer !== null || m.r.announcing) return found;
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

/** Words beside "as i said" that make a statement of their own. */
const MORE_THAN_POINTING = 3;

/** "I already told you" and nothing more; "as i said, no air from the vents" says more. */
function pointsBackOnly(own: readonly TLexClause[]): boolean {
  const said = own.reduce((n, clause) => n + clause.tokens.filter((t) => !VOCABULARY.fillers.has(t)).length, 0);
  const pointing = own.reduce(
    (n, clause) =>
      n +
      indexOf(VOCABULARY.alreadyTold)
        .in(clause.tokens)
        .reduce((k, span) => k + span.length, 0),
    0,
  );
  return pointing > 0 && said - pointing < MORE_THAN_POINTING;
}

/** Whether a message may state an answer the rules missed: it does nothing else (`busy`: a report request or a hazard). */
function openToAnswer({ c, r }: TMessage, own: readonly TLexClause[], busy: boolean): boolean {
  const elsewhere = r.announcement || r.nonAnswer !== null || r.skip || r.restart || pointsBackOnly(own);
  return !elsewhere && r.questions.size === 0 && !busy && !offTopic(c, own);
}

/**
 * A generic word in talk about something else answers nothing ("a good taco place"), nor in a
 * message that only asks ("do you know a good place to eat").
 */
function talksElsewhere({ c }: TMessage, found: TFound, own: readonly TLexClause[]): boolean {
  if (found.stated.length > 0 || (found.answer !== null && !found.weak)) return false;
  return offTopic(c, own) || (found.answer !== null && own.length > 0 && own.every(opensWithQuestionWord));
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
  const own = r.clauses.filter((_, k) => !r.quoted.has(k));
  const stopped = (system.safety_rules ?? []).find((rule) => rule.id === state.safety?.rule);
  const rules = rulesIn(c, r.clauses, r.quoted, setAside.rules, stopped, message);
  // ("ok give me the report", "START FINAL REPORT": a report request with nothing beside it states
  // nothing, whatever words of the catalog it holds)
  const reportOnly = requestsReport(r.clauses, own);
  // (an option sent as is and the complaint are read by the rules alone)
  const found = reportOnly
    ? NOTHING_FOUND
    : option !== null || options.complaint === true
      ? foundOf(m, option)
      : withLearned(m, foundOf(m, option), message, openToAnswer(m, own, rules.safety !== null));
  const mentions = mentionsOf(state, found.stated);
  const { done, fresh, restated } = mentions;
  // "like I said the pump runs fine" repeats what was said: in words, it never changes a finding
  // on record (a reading of it that disagrees is the misreading), though it may fill a step still
  // open; a measurement quoted again ("like i said 104 at the outlet") still counts.
  const repeated = r.alreadyTold && !r.correction && !r.numbered;
  const contradictions = repeated ? [] : mentions.contradictions;
  // An answer given only in generic words is dropped when the message restates a completed step
  // ("yes, the fuse is fine" at the voltage step is about the fuse, not a "yes" to the voltage),
  // or says it cannot answer ("no, he doesnt have any meter": the "no" is the non-answer's).
  const weighed = found.weak && (done.length > 0 || (r.nonAnswer !== null && !r.correction)) ? null : found.answer;
  const { questions, topic, topicClause } = questionsOf(r, found.hitClauses);
  const consent = consentOf(message);
  const elsewhere = option === null && talksElsewhere(m, found, own);
  // ("yes go ahead" mid-diagnosis grants permission; it answers no step)
  const permission = option === null && found.weak && consent === "yes" && grantsPermission(m);
  const answer = elsewhere || permission ? null : keptAnswer(m, weighed, option, own, consent, found.at);
  const hasEvidence = answer !== null || found.stated.length > 0 || found.ambiguous.length > 0;
  const nonAnswer = hasEvidence ? null : r.nonAnswer;
  const skip = r.skip && !hasEvidence;
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
    resolved: !r.announcement && resolvedIn(c, activeStep, own),
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
