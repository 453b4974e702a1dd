// What an answer states, sentence by sentence, and which of its statements a claim map leaves
// uncovered (issue 17, "strict means complete"; docs/routing.md#what-counts-as-a-statement).
// Pure and deterministic. The answer is untrusted text: everything here is a single left-to-right
// pass over characters or tokens (no regular expression runs over the text, only per-character
// class tests), and phrase lookups walk tries of bounded depth, so the cost is linear in the
// answer's length.
//
// 1. Sentences. assistant_text is cut at line breaks and after a run of sentence-ending marks
//    (. ! ? … and the full-width, Arabic, Greek and other forms) that is followed by whitespace or
//    the end (closing quotes and brackets after the mark stay with the sentence; after "。", "！"
//    or "？" no space is needed). A "." does not end a sentence after an initialism ("e.g.",
//    "i.e.", "U.S.", "a.m."), a listed abbreviation ("Dr.", "approx.", "No. 5", "etc." before a
//    lower-case word), a single letter that is not a unit after a number ("J. Smith", but "30 A."
//    ends one) or a list number opening the sentence ("1. Check …"). "30 A", "12 V", "3.5",
//    "v1.2" and URLs hold no boundary at all (no mark is followed by a space inside them). A piece
//    without any letter or digit (a line of dashes, an emoji alone) is no sentence. Sentences are
//    numbered from 0 in the order they appear: that is the index a claim's `span.sentence` names.
// 2. Kinds. Every sentence is exactly one of:
//    - "question": it ends with a question mark (or holds a "¿"), unless it asserts all the same:
//      a tag question ("…, right?", "…, isn't it?"), a rhetorical opener ("Did you know …?"), or,
//      in Latin script and longer than three words, a sentence whose first part does not open
//      with a question word or auxiliary, unless that part is subordinate ("If the pump hums, …",
//      "With the switch ON, …") and the next one does: "The fuse is 30 A?" and "The pump uses a
//      30 A fuse, so can you bypass it?" state something;
//    - "courtesy": nothing but greetings, thanks, acknowledgements of receipt, farewells and set
//      conversational phrases ("Hi", "Thanks!", "You're welcome.", "Got it.", "Here is what I
//      know.", "I hope this helps.", "I don't know."), the offline model's fixed sentences about the
//      conversation ("I have no stored knowledge about this yet."), and its report of a proposal
//      of this same answer ('I proposed saving this as new knowledge for review: "<title>".', the
//      title being one of the answer's cfb_suggestions). Agreement ("Yes", "Sure", "Right",
//      "Correct") is an answer, not courtesy;
//    - "directive" (procedure mode only, given the turn's wording from procedureWording): the
//      sentence only repeats the directive (its words are whole sentences of the directive's
//      texts, option labels, findings and names, joined by procedure-wording.ts's fixed framing such
//      as "Back to the step:" or "Cause:"), or only asks the technician the next check (it opens
//      with a check verb or ends with a question mark, and every other word is a function word or
//      a word of the step's question, how-to, location, explanation, options or system name);
//    - "statement": anything else with a letter or digit in it.
// 3. Coverage. A claim that names a sentence by index (and gives no valid character range)
//    answers for the whole sentence. A claim with a valid character range (0 ≤ start_char <
//    end_char ≤ length; it decides over `sentence` when both are given) answers for the clauses
//    it overlaps: a statement is cut into clauses at ";" and at a coordinating conjunction after
//    a comma (", and" ", but" ", or" ", so" ", yet"), or at " and " / " but " before a subject
//    pronoun ("… 30 A fuse and you can bypass it …"). A statement is covered when a claim answers
//    for all of it (every clause that is not itself courtesy or directive wording).

import type { TClaimMapEntry } from "@solserver/contracts";
import {
  COURTESY,
  isProposalReport,
  MAX_COURTESY_WORDS,
  proposalWords,
  type TProposalRef,
  type TProposalWords,
} from "./statements/courtesy";
import {
  compileWording,
  isDirectiveWording,
  type TCompiledWording,
  type TProcedureWording,
} from "./statements/directive-wording";
import { segmentable } from "./statements/phrase-trie";
import { endsWithQuestionMark, isQuestion } from "./statements/questions";
import { splitSentences, type TSentence, type TToken, tokens } from "./statements/sentences";

export { splitSentences, type TProcedureWording };

// ---- classification -------------------------------------------------------------------------------

export type TSentenceKind = "statement" | "question" | "courtesy" | "directive";
export type TClassifiedSentence = TSentence & { kind: TSentenceKind };

export type TStatementContext = {
  /** Procedure mode: this turn's wording (procedureWording); null or absent on a plain turn. */
  procedure?: TProcedureWording | null;
  /** The answer's own cfb_suggestions, which it may report having proposed. */
  proposals?: readonly TProposalRef[];
};

type TPrepared = { proposals: TProposalWords[]; compiled: TCompiledWording | null };

