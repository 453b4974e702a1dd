// The PII scanner: emails, US phone numbers and payment card numbers in untrusted model output.
//
// scanPii() is the one entry point for every PII decision (the gate's PII policy, the stream
// guard of a streamed turn). It judges what people read, not the bytes: the text goes through
// readableText() (pii-read.ts: NFKC, dashes as '-', control and invisible characters as
// separators) and the detectors below run on the result. Match values and indices therefore
// refer to that readable text; `source` says where a match is in the text as given.
//
// Linear time is a hard requirement (a model can be prompted into emitting adversarial text, and
// the gate runs on every turn), so there are no regular expressions here. Each detector is a
// single left-to-right pass whose work per position is bounded by a constant:
// - emails are anchored on '@': at most 64 characters are read leftwards (local part) and 253
//   rightwards (domain), and the runs read from successive '@'s are disjoint anyway;
// - phones are tried at each plausible start with a fixed-size grammar (at most 18 characters);
// - cards walk each maximal run of digit groups once and try at most a handful of group spans,
//   each at most 19 digits long, from each group.
// Overlaps between detectors are resolved afterwards (earliest start, then longest, wins).

import { PII_TYPES, type TPiiType } from "@solserver/contracts";
import { type CompiledAllowlist, compileAllowlist, isAllowlisted } from "./pii-allowlist";
import { readableText, type TReadableText } from "./pii-read";

export type PiiMatch = {
  type: TPiiType;
  /** The value as read: after normalisation (so "４１５-５５５-１２１２" is found as 415-555-1212). */
  value: string;
  /** Where the value starts in the readable text (several texts: joined by newlines). */
  index: number;
  /** Where it is in the text as given, [start, end) (several texts: joined by newlines). */
  source: { start: number; end: number };
};

export type ScanOptions = { types?: readonly TPiiType[]; allowlist?: readonly string[] };

/**
 * Finds PII in what people read of `text`, in order of position, skipping allowlisted values.
 * Several texts (the decoded strings of a JSON document) are read as one, joined by newlines: no
 * value the scanner finds spans a newline, so none spans two strings. Text with invisible
 * characters between two digits or two letters is read both ways (pii-read.ts); a value only the
 * second reading finds is reported at the index where its characters start in the first.
 */
export function scanPii(text: string | readonly string[], opts: ScanOptions = {}): PiiMatch[] {
  const given = typeof text === "string" ? text : text.join("\n");
  const types = opts.types ?? PII_TYPES;
  const allow = compileAllowlist(opts.allowlist ?? []);
  const read = readableText(given);
  const found = detect(read, types, allow);
  if (!read.joinable) return found;
  const joined = detect(readableText(given, { joinRuns: true }), types, allow);
  return mergeReadings(found, joined, read);
}

type RawMatch = { type: TPiiType; value: string; index: number };

/** The detectors over one reading: non-overlapping matches in order, allowlisted ones left out. */
function detect(read: TReadableText, types: readonly TPiiType[], allow: CompiledAllowlist): PiiMatch[] {
  const found: RawMatch[] = [];
  if (types.includes("EMAIL")) scanEmails(read.text, found);
  if (types.includes("PHONE")) scanPhones(read.text, found);
  if (types.includes("CREDIT_CARD")) scanCards(read.text, found);

  // Earliest start first, then the longest: e.g. "415-555-1212@example.com" is one email, not a
  // phone plus an email, and a card never also counts as a phone.
  found.sort((a, b) => a.index - b.index || b.value.length - a.value.length);
  const out: PiiMatch[] = [];
  let end = 0;
  for (const match of found) {
    if (match.index < end) continue;
    end = match.index + match.value.length;
    if (isAllowlisted(allow, match)) continue;
    out.push({ type: match.type, value: match.value, index: match.index, source: read.source(match.index, end) });
  }
  return out;
}

/**
 * Both readings' matches, in order of source position: each of `first`, and each of `second` that
 * overlaps none of them (re-indexed into the first reading). Linear: both lists are in order.
 */
