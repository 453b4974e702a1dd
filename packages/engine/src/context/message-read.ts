// Reading a technician's message, clause by clause, before any step is matched: what it sets
// aside (non-answers, hedges, questions, announcements, a long paste's middle), the markers it
// carries (a correction, "I already told you", "skip") and which words a negation governs. Each
// reader looks at one concern of one clause; intent.ts matches answers on what they leave.

import { isNumber } from "@solserver/text";
import { MAX_MESSAGE_CHARS_READ } from "./limits";
import { indexOf, PhraseIndex } from "./phrases";
import { endsWithDuration } from "./readings";
import type { Speller } from "./spelling";
import type { TTopicKind } from "./state";
import { lex, type TLexClause, type TNonAnswerReason, VOCABULARY } from "./vocabulary";

/** The whole message is read, up to the API's message limit. */
export const MAX_ANALYSED_CHARS = MAX_MESSAGE_CHARS_READ;

/** Clauses beyond which a message is read as a paste with the technician's words around it. */
const LONG_MESSAGE_CLAUSES = 12;
const QUOTE_KEEP_START = 2;
const QUOTE_KEEP_END = 3;

/** The non-answer phrases of every language, indexed once (VOCABULARY.nonAnswers[i] is phrase i). */
export const NON_ANSWERS = new PhraseIndex(VOCABULARY.nonAnswers.map((n) => n.tokens));

/** Table order, for phrases that start at the same word and have the same length. */
const TOPIC_ORDER: readonly TTopicKind[] = ["locate", "howto", "explain"];

export type TRead = {
  clauses: TLexClause[];
  masks: { blocked: boolean[][]; weakBlocked: boolean[][]; negated: boolean[][]; negatesBefore: boolean[][] };
  /** Clause indexes that are questions (clarifications). */
  questions: Set<number>;
  topic: TTopicKind | null;
  topicClause: number;
  nonAnswer: TNonAnswerReason | null;
  /** Some segment was set aside as a non-answer or a hedge. */
  setAside: boolean;
  correction: boolean;
  /** The technician says an earlier measurement was wrong ("i misread", "measured wrong"). */
  remeasured: boolean;
  /** A correction points back ("wait, that was with the charger on"): its reading is of the last one read. */
  pointsBack: boolean;
  skip: boolean;
  /** A clause opens with "start over" / "restart this one". */
  restart: boolean;
  alreadyTold: boolean;
  /** Every clause announces a check ("let me check", "ok, ill measure it"), or only fills beside one. */
  announcement: boolean;
  /** Some clause announces a check ("gonna discharge it and check"). */
  announcing: boolean;
  /** A long paste: its middle clauses are quoted (read for answers, not for events). */
  quoted: ReadonlySet<number>;
  /** Some clause holds a number (a reading, a rating, a count). */
  numbered: boolean;
};

export function mark(mask: boolean[], start: number, length: number): void {
  for (let i = start; i < start + length; i++) mask[i] = true;
}

function markSegment(mask: boolean[], clause: TLexClause, at: number): void {
  const segment = clause.segments[at];
  clause.segments.forEach((s, i) => {
    if (s === segment) mask[i] = true;
  });
}

/** The topic a clause asks about, when it is a question; null when it is not one. */
export function questionTopic(clause: TLexClause): { topic: TTopicKind } | null {
  let best: { start: number; length: number; order: number; kind: TTopicKind } | null = null;
  TOPIC_ORDER.forEach((kind, order) => {
    for (const span of indexOf(VOCABULARY.clarification[kind]).in(clause.tokens)) {
      const better =
        best === null ||
        span.start < best.start ||
        (span.start === best.start &&
          (span.length > best.length || (span.length === best.length && order < best.order)));
      if (better) best = { start: span.start, length: span.length, order, kind };
    }
  });
  const found = best as { start: number; kind: TTopicKind } | null;
  if (found !== null && (clause.question || leadingAt(clause, found.start))) return { topic: found.kind };
  if (clause.question || relayedUpTo(clause) > 0) return { topic: "howto" };
  return null;
}

