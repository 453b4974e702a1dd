// The words that label a number: "SSN 523456789", "Tel:4155551212", "IMEI: 490154203237518".
// Some numbers are only PII because of what the text calls them (nine bare digits are an SSN
// after "SSN" and an employee id anywhere else), and some PII-shaped numbers are plainly not PII
// because of it (a 15-digit IMEI passes Luhn; "Part number 555-123-4567" is a part). The
// detectors ask for the label only once they hold a candidate, so this never runs per character.
//
// Reading is backwards from the number and bounded (at most MAX_LOOKBACK characters), so it
// costs constant time per candidate: separators (blanks, ':', '#', '=', '-', '.', '(', quotes),
// then a word of ASCII letters (and '/', for "S/N" and "P/N"); filler words ("number", "is",
// "me", "at" …) are skipped, up to MAX_FILLERS of them, and the first other word is the label.
// Labels that make a number not PII skip only the words that name it (NAMING_FILLERS).
// JSON works too: the policy reads {"ssn": "523456789"} as its strings joined by newlines, and
// newlines and quotes are separators here.

/** How far back a label may start: a few short words, well inside the stream guard's overlap. */
const MAX_LOOKBACK = 64;
const MAX_SEPARATORS = 4;
const MAX_WORD = 20;
const MAX_FILLERS = 3;

/**
 * Words that only name the number ("Part No.", "IMEI is"): the only ones a label that makes a
 * number not PII may read through, so "the part at 555-123-4567" is still a phone.
 */
export const NAMING_FILLERS: ReadonlySet<string> = new Set([
  "number",
  "numbers",
  "no",
  "nr",
  "num",
  "id",
  "card",
  "code",
  "is",
  "was",
]);

/** Those and the words of a sentence ("call me at"), for labels that make a number PII. */
const SENTENCE_FILLERS: ReadonlySet<string> = new Set([...NAMING_FILLERS, "me", "us", "at", "on"]);

export type TLabel = {
  /** The label word, lower-cased ("ssn", "security", "tel"). */
  word: string;
  /** The word before it, lower-cased ("" when there is none): "social" before "security". */
  previous: string;
};

/** Blanks and the punctuation between a label and its number: \t \n \r space " # ' ( - . : = */
function isSeparator(c: number): boolean {
  return (
    c === 9 ||
    c === 10 ||
    c === 13 ||
    c === 32 ||
    c === 34 ||
    c === 35 ||
    c === 39 ||
    c === 40 ||
    c === 45 ||
    c === 46 ||
    c === 58 ||
    c === 61
  );
}

function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/**
 * The word ending at `end` (exclusive): its start, or -1 when there is no word there, it is
 * longer than MAX_WORD, or it runs past `floor` (then it may be the tail of a longer word).
 */
function wordStart(text: string, end: number, floor: number): number {
  let k = end;
  while (k > floor && end - k < MAX_WORD) {
    const c = text.charCodeAt(k - 1);
    if (!(isLetter(c) || (c === 47 && k < end))) break; // '/' only inside a word ("s/n")
    k--;
  }
  if (k === end || !isLetter(text.charCodeAt(k))) return -1;
  if (k === 0) return k;
  // Cut off by a bound, or glued to more letters or digits: not a whole word.
  const before = text.charCodeAt(k - 1);
  if (k === floor || isLetter(before) || (before >= 48 && before <= 57)) return -1;
  return k;
}

/** Back over at most MAX_SEPARATORS separators from `end`; the new end. */
function skipSeparators(text: string, end: number, floor: number): number {
  let k = end;
  while (k > floor && end - k < MAX_SEPARATORS && isSeparator(text.charCodeAt(k - 1))) k--;
  return k;
}

/**
 * The label of the number starting at `start`, or null when no word stands right before it.
 * `fillers`: the words skipped on the way (at most MAX_FILLERS of them).
 */
export function labelBefore(
  text: string,
  start: number,
  fillers: ReadonlySet<string> = SENTENCE_FILLERS,
): TLabel | null {
  const floor = Math.max(0, start - MAX_LOOKBACK);
  let end = start;
  for (let round = 0; round <= MAX_FILLERS; round++) {
    end = skipSeparators(text, end, floor);
    const from = wordStart(text, end, floor);
    if (from === -1) return null;
    const word = text.slice(from, end).toLowerCase();
    if (fillers.has(word) && round < MAX_FILLERS) {
      end = from;
      continue;
    }
    const prevEnd = skipSeparators(text, from, floor);
    const prevFrom = prevEnd < from ? wordStart(text, prevEnd, floor) : -1;
    return { word, previous: prevFrom === -1 ? "" : text.slice(prevFrom, prevEnd).toLowerCase() };
  }
  return null;
}

/** Whether the number at `start` is labelled with one of `words` (lower-case, single words). */
export function labelledAs(
  text: string,
  start: number,
  words: ReadonlySet<string>,
  fillers: ReadonlySet<string> = SENTENCE_FILLERS,
): boolean {
  const label = labelBefore(text, start, fillers);
  return label !== null && words.has(label.word);
}
