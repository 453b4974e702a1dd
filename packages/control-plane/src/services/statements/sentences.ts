// Characters, tokens and sentences of an answer (claim-statements.ts, step 1): single
// left-to-right passes over characters, no regular expression over the text. Words fold as the one
// analyser folds them (@solserver/text); they keep their offsets, which a claim's span points into.
import { fold } from "@solserver/text";

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const MARK = /\p{M}/u;
export const LATIN_LETTER = /\p{Script=Latin}/u;
export const LETTER = /\p{L}/u;
const UPPER = /\p{Lu}/u;

export const QUESTION_MARKS = new Set(["?", "？", "؟", "‽", "⁇", "⁈", "⁉", "\u037e", "፧", "︖", "﹖", "⸮"]);
export const TERMINATORS = new Set([
  ".",
  "!",
  "…",
  "。",
  "！",
  "．",
  "｡",
  "﹒",
  "﹗",
  "։",
  "።",
  "।",
  "॥",
  ...QUESTION_MARKS,
]);
/** Marks that end a sentence even with no space after them (Chinese and Japanese text has none). */
const WIDE_TERMINATORS = new Set(["。", "！", "？", "｡", "﹒", "﹗", "︖", "﹖"]);
export const CLOSERS = new Set(['"', "'", "”", "’", "»", "›", ")", "]", "}", "）", "」", "』", "】", "〉", "》", "〕"]);
const LINE_BREAKS = new Set(["\n", "\r", "\u2028", "\u2029", "\u0085", "\u000b", "\u000c"]);
const APOSTROPHES = new Set(["'", "’", "ʼ"]);

export function isSpace(ch: string | undefined): boolean {
  if (ch === undefined) return false;
  return ch === " " || ch === "\t" || ch === "\u00a0" || ch === "\u3000" || LINE_BREAKS.has(ch) || /\s/u.test(ch);
}
const isWordChar = (ch: string | undefined) => ch !== undefined && (LETTER_OR_DIGIT.test(ch) || MARK.test(ch));

// ---- tokens -------------------------------------------------------------------------------------

export type TToken = { word: string; start: number; end: number };

/**
 * Word tokens of `text` in order, folded ("Ｆuse" → "fuse", "Café" → "cafe"), with their
 * offsets. A word is a run of letters, digits and combining marks; an apostrophe between letters
 * stays inside it ("you're", "let's"); anything else separates words ("fresh-water" → fresh, water;
 * "CFB-0001" → cfb, 0001; "3.5" → 3, 5).
 */
export function tokens(text: string, from = 0, to = text.length): TToken[] {
  const out: TToken[] = [];
  let start = -1;
  let i = from;
  while (i < to) {
    const cp = text.codePointAt(i) ?? 0;
    const ch = String.fromCodePoint(cp);
    const next = i + ch.length;
    const inWord = isWordChar(ch) && (start >= 0 || !MARK.test(ch));
    const apostrophe = start >= 0 && APOSTROPHES.has(ch) && next < to && LETTER.test(text.charAt(next));
    if (inWord || apostrophe) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      out.push(token(text, start, i));
      start = -1;
    }
    i = next;
  }
  if (start >= 0) out.push(token(text, start, to));
  return out;
}

function token(text: string, start: number, end: number): TToken {
  let word = fold(text.slice(start, end));
  if (word.includes("’") || word.includes("ʼ")) word = word.replaceAll("’", "'").replaceAll("ʼ", "'");
  return { word, start, end };
}

export const isNumber = (word: string) => {
  for (const ch of word) if (ch < "0" || ch > "9") return false;
  return word.length > 0;
};

// ---- sentences ----------------------------------------------------------------------------------

export type TSentence = { index: number; start: number; end: number; text: string };

/** Abbreviations a "." never ends a sentence after (lower case, without the dot): titles before
 * names, and abbreviations a number or a word always follows ("approx. 30 A", "cf. the manual"). */
const ABBREVIATIONS = new Set(
  "mr mrs ms dr prof st jr sr mme mlle sra vs cf approx appx ca fig figs incl excl resp vol pp ref bzw usw".split(" "),
);
/** Abbreviations that end a sentence only before an upper-case letter or the end ("etc. The pump"). */
const SOFT_ABBREVIATIONS = new Set("etc al inc ltd corp co dept est min max avg ft in lbs oz".split(" "));

/**
 * The word before a "." at `dot` (letters, digits and inner dots: "e.g", "U.S", "Dr", "30"), and
 * the token before that word, if any: what decides whether the dot is an abbreviation's.
 */