/**
 * Where a relayed question starts: after "he wants to know", "customer asking if" opening the
 * clause (only fillers and who asks before it); 0 when none opens it.
 */
function relayedUpTo(clause: TLexClause): number {
  const asker = (t: string) => VOCABULARY.fillers.has(t) || VOCABULARY.subjects.has(t) || VOCABULARY.caseWords.has(t);
  const span = indexOf(VOCABULARY.relayedQuestions)
    .in(clause.tokens)
    .find((s) => clause.tokens.slice(0, s.start).every(asker));
  return span === undefined ? 0 : span.start + span.length;
}

function leadingAt(clause: TLexClause, start: number): boolean {
  return clause.tokens.slice(relayedUpTo(clause), start).every((t) => VOCABULARY.fillers.has(t));
}

/** A clause that starts with a question word ("would it be covered") without "?": a question if it states nothing. */
export function opensWithQuestionWord(clause: TLexClause): boolean {
  return indexOf(VOCABULARY.questionWords)
    .in(clause.tokens)
    .some((s) => leadingAt(clause, s.start));
}

/** What the clause readers find across a message, in the order they find it. */
type TReadFound = Omit<TRead, "clauses" | "masks" | "announcement" | "announcing" | "quoted" | "numbered"> & {
  announced: Set<number>;
};

/** One clause as the readers see it: its set-aside masks, and whether it is in a quoted paste. */
type TClauseAt = { clause: TLexClause; k: number; quoted: boolean; b: boolean[]; w: boolean[] };

/** "no idea", "not sure", "todavía no": a non-answer or a hedge sets its segment aside. */
function readNonAnswers(r: TReadFound, { clause, quoted, b }: TClauseAt, content: ReadonlySet<string>): void {
  for (const span of NON_ANSWERS.in(clause.tokens)) {
    const entry = VOCABULARY.nonAnswers[span.phrase];
    const after = clause.tokens[span.start + span.length];
    const elliptical = entry !== undefined && VOCABULARY.elliptical.has(entry.tokens.join(" "));
    if (elliptical && after !== undefined && content.has(after)) continue; // "no se prende", "todavía no arranca": a statement, not "I don't know" / "not yet"
    // ("holding on cool now" is no "hold on")
    if (inflected(clause.words[span.start] ?? "", VOCABULARY.nonAnswerOpeners)) continue;
    if (!quoted) r.nonAnswer ??= entry?.reason ?? "unknown";
    markSegment(b, clause, span.start);
    r.setAside = true;
  }
  for (const span of indexOf(VOCABULARY.toolLacking).in(clause.tokens)) {
    const end = span.start + span.length;
    if (!clause.tokens.slice(end, end + 2).some((t) => VOCABULARY.tools.has(t))) continue;
    if (!quoted) r.nonAnswer ??= "no_tool";
    markSegment(b, clause, span.start);
    r.setAside = true;
  }
  for (const span of indexOf(VOCABULARY.hedges).in(clause.tokens)) {
    // "ran maybe 20 sec", "ran maybe a minute", "moves maybe a foot": an estimate, not a doubt
    const end = span.start + span.length;
    if (isNumber(clause.tokens[end] ?? "")) continue;
    const { minuteUnits, hourUnits } = VOCABULARY.labor;
    const estimate = (t: string) => minuteUnits.has(t) || hourUnits.has(t) || VOCABULARY.lengthUnits.has(t);
    if (clause.tokens.slice(end, end + 3).some(estimate)) continue;
    if (!quoted) r.nonAnswer ??= "unknown";
    markSegment(b, clause, span.start);
    r.setAside = true;
  }
}

/**
 * "ok waiting the 3 min": "waiting" folds to the marker "wait"; opening a clause that ends with a
 * duration it announces a wait (nothing checked yet), it corrects nothing (issue 36).
 */
function readWait(r: TReadFound, { clause, k, quoted, b }: TClauseAt): boolean {
  const waits =
    endsWithDuration(clause.tokens) &&
    indexOf(VOCABULARY.announcements)
      .in(clause.tokens)
      .some((span) => leadingAt(clause, span.start));
  if (waits && !quoted) {
    r.announced.add(k);
    b.fill(true);
  }
  return waits;
}

