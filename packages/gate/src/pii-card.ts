// CREDIT_CARD: 13-19 digits that pass Luhn, either one unbroken run or groups joined by single
// spaces or dashes (mixed separators too: "4111 1111-1111 1111"), the first group of 4 digits and
// every other group 3-6 digits (4-4-4-4, 4-4-4-4-3, 4-6-5, 4-6-4 …), or 4-4-4-1 for a 13-digit
// card ("4222 2222 2222 2"). Not matched:
// - digits touching a word character ("order12345678903", "ABC4111111111111XYZ"), or a run of
//   groups that continues an alphanumeric token ("DE89 3704 0044 0532 0130 00": an IBAN);
// - an unbroken run longer than 19 digits (the card would be inside a longer number), and a run
//   of 5+ four-digit groups longer than 20 digits ("9400 1118 9922 3397 3271 09": a USPS
//   tracking number; a 16-digit card with a trailing 3-4 digit group, a CVV or a year, has at
//   most 20);
// - an unbroken run of 13, 16 or 19 digits starting with '1': Unix timestamps in milliseconds,
//   microseconds and nanoseconds (1732233600000). No card network issues 13-, 16- or 19-digit
//   numbers starting with 1 (only UATP uses a leading 1, with 15 digits);
// - 13 unbroken digits starting with 978 or 979: an ISBN-13 / EAN (13-digit cards are Visa, '4');
// - 19 or 20 digits starting with 89: a SIM card's ICCID (telecom numbering, Luhn-checked too);
// - a number labelled, right before it, as what it is when that is not a card: IMEI (15 digits,
//   Luhn-checked), MEID, ICCID, ISBN/EAN/UPC/GTIN, tracking, loyalty, rewards and membership
//   numbers.
// Linear: each maximal run of digit groups is walked once, and from each group at most a handful
// of group spans (at most 19 digits) are tried; a label is read only for a candidate.

import * as chars from "./pii-chars";
import { labelledAs, NAMING_FILLERS } from "./pii-label";
import type { RawMatch } from "./pii-scan";

// Bound once at load: under vitest's module transform every imported name is a getter read per
// call, which made these per-character scans several times slower (pii-chars.ts).
const { codeAt, DASH, isDigit, isWordChar, ONE, SPACE } = chars;

const MIN_CARD = 13;
const MAX_CARD = 19;
/** A card and a trailing CVV / year group: more grouped digits than this are one long id. */
const MAX_CARD_AND_EXTRA = 20;

/**
 * What a Luhn-valid number is called, right before it, when it is not a payment card. Only
 * words that name such an identifier ("sim", "member" are left out: they stand before numbers
 * in ordinary sentences).
 */
export const NOT_CARD_LABELS: ReadonlySet<string> = new Set([
  "imei",
  "imeisv",
  "meid",
  "iccid",
  "isbn",
  "ean",
  "upc",
  "gtin",
  "tracking",
  "loyalty",
  "rewards",
  "membership",
]);

export function scanCards(text: string, out: RawMatch[]): void {
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
    if (!continuesToken(text, i) && !isLongGroupedId(starts, ends, count)) findCards(text, starts, ends, usable, out);
    i = j; // the outer loop's i++ then looks past the character that ended the run
    while (i < n && isWordChar(codeAt(text, i))) i++;
  }
}

/**
 * "DE89 3704 …": a run right after a separator that follows a token of letters and digits ending
 * in a digit (an IBAN's country code and check digits). Reads at most 8 characters back; "12/27
 * 4111 …" (a date before a card) does not count, its last token has no letter.
 */
function continuesToken(text: string, start: number): boolean {
  const sep = codeAt(text, start - 1);
  if (!(sep === SPACE || sep === DASH) || !isDigit(codeAt(text, start - 2))) return false;
  for (let k = start - 3; k >= 0 && k >= start - 10; k--) {
    const c = codeAt(text, k);
    if (!isWordChar(c)) return false;
    if (!isDigit(c)) return true;
  }
  return false;
}

/** Five or more groups, all but the last of exactly 4 digits, more than 20 digits in all. */
function isLongGroupedId(starts: number[], ends: number[], count: number): boolean {
  if (count < 5) return false;
  let digits = 0;
  for (let k = 0; k < count; k++) {
    const len = (ends[k] as number) - (starts[k] as number);
    if (k < count - 1 && len !== 4) return false;
    digits += len;
  }
  return digits > MAX_CARD_AND_EXTRA;
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
    for (let e = s; e < usable; e++) {
      const len = (ends[e] as number) - (starts[e] as number);
      digits += len;
      if (digits > MAX_CARD) break;
      if (e > s) {
        // Grouped form: 4-digit first group, 3..6-digit groups; or 4-4-4-1 (13 digits).
        if (firstLen !== 4) break;
        const lastOf13 = len === 1 && e === s + 3 && digits === MIN_CARD;
        if ((len < 3 || len > 6) && !lastOf13) break;
      }
      if (digits >= MIN_CARD && isCardNumber(text, starts, ends, s, e, digits)) bestEnd = e;
    }
    const from = starts[s] as number;
    if (bestEnd === -1 || labelledAs(text, from, NOT_CARD_LABELS, NAMING_FILLERS)) {
      s++;
      continue;
    }
    const to = ends[bestEnd] as number;
    out.push({ type: "CREDIT_CARD", value: text.slice(from, to), index: from });
    s = bestEnd + 1;
  }
}

/** Luhn over the digits of groups s..e, read in place (no string is built for a candidate). */
function isCardNumber(text: string, starts: number[], ends: number[], s: number, e: number, digits: number): boolean {
  const first = codeAt(text, starts[s] as number);
  if (s === e && first === ONE && (digits === 13 || digits === 16 || digits === 19)) {
    return false; // a Unix timestamp (ms / µs / ns), see above
  }
  const second = codeAt(text, (starts[s] as number) + 1);
  if (s === e && digits === 13 && first === 57 && second === 55) {
    const third = codeAt(text, (starts[s] as number) + 2);
    if (third === 56 || third === 57) return false; // 978… / 979…: an ISBN-13
  }
  if (first === 56 && second === 57 && digits >= 19) return false; // 89…: an ICCID
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
