// What people read, for the PII scanner. A model can dress a phone or card number up so that a
// scan of the bytes misses it while a screen shows it plainly: a control or zero-width character
// glued to it, full-width digits, an en dash for a hyphen, a JSON escape. Every PII decision reads
// text through readableText() first (scanPii does it), and JSON output through jsonStrings():
//  - NFKC: compatibility forms fold ("４１５" is 415, "＠" is @, no-break and ideographic spaces are
//    spaces, 𝟒 is 4). It is applied per segment, one ASCII character plus the non-ASCII run after
//    it, which gives exactly the NFKC of the whole text: an ASCII character has no decomposition,
//    combining class 0 and never combines with what precedes it, so no normalisation step crosses
//    the start of a segment (a test checks this against String.prototype.normalize);
//  - dashes (U+2010-2015, U+2212) read as '-';
//  - invisible characters are separators: C0 controls other than \t \n \r, DEL, C1 controls and
//    format characters (Unicode Cf: zero-width space and joiners, BOM, bidi marks, soft hyphen…).
//    A run of them reads as one space, so "at<U+0001>415-555-1212" reads "at 415-555-1212". Where
//    a space would only double a separator that is already there, the run vanishes instead: next
//    to whitespace, '-', '.' or '@', after '(' and before ')', and at either end of the text
//    ("415-<ZWSP>555-1212" is the phone people read, not "415- 555-1212");
//  - a lone surrogate (half of a broken pair, which screens show as U+FFFD) is a space.
// A run between two digits or two ASCII letters is ambiguous: a separator to a parser, nothing at
// all on a screen ("41<ZWSP>11111111111111" shows a card number). `joinRuns` reads it the second
// way (the run vanishes); scanPii reads such text both ways and reports what either reading finds.
// Linear in the text (a check pass, one normalize() call, one building pass), no regular
// expressions. Text with nothing to read differently (plain ASCII, or NFKC already and without
// controls, format characters, lone surrogates or dashes) is returned as it is, without a copy;
// otherwise the text is built with a list of pieces through which positions map back.

export type TReadableText = {
  text: string;
  /** Whether a run of invisible characters stood between two digits or two ASCII letters. */
  joinable: boolean;
  /**
   * Where units [from, to) of `text` come from in the input, [start, end). Exact for characters
   * that read as themselves; a character NFKC changed maps to its whole segment.
   */
  source(from: number, to: number): { start: number; end: number };
  /** The first unit of `text` that comes from `position` of the input or later. */
  indexAt(position: number): number;
};

// Character classes and constants are local to this module, as in pii-scan.ts (see there: an
// imported helper called per character made the scan several times slower under module transforms).
const TAB = 9;
const LF = 10;
const CR = 13;
const SPACE = 32;
const DASH = 45;
const DOT = 46;
const AT = 64;
const OPEN_PAREN = 40;
const CLOSE_PAREN = 41;

export function readableText(input: string, opts: { joinRuns?: boolean } = {}): TReadableText {
  const reads = readsAsItself(input);
  // Most text with non-ASCII characters is already NFKC (accented letters precomposed, no
  // full-width forms). One native call decides.
  const stable = reads === "yes" || input.normalize("NFKC") === input;
  if (reads === "yes" || (reads === "if NFKC" && stable)) {
    return {
      text: input,
      joinable: false,
      source: (from, to) => ({ start: from, end: to }),
      indexAt: (position) => Math.min(position, input.length),
    };
  }
  const out = new ReadableBuilder(opts.joinRuns ?? false);
  const n = input.length;
  if (stable) {
    out.feed(input, 0, n, -1, -1);
    return out.finish();
  }
  // Segment by segment: an ASCII run as it stands but for its last character, which starts a
  // segment with the non-ASCII run after it.
  let i = 0;
  while (i < n) {
    let j = i;
    while (j < n && input.charCodeAt(j) < 0x80) j++;
    if (j === n) {
      out.feed(input, i, n, -1, -1);
      break;
    }
    const segmentStart = j > i ? j - 1 : j;
    if (segmentStart > i) out.feed(input, i, segmentStart, -1, -1);
    let end = j + 1;
    while (end < n && input.charCodeAt(end) >= 0x80) end++;
    const segment = input.slice(segmentStart, end);
    const folded = nfkc(segment);
    if (folded === segment) out.feed(input, segmentStart, end, -1, -1);
    else out.feed(folded, 0, folded.length, segmentStart, end);
    i = end;
  }
  return out.finish();
}

