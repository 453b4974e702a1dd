// PHONE: US numbers in the ways people write them, and international numbers with a country code.
//
// US (NANP), at a start that does not continue a word or a longer number:
//   [+1 | 1 followed by a separator] area exchange line, where
//     area     = DDD followed by one separator, or (DDD) optionally followed by one separator
//     exchange = DDD followed by one separator, then line = DDDD   ("415-555-1212")
//     or exchange and line as 7 unbroken digits                      ("415-5551212", NANP-valid)
//   separator is '-', '.' or ' '; "+1" may also be followed directly by 10 digits (E.164).
// Ten bare digits ("4155551212") count only when labelled as a phone ("Tel:4155551212",
// "call me at 4155551212") and NANP-valid (area and exchange start with 2-9): unlabelled, order
// numbers, epoch seconds and ids look exactly like that.
// An extension after the number is not part of the value: "415-555-1212 x204", "…1212x204",
// "…1212 ext. 12" and "415-555-1212-99" (a dash and 1-5 digits) are the phone 415-555-1212.
// A '.' + digit after it ("415.555.1212.5") continues a version-like number: not a phone.
//
// International: '+', a country code (ITU: 1 and 7 have one digit, the two-digit codes are
// listed below, every other code has three), then the national number in groups of digits
// joined by single separators (' ', '-' or '.', where dots may not mix with the others:
// "+48.8566 2.3522" is a coordinate), optionally with a parenthesised group first ("+44 (0)20 …",
// "+49 (30) …"); at least 6 national digits (a "(0)" trunk prefix not counted) and 9-15 digits in
// all, or unbroken E.164 ("+442079460958", 10-15 digits). "+1" numbers take the US grammar (or 10
// national digits). Groups are taken greedily up to 15 digits.
//
// A US-shaped number labelled as a part, SKU, serial … ("Part number 555-123-4567") is not a
// phone (pii-ssn.ts: NOT_PERSONAL_LABELS). Linear: one pass; each attempt reads at most ~40
// characters (the longest grammar), a label at most 64.

import * as chars from "./pii-chars";
import { labelledAs, NAMING_FILLERS } from "./pii-label";
import type { RawMatch } from "./pii-scan";
import { NOT_PERSONAL_LABELS } from "./pii-ssn";

// Bound once at load: under vitest's module transform every imported name is a getter read per
// call, which made these per-character scans several times slower (pii-chars.ts).
const { codeAt, DASH, DOT, digitsAt, isDigit, isWordChar, ONE, PLUS, SPACE } = chars;

const OPEN_PAREN = 40;
const CLOSE_PAREN = 41;
const LOWER_X = 120;

/** E.164 allows 15 digits in all, country code included. */
const MAX_DIGITS = 15;
const MIN_INTERNATIONAL_DIGITS = 9;
const MIN_NATIONAL_DIGITS = 6;
const MAX_GROUP = 10;
const MAX_EXTENSION = 6;
const MAX_DASH_EXTENSION = 5;

/** Words that label a bare 10-digit number as a phone. */
const PHONE_LABELS: ReadonlySet<string> = new Set([
  "tel",
  "telephone",
  "phone",
  "ph",
  "mobile",
  "mob",
  "cell",
  "cellphone",
  "fax",
  "call",
  "callback",
  "dial",
  "text",
  "sms",
  "whatsapp",
  "landline",
]);

/** The two-digit country codes (ITU-T E.164 assignments); 1 and 7 have one digit, the rest three. */
const TWO_DIGIT_CODES: ReadonlySet<number> = new Set([
  20, 27, 30, 31, 32, 33, 34, 36, 39, 40, 41, 43, 44, 45, 46, 47, 48, 49, 51, 52, 53, 54, 55, 56, 57, 58, 60, 61, 62,
  63, 64, 65, 66, 81, 82, 84, 86, 90, 91, 92, 93, 94, 95, 98,
]);

function isPhoneSep(c: number): boolean {
  return c === DASH || c === DOT || c === SPACE;
}

/** Length of the digit run at `at`, read up to `max` + 1 digits. */
function runLength(text: string, at: number, max: number): number {
  let k = at;
  while (k - at <= max && isDigit(codeAt(text, k))) k++;
  return k - at;
}

