// Text normalisation and phrase matching for the context engine. Messages are untrusted and
// catalog patterns are data, so nothing here builds a regular expression: one linear pass turns
// text into clauses of lower-case word tokens, and phrases are compared token by token. Catalog
// patterns go through the same function, so "won't" in a pattern matches "wont" and "WON'T".

/** A run of word tokens between clause breaks; `question` when it ended with "?". */
export type TClause = { tokens: string[]; question: boolean };

// Deleted, not separators: "doesn't" → "doesnt", "where's" → "wheres".
const APOSTROPHES: ReadonlySet<number> = new Set([0x27, 0x60, 0x2018, 0x2019]);

// , ; : ! ? newline, en dash, em dash. "." too, unless it sits between two digits ("11.5").
const CLAUSE_BREAKS: ReadonlySet<number> = new Set([0x2c, 0x3b, 0x3a, 0x21, 0x3f, 0x0a, 0x0d, 0x2013, 0x2014, 0x2e]);
const QUESTION_MARK = 0x3f;
const FULL_STOP = 0x2e;

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** a-z, 0-9, and any non-ASCII character that has case (accented letters and the like). */
function isWordChar(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if ((c >= 0x61 && c <= 0x7a) || isDigit(c)) return true;
  if (c < 0x80) return false;
  const ch = text.charAt(i);
  return ch.toUpperCase() !== ch.toLowerCase();
}

/**
 * Lower-case word tokens grouped in clauses. Every character other than a word character, an
 * apostrophe or a clause break separates tokens; a decimal point separates them too, so "11.5"
 * becomes ["11", "5"] in a message and in a pattern alike.
 */
export function toClauses(text: string): TClause[] {
  const lower = text.toLowerCase();
  const clauses: TClause[] = [];
  let tokens: string[] = [];
  let word = "";
  const endClause = (question: boolean) => {
    if (word !== "") tokens.push(word);
    if (tokens.length > 0) clauses.push({ tokens, question });
    tokens = [];
    word = "";
  };
  for (let i = 0; i < lower.length; i++) {
    if (isWordChar(lower, i)) {
      word += lower.charAt(i);
      continue;
    }
    const c = lower.charCodeAt(i);
    if (APOSTROPHES.has(c)) continue;
    if (
      CLAUSE_BREAKS.has(c) &&
      !(c === FULL_STOP && isDigit(lower.charCodeAt(i - 1)) && isDigit(lower.charCodeAt(i + 1)))
    ) {
      endClause(c === QUESTION_MARK);
      continue;
    }
    if (word !== "") tokens.push(word);
    word = "";
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