function wordBeforeDot(text: string, dot: number, sentenceStart: number): { word: string; start: number } {
  let i = dot;
  while (i > sentenceStart) {
    const ch = text.charAt(i - 1);
    if (ch === "." || isWordChar(ch)) i--;
    else if (/[\uDC00-\uDFFF]/.test(ch) && i - 2 >= sentenceStart && isWordChar(text.slice(i - 2, i))) i -= 2;
    else break;
  }
  return { word: text.slice(i, dot), start: i };
}

/** Single letters joined by dots: "e.g", "i.e", "U.S", "a.m" (the final dot is the one at hand). */
function isInitialism(word: string): boolean {
  if (!word.includes(".")) return false;
  const parts = word.split(".");
  return parts.length >= 2 && parts.every((p) => p.length === 1 && LETTER.test(p));
}

/** The first non-space character at or after `i`. */
function nextVisible(text: string, i: number): string | undefined {
  let j = i;
  while (j < text.length && isSpace(text.charAt(j))) j++;
  return j < text.length ? text.charAt(j) : undefined;
}

/**
 * The word before `at` in the sentence that started at `start` (skipping what is not a word), or
 * null. Scans back only over the gap and that word: each character is looked at by one dot at most.
 */
function previousWord(text: string, at: number, start: number): string | null {
  let end = at;
  while (end > start && !isWordChar(text.charAt(end - 1)) && !/[\uDC00-\uDFFF]/.test(text.charAt(end - 1))) end--;
  if (end <= start) return null;
  let from = end;
  while (from > start && (isWordChar(text.charAt(from - 1)) || /[\uD800-\uDFFF]/.test(text.charAt(from - 1)))) from--;
  return text.slice(from, end);
}

/** Whether a lone "." at `dot` (followed by whitespace) ends the sentence that started at `start`. */
function dotEndsSentence(text: string, dot: number, start: number): boolean {
  const { word, start: wordStart } = wordBeforeDot(text, dot, start);
  if (word === "") return true;
  if (isInitialism(word)) return false;
  const lower = word.toLowerCase();
  const next = nextVisible(text, dot + 1);
  if (lower === "no" || lower === "nr" || lower === "art") return !(next !== undefined && next >= "0" && next <= "9");
  if (ABBREVIATIONS.has(lower)) return false;
  if (SOFT_ABBREVIATIONS.has(lower)) return next === undefined || UPPER.test(next);
  // "1. Check the fuse": a list number opens the sentence.
  if (isNumber(word)) return previousWord(text, wordStart, start) !== null;
  if (word.length === 1 && LETTER.test(word)) {
    // "30 A." is a unit after a number; "J. Smith" an initial.
    return isNumber(previousWord(text, wordStart, start) ?? "");
  }
  return true;
}

/**
 * The sentences of `text`, numbered from 0, with their character offsets (trimmed). Pieces with
 * no letter or digit are left out and get no number.
 */
export function splitSentences(text: string): TSentence[] {
  const out: TSentence[] = [];
  let start = 0;
  const close = (end: number) => {
    let s = start;
    let e = end;
    while (s < e && isSpace(text.charAt(s))) s++;
    while (e > s && isSpace(text.charAt(e - 1))) e--;
    if (s < e && hasWord(text, s, e)) out.push({ index: out.length, start: s, end: e, text: text.slice(s, e) });
  };
  let i = 0;
  while (i < text.length) {
    const ch = text.charAt(i);
    if (LINE_BREAKS.has(ch)) {
      close(i);
      start = i + 1;
      i++;
      continue;
    }
    if (!TERMINATORS.has(ch)) {
      i++;
      continue;
    }
    // A run of marks and closers: `"?".` ends where the run ends.
    let j = i;
    let marks = 0;
    let wide = false;
    while (j < text.length && (TERMINATORS.has(text.charAt(j)) || CLOSERS.has(text.charAt(j)))) {
      if (TERMINATORS.has(text.charAt(j))) marks++;
      if (WIDE_TERMINATORS.has(text.charAt(j))) wide = true;
      j++;
    }
    const atBoundary = wide || j === text.length || isSpace(text.charAt(j));
    const loneDot = ch === "." && marks === 1;
    if (atBoundary && (!loneDot || dotEndsSentence(text, i, start))) {
      close(j);
      start = j;
    }
    i = j;
  }
  close(text.length);
  return out;
}

function hasWord(text: string, from: number, to: number): boolean {
  // By code point: astral letters (surrogate pairs) only match as a whole.
  for (const ch of text.slice(from, to)) if (LETTER_OR_DIGIT.test(ch)) return true;
  return false;
}