export function scanPhones(text: string, out: RawMatch[]): void {
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (!(isDigit(c) || c === PLUS || c === OPEN_PAREN)) continue;
    if (i > 0) {
      const prev = text.charCodeAt(i - 1);
      // "Tel(415) 555-1212": an opening parenthesis separates even when glued to a word.
      if ((isWordChar(prev) && c !== OPEN_PAREN) || prev === PLUS) continue;
      if (c === OPEN_PAREN && isDigit(prev)) continue;
      // "12-415-555-1212": a dash or dot right after a digit continues a longer number.
      if ((prev === DASH || prev === DOT) && isDigit(codeAt(text, i - 2))) continue;
      // "+27 415 555 1212": the tail of an international number, not a US phone.
      if (prev === SPACE && followsCountryCode(text, i - 1)) continue;
    }
    // "+1 …" is tried as a US number first, any other "+…" as an international one.
    const plusOne = c === PLUS && codeAt(text, i + 1) === ONE;
    let end = c === PLUS && !plusOne ? internationalEnd(text, i) : usEnd(text, i);
    // Only the plain shape "415-555-1212" can be a part or serial number; "(415) …" and "+1 …" are phones.
    const plain = end !== -1 && c !== PLUS && c !== OPEN_PAREN && !(c === ONE && isPhoneSep(codeAt(text, i + 1)));
    if (end === -1) end = plusOne ? internationalEnd(text, i) : labelledBareEnd(text, i);
    if (end === -1 || (plain && labelledAs(text, i, NOT_PERSONAL_LABELS, NAMING_FILLERS))) continue;
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

/** Whether the digits at `at` (first digit 2-9) look like a NANP area or exchange code. */
function nanpCode(text: string, at: number): boolean {
  return codeAt(text, at) >= 50; // '2'..'9' (the caller knows it is a digit)
}

/**
 * End (exclusive) of a US phone number starting exactly at `start`, or -1. Reads <= 20 chars.
 * codeAt past the end is -1, so every comparison there is simply false. (No local arrow helpers
 * in this hot path: some transpilers wrap each closure creation in a naming call.)
 */
function usEnd(text: string, start: number): number {
  let p = start;
  if (codeAt(text, p) === PLUS) {
    if (codeAt(text, p + 1) !== ONE) return -1;
    p += 2;
    if (digitsAt(text, p, 10)) return numberEnd(text, p + 10);
    if (isPhoneSep(codeAt(text, p))) p++;
  } else if (
    codeAt(text, p) === ONE &&
    isPhoneSep(codeAt(text, p + 1)) &&
    (isDigit(codeAt(text, p + 2)) || codeAt(text, p + 2) === OPEN_PAREN)
  ) {
    p += 2; // "1-415-…" / "1 (415) …": a leading 1 cannot start an area code followed by a separator
  }
  const areaAt = codeAt(text, p) === OPEN_PAREN ? p + 1 : p;
  if (codeAt(text, p) === OPEN_PAREN) {
    if (!digitsAt(text, p + 1, 3) || codeAt(text, p + 4) !== CLOSE_PAREN) return -1;
    p += 5;
    if (isPhoneSep(codeAt(text, p))) p++;
  } else {
    if (!digitsAt(text, p, 3) || !isPhoneSep(codeAt(text, p + 3))) return -1;
    p += 4;
  }
  if (digitsAt(text, p, 3) && isPhoneSep(codeAt(text, p + 3)) && digitsAt(text, p + 4, 4)) {
    return numberEnd(text, p + 8);
  }
  // "415-5551212": seven unbroken digits after the area code (not after a dot: "v1.415.5551212").
  const sep = codeAt(text, p - 1);
  if (sep === DOT || !digitsAt(text, p, 7) || !nanpCode(text, areaAt) || !nanpCode(text, p)) return -1;
  return numberEnd(text, p + 7);
}

/** Ten (or 1 + ten) bare digits labelled as a phone, NANP-valid: its end, or -1. */
function labelledBareEnd(text: string, start: number): number {
  const run = runLength(text, start, 11);
  const at = run === 11 && codeAt(text, start) === ONE ? start + 1 : start;
  if (at + 10 !== start + run || !nanpCode(text, at) || !nanpCode(text, at + 3)) return -1;
  const end = numberEnd(text, start + run);
  return end !== -1 && labelledAs(text, start, PHONE_LABELS) ? end : -1;
}

/**
 * Where the phone that ends at `end` ends, or -1 when what follows makes it part of something
 * else. A word character may follow only as an extension ("x204", "ext. 12"), a dash and digits
 * only as one ("-99"); the extension is not part of the value.
 */
function numberEnd(text: string, end: number): number {
  const c = codeAt(text, end);
  if (c === -1) return end;
  if (isWordChar(c)) return extensionFollows(text, end) ? end : -1;
  if (c === DOT && isDigit(codeAt(text, end + 1))) return -1;
  if (c === DASH && isDigit(codeAt(text, end + 1))) {
    const run = runLength(text, end + 1, MAX_DASH_EXTENSION);
    if (run > MAX_DASH_EXTENSION) return -1;
    const after = codeAt(text, end + 1 + run);
    return isWordChar(after) || ((after === DASH || after === DOT) && isDigit(codeAt(text, end + 2 + run))) ? -1 : end;
  }
  return end;
}

/** "x204" / "ext204" / "ext. 12" / "ext 12" right at `at`, ending a word. */
function extensionFollows(text: string, at: number): boolean {
  let p = at;
  const c = codeAt(text, p) | 0x20; // lower case
  if (c === LOWER_X) p++;
  else if (c === 101 && (codeAt(text, p + 1) | 0x20) === LOWER_X && (codeAt(text, p + 2) | 0x20) === 116) {
    p += 3; // "ext"
    if (codeAt(text, p) === DOT) p++;
    if (codeAt(text, p) === SPACE) p++;
  } else {
    return false;
  }
  const run = runLength(text, p, MAX_EXTENSION);
  return run >= 1 && run <= MAX_EXTENSION && !isWordChar(codeAt(text, p + run));
}

/** How many digits the country code starting with digits d1 d2 has (ITU-T E.164 zones). */
function countryCodeLength(d1: number, d2: number): number {
  if (d1 === 1 || d1 === 7) return 1;
  return TWO_DIGIT_CODES.has(d1 * 10 + d2) ? 2 : 3;
}

/** End (exclusive) of an international number at the '+' at `start`, or -1. Reads <= 40 chars. */
function internationalEnd(text: string, start: number): number {
  const first = start + 1;
  const firstLen = runLength(text, first, MAX_DIGITS);
  if (firstLen === 0 || codeAt(text, first) === 48) return -1; // no country code starts with 0
  const cc = countryCodeLength(codeAt(text, first) - 48, codeAt(text, first + 1) - 48);
  if (firstLen < cc || firstLen > MAX_DIGITS) return -1;
  // "+1" numbers that usEnd did not take: only "+1" and ten national digits ("+1 4155551212").
  const us = cc === 1 && codeAt(text, first) === ONE;
  if (us && firstLen !== 1) return -1;
  let p = first + firstLen;
  const next = codeAt(text, p);
  const grouped =
    next === OPEN_PAREN || (isPhoneSep(next) && (isDigit(codeAt(text, p + 1)) || codeAt(text, p + 1) === OPEN_PAREN));
  if (!grouped) {
    // Unbroken E.164: "+442079460958" (the US "+14155551212" is usEnd's).
    if (us || firstLen < 10) return -1;
    return numberEnd(text, p);
  }
  let digits = firstLen;
  let trunk = 0; // a "(0)" after the country code is dialled at home only
  let dots = -1; // -1: no separator seen yet; 1: dots; 0: other separators
  // Optional "(0)" / "(30)" right after the country code's separator (or glued to the code).
  let q = p;
  if (isPhoneSep(codeAt(text, q))) {
    dots = codeAt(text, q) === DOT ? 1 : 0;
    q++;
  }
  if (codeAt(text, q) === OPEN_PAREN) {
    const len = runLength(text, q + 1, 4);
    if (len === 0 || len > 4 || codeAt(text, q + 1 + len) !== CLOSE_PAREN) return -1;
    if (len === 1 && codeAt(text, q + 1) === 48) trunk = 1;
    digits += len;
    p = q + 2 + len;
    const after = codeAt(text, p);
    if (isPhoneSep(after) && isDigit(codeAt(text, p + 1))) {
      if (dots !== -1 && (after === DOT) !== (dots === 1)) return -1;
      dots = after === DOT ? 1 : 0;
      p++;
    } else if (!isDigit(after)) {
      return -1;
    }
    const len2 = runLength(text, p, MAX_GROUP);
    if (len2 === 0 || len2 > MAX_GROUP || digits + len2 > MAX_DIGITS) return -1;
    digits += len2;
    p += len2;
  }
  // Further groups, each after one separator, while the total stays within 15 digits.
  for (;;) {
    const sep = codeAt(text, p);
    if (!isPhoneSep(sep) || !isDigit(codeAt(text, p + 1))) break;
    if (dots !== -1 && (sep === DOT) !== (dots === 1)) break; // dots never mix with other separators
    const len = runLength(text, p + 1, MAX_GROUP);
    if (len > MAX_GROUP || digits + len > MAX_DIGITS) break;
    dots = sep === DOT ? 1 : 0;
    digits += len;
    p += 1 + len;
  }
  const national = digits - cc - trunk;
  if (us ? national !== 10 : national < MIN_NATIONAL_DIGITS || digits - trunk < MIN_INTERNATIONAL_DIGITS) return -1;
  if (p === first + firstLen) return -1;
  return numberEnd(text, p);
}