function mergeReadings(first: PiiMatch[], second: PiiMatch[], read: TReadableText): PiiMatch[] {
  const out: PiiMatch[] = [];
  let f = 0;
  for (const match of second) {
    while (f < first.length && (first[f] as PiiMatch).source.end <= match.source.start)
      out.push(first[f++] as PiiMatch);
    const next = first[f];
    if (next !== undefined && next.source.start < match.source.end) continue; // seen by the first reading
    out.push({ ...match, index: read.indexAt(match.source.start) });
  }
  while (f < first.length) out.push(first[f++] as PiiMatch);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Character classes over UTF-16 code units (ASCII only: the formats recognised are ASCII). They
// live in this module on purpose: the scanners call them once or more per character, and module
// transforms such as Vite's (vitest) turn every imported binding into a property read on a
// module object, which made the scan several times slower than with local functions.

const SPACE = 32;
const PERCENT = 37;
const OPEN_PAREN = 40;
const CLOSE_PAREN = 41;
const PLUS = 43;
const DASH = 45;
const DOT = 46;
const ONE = 49;
const UNDERSCORE = 95;

/**
 * The code unit at i, or -1 outside the string. charCodeAt itself returns NaN there, a double
 * rather than a small integer, and V8 then deoptimizes the hot loops; every read that may run
 * past either end goes through this.
 */
function codeAt(text: string, i: number): number {
  return i >= 0 && i < text.length ? text.charCodeAt(i) : -1;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isAsciiLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** Regex `\w`: letters, digits, underscore. A match must not touch one on either side. */
function isWordChar(c: number): boolean {
  return isDigit(c) || isAsciiLetter(c) || c === UNDERSCORE;
}

// ---------------------------------------------------------------------------------------------
// EMAIL: local part [A-Za-z0-9._%+-]{1,64}, '@', labels of [A-Za-z0-9-] (1..63, no leading or
// trailing '-') joined by '.', at least two labels, the last one (TLD) >= 2 letters; the whole
// domain at most 253 characters. A TLD may be followed by '-' ("hi@example.com-"), as a regex's
// \b allows.

const MAX_LOCAL = 64;
const MAX_DOMAIN = 253;
const MAX_LABEL = 63;

function isLocalChar(c: number): boolean {
  return isDigit(c) || isAsciiLetter(c) || c === DOT || c === UNDERSCORE || c === PERCENT || c === PLUS || c === DASH;
}

function isLabelChar(c: number): boolean {
  return isDigit(c) || isAsciiLetter(c) || c === DASH;
}

function scanEmails(text: string, out: RawMatch[]): void {
  for (let at = text.indexOf("@"); at !== -1; at = text.indexOf("@", at + 1)) {
    // Local part: at most 64 characters back. A longer run still yields its last 64 (the safe
    // side for a leak detector); a leading '.' is never part of an address.
    const floor = Math.max(0, at - MAX_LOCAL);
    let start = at;
    while (start > floor && isLocalChar(codeAt(text, start - 1))) start--;
    while (start < at && codeAt(text, start) === DOT) start++;
    if (start === at) continue;
    const end = domainEnd(text, at + 1);
    if (end === -1) continue;
    out.push({ type: "EMAIL", value: text.slice(start, end), index: start });
  }
}

/** End (exclusive) of the longest valid domain starting at `from`, or -1. Reads <= 253 chars. */
function domainEnd(text: string, from: number): number {
  const limit = Math.min(text.length, from + MAX_DOMAIN);
  let best = -1;
  let labels = 0;
  let labelStart = from;
  let lettersOnly = true;
  for (let i = from; ; i++) {
    const c = i < limit ? codeAt(text, i) : -1;
    if (c !== -1 && isLabelChar(c)) {
      if (!isAsciiLetter(c)) {
        // "hi@example.com-": the letters before a dash are a whole TLD (the dash is not part of
        // the address, as in "hi@example.com-or call"); a longer domain may still follow.
        if (lettersOnly && c === DASH && labels >= 1 && i - labelStart >= 2 && i - labelStart <= MAX_LABEL) best = i;
        lettersOnly = false;
      }
      continue;
    }
    // A label ends at i. If the 253-character cap cut it, it is not a whole label: stop.
    if (i === limit && limit < text.length && isLabelChar(codeAt(text, limit))) return best;
    const len = i - labelStart;
    if (len === 0 || len > MAX_LABEL) return best;
    if (codeAt(text, labelStart) === DASH || codeAt(text, i - 1) === DASH) return best;
    labels++;
    if (labels >= 2 && lettersOnly && len >= 2) best = i;
    // Continue only through a '.' that is followed by another label character.
    if (c !== DOT || i + 1 >= limit || !isLabelChar(codeAt(text, i + 1))) return best;
    labelStart = i + 1;
    lettersOnly = true;
  }
}

// ---------------------------------------------------------------------------------------------
// PHONE (US): [+1 | 1 followed by a separator] area exchange line, where
//   area     = DDD followed by one separator, or (DDD) optionally followed by one separator
//   exchange = DDD followed by one separator
//   line     = DDDD
//   separator is '-', '.' or ' '.  "+1" may also be followed directly by 10 digits (E.164).
// Ten bare digits ("4155551212") are not matched: too many order numbers and IDs look like that.
// A match must not touch a word character on either side, nor continue a longer digit sequence:
// on the left no digit + '-' or '.' ("12-415-555-1212") and no country code ("+27 415 555 1212"),
// on the right no '-' or '.' + digit ("415-555-1212-99"). Spaces between numbers are allowed, so
// "415-555-1212 212-555-0100" is two phones.

function isPhoneSep(c: number): boolean {
  return c === DASH || c === DOT || c === SPACE;
}

function digitsAt(text: string, at: number, count: number): boolean {
  if (at + count > text.length) return false;
  for (let i = at; i < at + count; i++) if (!isDigit(codeAt(text, i))) return false;
  return true;
}

function scanPhones(text: string, out: RawMatch[]): void {
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = codeAt(text, i);
    if (!(isDigit(c) || c === PLUS || c === OPEN_PAREN)) continue;
    if (i > 0) {
      const prev = codeAt(text, i - 1);
      if (isWordChar(prev) || prev === PLUS) continue;
      // "12-415-555-1212": a dash or dot right after a digit continues a longer number.
      if ((prev === DASH || prev === DOT) && i >= 2 && isDigit(codeAt(text, i - 2))) continue;
      // "+27 415 555 1212": the tail of an international number, not a US phone.
      if (prev === SPACE && followsCountryCode(text, i - 1)) continue;
    }
    const end = phoneEnd(text, i);
    if (end === -1) continue;
    out.push({ type: "PHONE", value: text.slice(i, end), index: i });
    i = end - 1;
  }
}

/** Whether the space at `space` follows "+" and 1-3 digits (a country code). Reads <= 4 chars. */
function followsCountryCode(text: string, space: number): boolean {
  let k = space - 1;
  while (k >= 0 && space - k <= 3 && isDigit(codeAt(text, k))) k--;
  return k < space - 1 && k >= 0 && codeAt(text, k) === PLUS;
}

/**
 * End (exclusive) of a US phone number starting exactly at `start`, or -1. Reads <= 18 chars.
 * codeAt past the end is -1, so every comparison there is simply false. (No local arrow helpers
 * in this hot path: some transpilers wrap each closure creation in a naming call.)
 */
function phoneEnd(text: string, start: number): number {
  let p = start;
  if (codeAt(text, p) === PLUS) {
    if (codeAt(text, p + 1) !== ONE) return -1;
    p += 2;
    if (digitsAt(text, p, 10)) return rightBoundaryOk(text, p + 10) ? p + 10 : -1;
    if (isPhoneSep(codeAt(text, p))) p++;
  } else if (
    codeAt(text, p) === ONE &&
    isPhoneSep(codeAt(text, p + 1)) &&
    (isDigit(codeAt(text, p + 2)) || codeAt(text, p + 2) === OPEN_PAREN)
  ) {
    p += 2; // "1-415-…" / "1 (415) …": a leading 1 cannot start an area code followed by a separator
  }
  if (codeAt(text, p) === OPEN_PAREN) {
    if (!digitsAt(text, p + 1, 3) || codeAt(text, p + 4) !== CLOSE_PAREN) return -1;
    p += 5;
    if (isPhoneSep(codeAt(text, p))) p++;
  } else {
    if (!digitsAt(text, p, 3) || !isPhoneSep(codeAt(text, p + 3))) return -1;
    p += 4;
  }
  if (!digitsAt(text, p, 3) || !isPhoneSep(codeAt(text, p + 3))) return -1;
  p += 4;
  if (!digitsAt(text, p, 4)) return -1;
  p += 4;
  return rightBoundaryOk(text, p) ? p : -1;
}

function rightBoundaryOk(text: string, end: number): boolean {
  if (end >= text.length) return true;
  const c = codeAt(text, end);
  if (isWordChar(c)) return false;
  return !((c === DASH || c === DOT) && isDigit(codeAt(text, end + 1)));
}

// ---------------------------------------------------------------------------------------------
// CREDIT_CARD: 13-19 digits that pass Luhn, either one unbroken run or groups joined by a single
// space or dash (the same separator throughout, first group of 4 digits, every group 3-6 digits:
// 4-4-4-4, 4-4-4-4-3, 4-6-5, 4-6-4 ...). Not matched:
// - digits touching a word character ("order12345678903", "ABC4111111111111XYZ");
// - an unbroken run longer than 19 digits (the card would be inside a longer number);
// - an unbroken run of 13, 16 or 19 digits starting with '1': Unix timestamps in milliseconds,
//   microseconds and nanoseconds (1732233600000). No card network issues 13-, 16- or 19-digit
//   numbers starting with 1 (only UATP uses a leading 1, with 15 digits).

const MIN_CARD = 13;
const MAX_CARD = 19;

function scanCards(text: string, out: RawMatch[]): void {
  const n = text.length;
  // Group k of the current run spans [starts[k], ends[k]); reused from run to run.
  const starts: number[] = [];
  const ends: number[] = [];
  for (let i = 0; i < n; i++) {
    if (!isDigit(codeAt(text, i))) continue;
    if (i > 0 && isWordChar(codeAt(text, i - 1))) {
      // Inside a word or a longer number: skip the rest of this word in one go.
      while (i + 1 < n && isWordChar(codeAt(text, i + 1))) i++;
      continue;
    }
    // Collect the maximal run of digit groups joined by single separators.
    let count = 0;
    let j = i;
    for (;;) {
      starts[count] = j;
      while (j < n && isDigit(codeAt(text, j))) j++;
      ends[count] = j;
      count++;
      const sep = codeAt(text, j);
      if ((sep === SPACE || sep === DASH) && isDigit(codeAt(text, j + 1))) {
        j++;
        continue;
      }
      break;
    }
    // A last group glued to a word ("… 1111XYZ") is part of that word, not of a number.
    const usable = j < n && isWordChar(codeAt(text, j)) ? count - 1 : count;
    findCards(text, starts, ends, usable, out);
    i = j; // the outer loop's i++ then looks past the character that ended the run
    while (i < n && isWordChar(codeAt(text, i))) i++;
  }
}

/** Greedy, left to right: from each group, the longest valid span of groups wins. */
function findCards(text: string, starts: number[], ends: number[], usable: number, out: RawMatch[]): void {
  let s = 0;
  while (s < usable) {
    const firstLen = (ends[s] as number) - (starts[s] as number);
    if (firstLen !== 4 && firstLen < MIN_CARD) {
      s++; // neither a whole card nor the 4-digit head of a grouped one
      continue;
    }
    let bestEnd = -1;
    let digits = 0;
    let sep = -1;
    for (let e = s; e < usable; e++) {
      const len = (ends[e] as number) - (starts[e] as number);
      digits += len;
      if (digits > MAX_CARD) break;
      if (e > s) {
        // Grouped form: consistent separator, 4-digit first group, 3..6-digit groups.
        const thisSep = codeAt(text, (starts[e] as number) - 1);
        if (sep === -1) sep = thisSep;
        else if (thisSep !== sep) break;
        if (firstLen !== 4 || len < 3 || len > 6) break;
      }
      if (digits >= MIN_CARD && isCardNumber(text, starts, ends, s, e, digits)) bestEnd = e;
    }
    if (bestEnd === -1) {
      s++;
      continue;
    }
    const from = starts[s] as number;
    const to = ends[bestEnd] as number;
    out.push({ type: "CREDIT_CARD", value: text.slice(from, to), index: from });
    s = bestEnd + 1;
  }
}

/** Luhn over the digits of groups s..e, read in place (no string is built for a candidate). */
function isCardNumber(text: string, starts: number[], ends: number[], s: number, e: number, digits: number): boolean {
  if (s === e && codeAt(text, starts[s] as number) === ONE && (digits === 13 || digits === 16 || digits === 19)) {
    return false; // a Unix timestamp (ms / µs / ns), see above
  }
  let sum = 0;
  let double = false;
  for (let k = e; k >= s; k--) {
    for (let i = (ends[k] as number) - 1; i >= (starts[k] as number); i--) {
      const d = codeAt(text, i) - 48;
      if (double) sum += d > 4 ? d * 2 - 9 : d * 2;
      else sum += d;
      double = !double;
    }
  }
  return sum % 10 === 0;
}
