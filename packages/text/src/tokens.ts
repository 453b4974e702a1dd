// Word tokens of folded text, in one left-to-right pass over code points (no regular expression
// runs over the text, so any input costs linear time):
// - a word is a run of letters, digits and combining marks; every other character separates words;
// - an apostrophe inside a word is dropped ("doesn't" → "doesnt"), a possessive "'s" with it
//   ("RV's" → "rv"); after an elided article or pronoun it separates ("l'eau" → "l", "eau");
// - a number keeps its decimal part ("12.6", "12,6" → "12.6"), a time its colon ("02:00"), and is cut from letters glued to it
//   when they are a unit ("15A" → "15", "a"; "30days" → "30", "days"), not otherwise ("k8s", "2fa",
//   "sha256" stay whole);
// - each Han, Hiragana and Katakana character is a word of its own (those scripts use no spaces);
// - clauses end at , ; : ! ? ¿ ¡ a line break, a dash between spaces, a slash beside a space, a full
//   stop or an ellipsis.
import { fold } from "./fold";
import { isUnit } from "./quantities";

/** `labelled`: the clause ends with a colon ("motor: nothing" is the label "motor", then its value). */
export type TClause = { tokens: string[]; question: boolean; labelled?: true };

const APOSTROPHES: ReadonlySet<number> = new Set([0x27, 0x60, 0x2018, 0x2019, 0x2bc, 0x2032]);
const CLAUSE_BREAKS: ReadonlySet<number> = new Set([
  0x2c, 0x3b, 0x3a, 0x21, 0x3f, 0xbf, 0xa1, 0x0a, 0x0d, 0x2013, 0x2014, 0x2e, 0x2026, 0x3002, 0x3001,
]);
const QUESTION_MARKS: ReadonlySet<number> = new Set([0x3f, 0xbf]);
const LETTER_OR_MARK = /[\p{L}\p{M}]/u;
const DIGIT = /\p{Nd}/u;
const OWN_WORD = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

function isAsciiDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

type TChar = "letter" | "digit" | "own" | "other";

function kindOf(ch: string, c: number): TChar {
  if ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a)) return "letter";
  if (isAsciiDigit(c)) return "digit";
  if (c < 0x80) return "other";
  if (OWN_WORD.test(ch)) return "own";
  if (LETTER_OR_MARK.test(ch)) return "letter";
  if (DIGIT.test(ch)) return "digit";
  return "other";
}

/** The folded words of `text` grouped in clauses. */
export function clauses(text: string): TClause[] {
  const folded = fold(text);
  const out: TClause[] = [];
  let tokens: string[] = [];
  let word = "";
  let numeric = false;
  let opened = false;
  // A number's letters are held apart until the word ends: a unit is cut off, anything else joins.
  let numberPart = "";
  const endWord = () => {
    if (numberPart !== "") {
      // "12.5ish": an approximate number is still the number
      if (word !== "" && (isUnit(word) || word === "ish")) tokens.push(numberPart, word);
      else tokens.push(numberPart + word);
    } else if (word !== "") tokens.push(word.endsWith("'s") ? word.slice(0, -2) : word);
    word = "";
    numberPart = "";
    numeric = false;
  };
  const endClause = (question: boolean, labelled = false) => {
    endWord();
    if (tokens.length > 0) out.push({ tokens, question: question || opened, ...(labelled ? { labelled } : {}) });
    tokens = [];
    opened = false;
  };
  const chars = [...folded];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] as string;
    const c = ch.codePointAt(0) as number;
    const kind = kindOf(ch, c);
    if (kind === "digit") {
      if (word !== "" && !numeric && numberPart === "") {
        word += ch; // "k8s", "sha256": digits inside a word stay in it
        continue;
      }
      if (numberPart !== "") {
        word += ch; // "2fa1"
        continue;
      }
      numeric = true;
      word += ch;
      continue;
    }
    if (kind === "letter") {
      if (numeric) {
        numberPart = word;
        word = "";
        numeric = false;
      }
      word += ch;
      continue;
    }
    if (kind === "own") {
      endWord();
      tokens.push(ch);
      continue;
    }
    if (APOSTROPHES.has(c)) {
      const next = chars[i + 1] ?? "";
      const after = chars[i + 2] ?? " ";
      // An elided article or pronoun ("l'eau", "n'utilise", "qu'il", "dell'acqua") is a word of its own.
      if (
        (word.length === 1 || word === "qu" || word.endsWith("ll")) &&
        kindOf(next, next.codePointAt(0) ?? 0) === "letter" &&
        next !== "s" &&
        next !== "t"
      ) {
        endWord();
        continue;
      }
      // Inside a word it is dropped, except before a final "s" (a possessive, cut when the word ends).
      if (word !== "" && next === "s" && kindOf(after, after.codePointAt(0) as number) !== "letter") word += "'";
      continue;
    }
    // ("fuse ok - 12 at the pump", "power gd / tstat calling": a list typed with dashes or slashes;
    // "w/ fused leads" is "with")
    if (
      c === 0x2d
        ? chars[i - 1] === " " && chars[i + 1] === " "
        : c === 0x2f && (chars[i - 1] === " " || chars[i + 1] === " ") && word.length !== 1
    ) {
      endClause(false);
      continue;
    }
    // ".2" (a decimal typed without its zero, after a space or at the start) is "0.2", not a
    // full stop before a 2.
    if (
      c === 0x2e &&
      word === "" &&
      (i === 0 || chars[i - 1] === " ") &&
      isAsciiDigit(chars[i + 1]?.codePointAt(0) ?? 0)
    ) {
      word = "0.";
      numeric = true;
      continue;
    }
    // "12.6", "12,6" (a decimal comma, read as a point) and "02:00" stay one token.
    if (numeric && isAsciiDigit(chars[i + 1]?.codePointAt(0) ?? 0)) {
      if ((c === 0x2e || c === 0x2c) && !word.includes(".") && !word.includes(":")) {
        word += ".";
        continue;
      }
      if (c === 0x3a && !word.includes(".")) {
        word += ":";
        continue;
      }
    }
    if (CLAUSE_BREAKS.has(c)) {
      if (c === 0xbf) {
        endClause(false);
        opened = true;
        continue;
      }
      endClause(QUESTION_MARKS.has(c), c === 0x3a);
      continue;
    }
    endWord();
  }
  endClause(false);
  return out;
}

/** The folded words of `text`, in order, repeats kept. */
export function tokens(text: string): string[] {
  return clauses(text).flatMap((clause) => clause.tokens);
}

/** Whether a token is a number ("12", "12.6"). */
export function isNumber(token: string): boolean {
  if (token === "") return false;
  let dot = false;
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i);
    if (c === 0x2e && !dot && i > 0 && i < token.length - 1) dot = true;
    else if (!isAsciiDigit(c)) return false;
  }
  return true;
}