/** A phrase's opening word with an ending it does not have there ("holding" for "hold on"). */
function inflected(written: string, openers: ReadonlySet<string>): boolean {
  return (
    !openers.has(written) &&
    ["ing", "ed", "s"].some((ending) => written.endsWith(ending) && openers.has(written.slice(0, -ending.length)))
  );
}

/** "wait no, i misread", "I already told you", "skip" (only as what the clause says first). */
function readMarkers(r: TReadFound, { clause, k, quoted, b }: TClauseAt, waits: boolean): void {
  for (const span of indexOf(VOCABULARY.corrections).in(clause.tokens)) {
    if (waits) break;
    // ("breaker holding on", "waited the 3 min": another form of a marker's word is no marker)
    if (inflected(clause.words[span.start] ?? "", VOCABULARY.correctionOpeners)) continue;
    if (!quoted) r.correction = true;
    mark(b, span.start, span.length);
  }
  // "that was 10.9 not 12.9": a number put in place of another re-measures
  const numberForNumber = clause.tokens.some(
    (t, i) =>
      isNumber(t) && VOCABULARY.negators.has(clause.tokens[i + 1] ?? "") && isNumber(clause.tokens[i + 2] ?? ""),
  );
  if (numberForNumber && !waits && !quoted) {
    r.correction = true;
    r.remeasured = true;
  }
  // ("that 12,1 was with the inverter on": a back reference may quote the old value)
  const pointing = clause.tokens.filter((t) => !isNumber(t));
  if (r.correction && !waits && !quoted && indexOf(VOCABULARY.backReferences).in(pointing).length > 0)
    r.pointsBack = true;
  for (const span of indexOf(VOCABULARY.remeasured).in(clause.tokens)) {
    if (waits) break;
    if (!quoted) {
      r.correction = true;
      r.remeasured = true;
    }
    mark(b, span.start, span.length);
  }
  for (const span of indexOf(VOCABULARY.alreadyTold).in(clause.tokens)) {
    if (!quoted) r.alreadyTold = true;
    mark(b, span.start, span.length);
  }
  // "next to the tank" is no skip, "stops then restarts" no restart
  const opens = (span: { start: number }) =>
    !quoted && clause.tokens.slice(0, span.start).every((t, i) => VOCABULARY.fillers.has(t) || b[i] === true);
  for (const span of indexOf(VOCABULARY.skip).in(clause.tokens).filter(opens)) {
    r.skip = true;
    mark(b, span.start, span.length);
  }
  // "it burns a while, then starts again": after the message's first clause, "then" narrates
  const narrated = (span: { start: number }) =>
    k > 0 && clause.tokens.slice(0, span.start).some((t) => VOCABULARY.sequence.has(t));
  for (const span of indexOf(VOCABULARY.restart)
    .in(clause.tokens)
    .filter((span) => opens(span) && !narrated(span))) {
    r.restart = true;
    mark(b, span.start, span.length);
  }
}

/** "no code on the controller": a no-word before a noun is not the answer "no". */
function readNoWords({ clause, b, w }: TClauseAt): void {
  clause.tokens.forEach((token, i) => {
    const next = clause.tokens[i + 1];
    if (token === "no" && b[i] !== true && next !== undefined && !VOCABULARY.noContinuations.has(next)) w[i] = true;
  });
}

/** "ok so im at the panel now", "ok meter on the batteries": fillers that open a clause with more to say answer nothing. */
function readOpeningFillers({ clause, b, w }: TClauseAt): void {
  const rest = clause.tokens.findIndex((t, i) => !VOCABULARY.fillers.has(t) && b[i] !== true);
  for (let i = 0; i < rest; i++) w[i] = true;
}

/**
 * "ok ill check if the fuse is blown", "hang on, grabbing my meter": a clause that opens (after
 * fillers and markers set aside) with an announcement reports nothing (issue 36); "ok, can't find
 * it", "hmm ok": a clause of fillers only says nothing (a bare "ok" is not the answer "LP OK"), nor
 * one that only notes progress ("ok found it").
 */