/**
 * "yes": printable ASCII, \t, \n and \r only, nothing to read differently. "if NFKC": no control,
 * format character, lone surrogate or dash either, but non-ASCII characters NFKC might change.
 * "no": something reads differently.
 */
function readsAsItself(text: string): "yes" | "if NFKC" | "no" {
  let ascii = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x7f ? c >= SPACE || c === TAB || c === LF || c === CR : false) continue;
    const cp = text.codePointAt(i) as number; // a lone surrogate is its own code unit
    if (cp > 0xffff) i++;
    if (readAs(cp) !== ITSELF) return "no";
    ascii = false;
  }
  return ascii ? "yes" : "if NFKC";
}

// Segments repeat (the same accented letter, the same full-width digit), and normalize() is a call
// into ICU: a small cache of short segments keeps mixed text fast. Cleared when full, so an
// answer made of many distinct characters costs time, never memory.
const NFKC_CACHE = new Map<string, string>();
const NFKC_CACHE_MAX = 4096;
const NFKC_CACHED_LENGTH = 8;

function nfkc(segment: string): string {
  if (segment.length > NFKC_CACHED_LENGTH) return segment.normalize("NFKC");
  let folded = NFKC_CACHE.get(segment);
  if (folded === undefined) {
    if (NFKC_CACHE.size >= NFKC_CACHE_MAX) NFKC_CACHE.clear();
    folded = segment.normalize("NFKC");
    NFKC_CACHE.set(segment, folded);
  }
  return folded;
}

/** C0 controls but \t \n \r, DEL, C1 controls. */
function isControl(cp: number): boolean {
  if (cp < SPACE) return cp !== TAB && cp !== LF && cp !== CR;
  return cp >= 0x7f && cp <= 0x9f;
}

/**
 * Unicode general category Cf (format characters), as of Unicode 17 (Node 20's ICU). A test
 * compares this table with /\p{Cf}/u over every code point, so a newer Unicode fails it loudly.
 */
const FORMAT_RANGES: readonly (readonly [number, number])[] = [
  [0xad, 0xad],
  [0x600, 0x605],
  [0x61c, 0x61c],
  [0x6dd, 0x6dd],
  [0x70f, 0x70f],
  [0x890, 0x891],
  [0x8e2, 0x8e2],
  [0x180e, 0x180e],
  [0x200b, 0x200f],
  [0x202a, 0x202e],
  [0x2060, 0x2064],
  [0x2066, 0x206f],
  [0xfeff, 0xfeff],
  [0xfff9, 0xfffb],
  [0x110bd, 0x110bd],
  [0x110cd, 0x110cd],
  [0x13430, 0x1343f],
  [0x1bca0, 0x1bca3],
  [0x1d173, 0x1d17a],
  [0xe0001, 0xe0001],
  [0xe0020, 0xe007f],
];

