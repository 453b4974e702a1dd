// Text normalisation and phrase matching for the context engine. Messages are untrusted and
// catalog patterns are data, so nothing here builds a regular expression from either: one linear
// pass turns text into clauses of lower-case word tokens, and phrases are compared token by
// token. Catalog patterns and language-pack phrases go through the same function, so "won't" in
// a pattern matches "wont" and "WON'T", and "fundído" matches "fundido".

/** A run of word tokens between clause breaks; `question` when it ended with "?" (or "¿" opened it). */
export type TClause = { tokens: string[]; question: boolean };

// Deleted, not separators: "doesn't" → "doesnt", "where's" → "wheres".
const APOSTROPHES: ReadonlySet<number> = new Set([0x27, 0x60, 0x2018, 0x2019]);

// , ; : ! ? ¿ ¡ newline, en dash, em dash, full stop, ellipsis. "." and "," between two digits are
// a decimal separator instead ("11.5", "12,6").
const CLAUSE_BREAKS: ReadonlySet<number> = new Set([
  0x2c, 0x3b, 0x3a, 0x21, 0x3f, 0xbf, 0xa1, 0x0a, 0x0d, 0x2013, 0x2014, 0x2e, 0x2026,
]);
const HYPHEN = 0x2d;
const SPACE = 0x20;
const QUESTION_MARKS: ReadonlySet<number> = new Set([0x3f, 0xbf, 0xff1f]);
const DECIMAL_SEPARATORS: ReadonlySet<number> = new Set([0x2e, 0x2c]);
// Combining marks (U+0300–U+036F) left by NFD: dropped, so accents never split or change a word.
const COMBINING_FIRST = 0x300;
const COMBINING_LAST = 0x36f;

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isLetter(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c >= 0x61 && c <= 0x7a) return true;
  if (c < 0x80) return false;
  const ch = text.charAt(i);
  return ch.toUpperCase() !== ch.toLowerCase();
}

/** Lower case, accents removed ("Fundído" → "fundido", "ё" → "е"), full-width digits made ASCII. */
export function foldText(text: string): string {
  const decomposed = text.normalize("NFKD").toLowerCase();
  let out = "";
  for (let i = 0; i < decomposed.length; i++) {
    const c = decomposed.charCodeAt(i);
    if (c >= COMBINING_FIRST && c <= COMBINING_LAST) continue;
    out += decomposed.charAt(i);
  }
  return out;
}

/**
 * Lower-case word tokens grouped in clauses. Letters and digits make words; a number keeps its
 * decimal part ("12.6", "12,6" → "12.6") and loses a unit glued to it ("12.6v" → "12.6", "v");
 * every other character separates words, and clause breaks end a clause.
 */
export function toClauses(text: string): TClause[] {
  const lower = foldText(text);
  const clauses: TClause[] = [];
  let tokens: string[] = [];
  let word = "";
  let numeric = false; // the word so far is a number
  let opened = false; // "¿" opened the clause
  const endWord = () => {
    if (word !== "") tokens.push(word);
    word = "";
    numeric = false;
  };
  const endClause = (question: boolean) => {
    endWord();
    if (tokens.length > 0) clauses.push({ tokens, question: question || opened });
    tokens = [];
    opened = false;
  };
  for (let i = 0; i < lower.length; i++) {
    const c = lower.charCodeAt(i);
    if (isDigit(c)) {
      if (word !== "" && !numeric) endWord(); // "r134a" → "r", "134", "a": a number is its own token
      if (word === "") numeric = true;
      word += lower.charAt(i);
      continue;
    }
    if (isLetter(lower, i)) {
      if (numeric) endWord(); // "12v" → "12", "v"
      word += lower.charAt(i);
      continue;
    }
    if (APOSTROPHES.has(c)) continue;
    // A hyphen between spaces is a dash ("fan runs - wait no it doesnt"): it ends a clause.
    if (c === HYPHEN && lower.charCodeAt(i - 1) === SPACE && lower.charCodeAt(i + 1) === SPACE) {
      endClause(false);
      continue;
    }
    if (DECIMAL_SEPARATORS.has(c) && numeric && isDigit(lower.charCodeAt(i + 1)) && !word.includes(".")) {
      word += ".";
      continue;
    }
    if (CLAUSE_BREAKS.has(c) || QUESTION_MARKS.has(c)) {
      if (c === 0xbf) {
        endClause(false);
        opened = true;
        continue;
      }
      endClause(QUESTION_MARKS.has(c));
      continue;
    }
    endWord();
  }
  endClause(false);
  return clauses;
}

/** All tokens of a text, clause breaks ignored: how a catalog pattern or table phrase is read. */
export function toTokens(text: string): string[] {
  return toClauses(text).flatMap((clause) => clause.tokens);
}

/** The normalised form of a phrase, for comparing patterns ("Won't run" and "wont  run" agree). */
export function normalisePhrase(text: string): string {
  return toTokens(text).join(" ");
}

/** Whether `phrase` occurs in `tokens` starting at `start`. */
export function phraseAt(tokens: readonly string[], phrase: readonly string[], start: number): boolean {
  if (phrase.length === 0 || start + phrase.length > tokens.length) return false;
  for (let k = 0; k < phrase.length; k++) if (tokens[start + k] !== phrase[k]) return false;
  return true;
}

/** Every start index where `phrase` occurs in `tokens`, in order. */
export function phraseStarts(tokens: readonly string[], phrase: readonly string[]): number[] {
  const starts: number[] = [];
  for (let i = 0; i + phrase.length <= tokens.length; i++) if (phraseAt(tokens, phrase, i)) starts.push(i);
  return starts;
}

/** Whether `phrase` occurs anywhere in the clauses (never across a clause break). */
export function containsPhrase(clauses: readonly TClause[], phrase: readonly string[]): boolean {
  return clauses.some((clause) => phraseStarts(clause.tokens, phrase).length > 0);
}

/** Whether a token is a number ("12", "12.6"). */
export function isNumberToken(token: string): boolean {
  if (token === "") return false;
  let dot = false;
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i);
    if (c === 0x2e && !dot && i > 0) dot = true;
    else if (!isDigit(c)) return false;
  }
  return true;
}