function readAnnouncement(r: TReadFound, { clause, k, quoted, b }: TClauseAt, clauses: number): void {
  const opening = clause.tokens.findIndex(
    (t, i) => !VOCABULARY.fillers.has(t) && !VOCABULARY.subjects.has(t) && b[i] !== true,
  );
  const opensAnnouncement =
    opening >= 0 &&
    !quoted &&
    (VOCABULARY.announcingVerbs.has(clause.words[opening] ?? "") ||
      indexOf(VOCABULARY.announcements)
        .in(clause.tokens)
        // "waiting for the delay": the announcement may open on a filler ("wait") and cover the opening
        .some(
          (span) =>
            span.start === opening ||
            (span.start < opening &&
              opening < span.start + span.length &&
              clause.tokens.slice(0, span.start).every((t, i) => VOCABULARY.fillers.has(t) || b[i] === true)),
        ));
  // ("pressing in and out gives zero out": a gerund followed by what it gives reports a result)
  const announces =
    opensAnnouncement &&
    !indexOf(VOCABULARY.resultVerbs)
      .in(clause.tokens)
      .some((span) => span.start > opening);
  if (announces) {
    r.announced.add(k);
    b.fill(true);
  }
  const unfilled = clause.tokens.filter((t) => !VOCABULARY.fillers.has(t) && !VOCABULARY.subjects.has(t)).join(" ");
  if (unfilled === "" || VOCABULARY.progressNotes.has(unfilled)) {
    if (clauses > 1) r.announced.add(k);
    b.fill(true);
  }
}

/** A question clause: its topic (the first question's), and nothing in it is an answer. */
function readQuestion(r: TReadFound, { clause, k, b }: TClauseAt): void {
  const asked = questionTopic(clause);
  if (asked === null) return;
  r.questions.add(k);
  if (r.topic === null) {
    r.topic = asked.topic;
    r.topicClause = k;
  }
  b.fill(true);
}

/**
 * A negation governs the next few words of its segment ("nothing is blocking it"); a no-word that
 * opens the clause as an answer ("no, it's blown") negates nothing.
 */
function negationMasks(clauses: readonly TLexClause[], blocked: readonly boolean[][]): boolean[][] {
  return clauses.map((clause, k) => {
    // "the compressor tried to kick in": what is tried is not said to happen
    const tried = indexOf(VOCABULARY.attempts)
      .in(clause.tokens)
      .map((s) => s.start + s.length);
    return clause.tokens.map((_, i) => {
      if (tried.some((end) => i >= end && i < end + 2 && clause.segments[end] === clause.segments[i])) return true;
      for (let j = i - 1; j >= 0 && j >= i - 3; j--) {
        const t = clause.tokens[j] ?? "";
        if (clause.segments[j] !== clause.segments[i] || VOCABULARY.listWords.has(t)) return false;
        const answerNo = t === "no" && j === 0 && VOCABULARY.noContinuations.has(clause.tokens[1] ?? "");
        // a negator inside a set-aside phrase ("no wait", "no idea") negates nothing after it
        if (VOCABULARY.negators.has(t) && !answerNo && blocked[k]?.[j] !== true) return true;
      }
      return false;
    });
  });
}

/**
 * A negator right after the words it negates ("er bewegt sich keinen Millimeter", "geht nicht"):
 * German puts it after the verb. A bare no-word ("fuse good, no smoke") negates what follows it.
 */
function trailingNegators(clauses: readonly TLexClause[], blocked: readonly boolean[][]): boolean[][] {
  return clauses.map((clause, k) =>
    clause.tokens.map(
      (t, i) =>
        i > 0 &&
        t !== "no" &&
        VOCABULARY.negators.has(t) &&
        blocked[k]?.[i] !== true &&
        clause.segments[i - 1] === clause.segments[i],
    ),
  );
}

const LETTERS = /^\p{L}{3,}$/u;
const LETTER = /\p{L}/u;

/**
 * "the blow her comes on", "compress her": dictation splits a part's name before "-er"; the
 * message with those words joined again, where the catalog knows the whole.
 */