export function isFormatChar(cp: number): boolean {
  if (cp < 0xad) return false;
  for (const [from, to] of FORMAT_RANGES) {
    if (cp < from) return false;
    if (cp <= to) return true;
  }
  return false;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isAsciiLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

function isBlank(c: number): boolean {
  return c === SPACE || c === TAB || c === LF || c === CR;
}

/** Whether a run of invisible characters between `prev` and `next` vanishes (see the header). */
function invisibleRunVanishes(prev: number, next: number): boolean {
  if (prev === -1 || next === -1) return true;
  if (isBlank(prev) || isBlank(next)) return true;
  if (prev === DASH || prev === DOT || prev === AT || prev === OPEN_PAREN) return true;
  return next === DASH || next === DOT || next === AT || next === CLOSE_PAREN;
}

/** A run between two digits or two ASCII letters: a separator, or nothing (see the header). */
function isJoinable(prev: number, next: number): boolean {
  return (isDigit(prev) && isDigit(next)) || (isAsciiLetter(prev) && isAsciiLetter(next));
}

/** What a character that does not read as itself reads as: INVISIBLE, or a replacement unit. */
const INVISIBLE = -1;
const ITSELF = -2;

function readAs(cp: number): number {
  if (isControl(cp) || isFormatChar(cp)) return INVISIBLE;
  if (cp >= 0xd800 && cp <= 0xdfff) return SPACE; // a lone surrogate (pairs arrive as one code point)
  if ((cp >= 0x2010 && cp <= 0x2015) || cp === 0x2212) return DASH;
  return ITSELF;
}

/**
 * Builds the readable text from pieces. A piece is either a run of input characters read as they
 * stand (unit k of it comes from its source start + k) or a replacement (all of it comes from one
 * source range: an NFKC segment, a dash, the space standing for a run of invisible characters).
 * Units and pieces go to typed arrays: no string per piece (a text full of zero-width characters
 * has a piece every few characters).
 */
class ReadableBuilder {
  private readonly joinRuns: boolean;
  private joinable = false;
  private units = new Uint16Array(256);
  private length = 0;
  /** Pieces: where each starts in the text, its source start, its source end (-1: as it stands). */
  private pieceAt = new Int32Array(64);
  private pieceSource = new Int32Array(64);
  private pieceSourceEnd = new Int32Array(64);
  private pieces = 0;
  /** Source range of the pending run of invisible characters; start -1 when there is none. */
  private runStart = -1;
  private runEnd = -1;

  constructor(joinRuns: boolean) {
    this.joinRuns = joinRuns;
  }

  /**
   * Reads text[from, to). With sourceEnd -1, `text` is the input itself (each unit comes from its
   * own position); otherwise it all comes from [sourceStart, sourceEnd) of the input.
   */
  feed(text: string, from: number, to: number, sourceStart: number, sourceEnd: number): void {
    const asIs = sourceEnd === -1;
    let pending = from; // start of the units read as themselves and not yet added
    for (let k = from; k < to; k++) {
      const c = text.charCodeAt(k);
      if (c < 0x7f ? c >= SPACE || c === TAB || c === LF || c === CR : false) continue;
      // Pieces never split a surrogate pair (segments start at ASCII characters).
      const cp = text.codePointAt(k) as number;
      const size = cp > 0xffff ? 2 : 1;
      const as = readAs(cp);
      if (as === ITSELF) {
        k += size - 1;
        continue;
      }
      if (pending < k) this.add(text, pending, k, asIs ? pending : sourceStart, sourceEnd);
      const start = asIs ? k : sourceStart;
      const end = asIs ? k + size : sourceEnd;
      if (as === INVISIBLE) {
        if (this.runStart === -1) this.runStart = start;
        this.runEnd = end;
      } else {
        this.settleRun(as);
        this.piece(start, end);
        this.push(as);
      }
      k += size - 1;
      pending = k + 1;
    }
    if (pending < to) this.add(text, pending, to, asIs ? pending : sourceStart, sourceEnd);
  }

  /** Appends text[from, to) (characters that read as themselves). */
  private add(text: string, from: number, to: number, sourceStart: number, sourceEnd: number): void {
    this.settleRun(text.charCodeAt(from));
    this.piece(sourceStart, sourceEnd);
    while (this.length + (to - from) > this.units.length) this.units = grown(this.units);
    const units = this.units;
    let n = this.length;
    for (let k = from; k < to; k++) units[n++] = text.charCodeAt(k);
    this.length = n;
  }

  /** A pending invisible run, now that `next` follows it: a space, or nothing (see the header). */
  private settleRun(next: number): void {
    if (this.runStart === -1) return;
    const prev = this.length === 0 ? -1 : (this.units[this.length - 1] as number);
    if (!invisibleRunVanishes(prev, next)) {
      const joinable = isJoinable(prev, next);
      if (joinable) this.joinable = true;
      if (!(joinable && this.joinRuns)) {
        this.piece(this.runStart, this.runEnd);
        this.push(SPACE);
      }
    }
    this.runStart = -1;
  }

  /** Starts a piece at the current end of the text, unless it continues the last one as it stands. */
  private piece(sourceStart: number, sourceEnd: number): void {
    const n = this.pieces;
    if (
      sourceEnd === -1 &&
      n > 0 &&
      this.pieceSourceEnd[n - 1] === -1 &&
      (this.pieceSource[n - 1] as number) + (this.length - (this.pieceAt[n - 1] as number)) === sourceStart
    ) {
      return;
    }
    if (n === this.pieceAt.length) {
      this.pieceAt = grown(this.pieceAt);
      this.pieceSource = grown(this.pieceSource);
      this.pieceSourceEnd = grown(this.pieceSourceEnd);
    }
    this.pieceAt[n] = this.length;
    this.pieceSource[n] = sourceStart;
    this.pieceSourceEnd[n] = sourceEnd;
    this.pieces = n + 1;
  }

  private push(unit: number): void {
    if (this.length === this.units.length) this.units = grown(this.units);
    this.units[this.length++] = unit;
  }

  /** The text (a trailing run of invisible characters vanishes: nothing follows it). */
  finish(): TReadableText {
    let text = "";
    const CHUNK = 8192; // String.fromCharCode's arguments go on the stack
    for (let k = 0; k < this.length; k += CHUNK) {
      const chunk = this.units.subarray(k, Math.min(this.length, k + CHUNK));
      text += String.fromCharCode.apply(null, chunk as unknown as number[]);
    }
    const at = this.pieceAt.subarray(0, this.pieces);
    const from = this.pieceSource;
    const to = this.pieceSourceEnd;
    const total = this.length;
    /** The piece holding unit j (binary search: pieces are in order). */
    const pieceOf = (j: number): number => {
      let lo = 0;
      let hi = at.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if ((at[mid] as number) <= j) lo = mid;
        else hi = mid - 1;
      }
      return lo;
    };
    const startOf = (j: number): number => {
      const p = pieceOf(j);
      return to[p] === -1 ? (from[p] as number) + j - (at[p] as number) : (from[p] as number);
    };
    const endOf = (j: number): number => {
      const p = pieceOf(j);
      return to[p] === -1 ? (from[p] as number) + j - (at[p] as number) + 1 : (to[p] as number);
    };
    /** Where piece p's source ends. */
    const pieceEnd = (p: number): number =>
      to[p] === -1
        ? (from[p] as number) + ((p + 1 < at.length ? (at[p + 1] as number) : total) - (at[p] as number))
        : (to[p] as number);
    return {
      text,
      joinable: this.joinable,
      source: (start, end) =>
        end <= start ? { start: startOf(start), end: startOf(start) } : { start: startOf(start), end: endOf(end - 1) },
      indexAt: (position) => {
        let lo = 0;
        let hi = at.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (pieceEnd(mid) <= position) lo = mid + 1;
          else hi = mid;
        }
        if (lo === at.length) return total;
        const inside = to[lo] === -1 ? Math.max(0, position - (from[lo] as number)) : 0;
        return (at[lo] as number) + inside;
      },
    };
  }
}