const prepare = (ctx: TStatementContext): TPrepared => ({
  proposals: proposalWords(ctx.proposals ?? []),
  compiled: ctx.procedure ? compileWording(ctx.procedure) : null,
});

function kindOf(text: string, s: TSentence, words: readonly string[], prepared: TPrepared): TSentenceKind {
  if (isQuestion(text, s, words)) return "question";
  if (segmentable(words, COURTESY, MAX_COURTESY_WORDS) || isProposalReport(words, prepared.proposals))
    return "courtesy";
  if (isDirectiveWording(words, endsWithQuestionMark(text, s.start, s.end), prepared.compiled)) return "directive";
  return "statement";
}

function classifyWith(text: string, prepared: TPrepared): TClassifiedSentence[] {
  return splitSentences(text).map((s) => {
    const words = tokens(text, s.start, s.end).map((t) => t.word);
    return { ...s, kind: kindOf(text, s, words, prepared) };
  });
}

/** Every sentence of an answer with its kind (what counts as a statement: the header above). */
export function classifySentences(text: string, ctx: TStatementContext = {}): TClassifiedSentence[] {
  return classifyWith(text, prepare(ctx));
}

/** The kind of one sentence on its own (as if it were a whole answer). */
export function sentenceKind(sentence: string, ctx: TStatementContext = {}): TSentenceKind | null {
  const [first, second] = classifySentences(sentence, ctx);
  return first !== undefined && second === undefined ? first.kind : null;
}

/** The indexes of the sentences that state something. */
export function statementIndexes(text: string, ctx: TStatementContext = {}): number[] {
  return classifySentences(text, ctx)
    .filter((s) => s.kind === "statement")
    .map((s) => s.index);
}

// ---- clauses and coverage -------------------------------------------------------------------------

const CONJUNCTIONS = new Set(["and", "but", "or", "so", "yet"]);
const SUBJECTS = new Set(["i", "you", "we", "they", "he", "she", "it", "there"]);

/** The clauses of a sentence as character ranges (see the header, 3.). */
function clauseRanges(text: string, s: TSentence): { start: number; end: number }[] {
  const words = tokens(text, s.start, s.end);
  const cuts: number[] = [];
  for (let i = s.start; i < s.end; i++) if (text.charAt(i) === ";" || text.charAt(i) === "；") cuts.push(i);
  for (let k = 0; k < words.length - 1; k++) {
    const w = words[k] as TToken;
    if (!CONJUNCTIONS.has(w.word) || k === 0) continue;
    const between = text.slice((words[k - 1] as TToken).end, w.start);
    const afterComma = between.includes(",") || between.includes("，");
    const beforeSubject = (w.word === "and" || w.word === "but") && SUBJECTS.has((words[k + 1] as TToken).word);
    if (afterComma || beforeSubject) cuts.push(w.start);
  }
  cuts.sort((a, b) => a - b);
  const out: { start: number; end: number }[] = [];
  let from = s.start;
  for (const cut of [...cuts, s.end]) {
    if (cut > from && tokens(text, from, cut).length > 0) out.push({ start: from, end: cut });
    from = cut;
  }
  return out.length > 0 ? out : [{ start: s.start, end: s.end }];
}

type TSpan = TClaimMapEntry["span"];

/** A claim's valid character range, or null (then its sentence index, if any, counts). */
function claimRange(span: TSpan, textLength: number): { start: number; end: number } | null {
  const { start_char: start, end_char: end } = span;
  if (start === undefined || end === undefined) return null;
  return start >= 0 && start < end && end <= textLength ? { start, end } : null;
}

export type TUncovered = { index: number; partly: boolean };

/**
 * The statements of `text` that the claim map leaves uncovered, in order: each with whether some
 * of it is covered (a character range reached one of its clauses but not all).
 */
export function uncoveredStatements(
  text: string,
  claimMap: readonly Pick<TClaimMapEntry, "span">[],
  ctx: TStatementContext = {},
): TUncovered[] {
  const named = new Set<number>();
  const ranges: { start: number; end: number }[] = [];
  for (const claim of claimMap) {
    const range = claimRange(claim.span, text.length);
    if (range) ranges.push(range);
    else if (claim.span.sentence !== undefined) named.add(claim.span.sentence);
  }
  const prepared = prepare(ctx);
  const overlaps = (from: number, to: number) => ranges.some((r) => r.start < to && from < r.end);
  const out: TUncovered[] = [];
  for (const s of classifyWith(text, prepared)) {
    if (s.kind !== "statement" || named.has(s.index)) continue;
    if (!overlaps(s.start, s.end)) {
      out.push({ index: s.index, partly: false });
      continue;
    }
    const open = clauseRanges(text, s).filter((c) => {
      if (overlaps(c.start, c.end)) return false;
      const words = tokens(text, c.start, c.end).map((t) => t.word);
      return !segmentable(words, COURTESY, MAX_COURTESY_WORDS) && !isDirectiveWording(words, false, prepared.compiled);
    });
    if (open.length > 0) out.push({ index: s.index, partly: true });
  }
  return out;
}