function rejoined(message: string, speller: Speller): string {
  const words = message.split(" ");
  const out: string[] = [];
  for (const [i, word] of words.entries()) {
    const head = out[out.length - 1];
    const lower = word.toLowerCase();
    const her = lower.startsWith("her") && !LETTER.test(lower.slice(3));
    if (i > 0 && her && head !== undefined && LETTERS.test(head) && speller.knows(`${head.toLowerCase()}er`))
      out[out.length - 1] = `${head}er${word.slice(3)}`;
    else out.push(word);
  }
  return out.join(" ");
}

/**
 * "fuze is good gonna put the meter on the pump connector": dictation leaves out the full stop;
 * an announcement after a statement begins a clause of its own.
 */
function atAnnouncementBreaks(clauses: readonly TLexClause[]): TLexClause[] {
  return clauses.flatMap((clause) => {
    const said = (start: number) =>
      clause.tokens.slice(0, start).some((t) => !VOCABULARY.fillers.has(t) && !VOCABULARY.subjects.has(t));
    const starts = [
      ...new Set(
        indexOf(VOCABULARY.announcementBreaks)
          .in(clause.tokens)
          .map((s) => s.start)
          .filter((start) => start > 0 && said(start)),
      ),
    ].sort((a, b) => a - b);
    if (starts.length === 0) return [clause];
    return [0, ...starts].map((from, i) => {
      const to = starts[i] ?? clause.tokens.length;
      const cut = <T>(xs: readonly T[]) => xs.slice(from, to);
      return {
        ...clause,
        tokens: cut(clause.tokens),
        words: cut(clause.words),
        segments: cut(clause.segments),
        question: to === clause.tokens.length && clause.question,
      };
    });
  });
}

/** The message as the readers see it, clause by clause: what it sets aside, asks, announces, corrects. */
export function read(message: string, content: ReadonlySet<string>, speller: Speller): TRead {
  const clauses = atAnnouncementBreaks(
    lex(rejoined(message.slice(0, MAX_ANALYSED_CHARS), speller), (w) => speller.correct(w)),
  );
  const blocked = clauses.map((c) => new Array<boolean>(c.tokens.length).fill(false));
  const weakBlocked = clauses.map((c) => new Array<boolean>(c.tokens.length).fill(false));
  // A pasted log or history: what the technician says is at its start and its end; the middle
  // is read for answers (the last one wins) but never for what the technician says about the
  // case (a non-answer, a correction, a repair, a rule, labor).
  const quoted = new Set<number>();
  if (clauses.length > LONG_MESSAGE_CLAUSES)
    for (let k = QUOTE_KEEP_START; k < clauses.length - QUOTE_KEEP_END; k++) quoted.add(k);
  const r: TReadFound = {
    questions: new Set(),
    topic: null,
    topicClause: -1,
    nonAnswer: null,
    setAside: false,
    correction: false,
    remeasured: false,
    pointsBack: false,
    skip: false,
    restart: false,
    alreadyTold: false,
    announced: new Set(),
  };
  clauses.forEach((clause, k) => {
    const at: TClauseAt = { clause, k, quoted: quoted.has(k), b: blocked[k] ?? [], w: weakBlocked[k] ?? [] };
    readNonAnswers(r, at, content);
    readMarkers(r, at, readWait(r, at));
    readNoWords(at);
    readOpeningFillers(at);
    readAnnouncement(r, at, clauses.length);
    readQuestion(r, at);
  });
  // "wait no, i misread, batt is 12.7": a remeasurement corrects a reading; a bare "no" beside it
  // answers nothing
  if (r.remeasured) for (const w of weakBlocked) w.fill(true);
  const { announced, ...found } = r;
  return {
    ...found,
    clauses,
    quoted,
    masks: {
      blocked,
      weakBlocked,
      negated: negationMasks(clauses, blocked),
      negatesBefore: trailingNegators(clauses, blocked),
    },
    announcement: announced.size === clauses.length && clauses.some((_, k) => announced.has(k)),
    announcing: announced.size > 0,
    numbered: clauses.some((clause) => clause.tokens.some(isNumber)),
  };
}