/** A typed array twice as long with the same start. */
function grown<T extends Uint16Array | Int32Array>(array: T): T {
  const bigger = new (array.constructor as new (size: number) => T)(array.length * 2);
  bigger.set(array);
  return bigger;
}

/**
 * The strings of JSON text as people read them: every string literal decoded (keys and values, so
 * "\u0001" is the control character it stands for, not the letters u0001), in document order,
 * with the text between literals (numbers, true/false/null, punctuation) as it stands. Null when
 * the text is not JSON-shaped: its first non-blank character is not '{' or '[', or a string
 * literal in it is unterminated or not valid JSON (then it is plain text). One pass; each literal
 * is decoded by JSON.parse on its own slice, so the whole costs linear time.
 */
export function jsonStrings(text: string): string[] | null {
  let i = 0;
  while (i < text.length && isBlank(text.charCodeAt(i))) i++;
  const first = text.charCodeAt(i);
  if (first !== 123 && first !== 91) return null; // '{' '['
  const out: string[] = [];
  let between = 0;
  for (let open = text.indexOf('"', i); open !== -1; open = text.indexOf('"', between)) {
    let close = open + 1;
    for (;;) {
      if (close >= text.length) return null;
      const c = text.charCodeAt(close);
      if (c === 34) break; // '"'
      close += c === 92 ? 2 : 1; // a backslash escapes the next character
    }
    let decoded: unknown;
    try {
      decoded = JSON.parse(text.slice(open, close + 1));
    } catch {
      return null;
    }
    out.push(text.slice(between, open), decoded as string);
    between = close + 1;
  }
  out.push(text.slice(between));
  return out;
}
