// SSN: US Social Security numbers, AAA-GG-SSSS.
//
// Found when written the way people write them:
// - with separators: "123-45-6789" or "123 45 6789" (the same separator twice);
// - as nine bare digits only when labelled: "SSN 123456789", "social security number is
//   123456789", {"ssn": "123456789"} (pii-label.ts). Nine bare digits anywhere else are far more
//   often an employee id, a routing number, an invoice or a ticket than an SSN.
// Never issued, so never matched: area 000, 666 or 900-999 (900-999 also covers ITINs and the
// 987-65-432x advertising block), group 00, serial 0000.
// Not matched either: digits inside a longer run ("123-45-6789-01", "12-123-45-6789"), a spaced
// form inside a row of numbers ("… 123 45 6789 12"), and a number labelled, right before it, as
// a part, SKU, serial or model number ("Part 123-45-6789").
// Linear: one pass; each attempt at a digit reads at most 11 characters, and the label (read
// only for a candidate) at most 64.

import * as chars from "./pii-chars";
import { labelBefore, labelledAs, NAMING_FILLERS } from "./pii-label";
import type { RawMatch } from "./pii-scan";

// Bound once at load: under vitest's module transform every imported name is a getter read per
// call, which made these per-character scans several times slower (pii-chars.ts).
const { codeAt, DASH, DOT, digitsAt, isDigit, isWordChar, SPACE } = chars;

/**
 * What a serial or part number is called: a number so labelled, right before it ("Part No.
 * 555-123-4567", "SKU 300-555-1234"), is not PII (shared with phones). Only words that name such
 * an identifier and hardly ever stand before a number otherwise.
 */
export const NOT_PERSONAL_LABELS: ReadonlySet<string> = new Set([
  "part",
  "p/n",
  "pn",
  "sku",
  "serial",
  "s/n",
  "sn",
  "model",
]);

/** The value of `count` digits at `at` (they are known to be digits). */
function numberAt(text: string, at: number, count: number): number {
  let n = 0;
  for (let i = at; i < at + count; i++) n = n * 10 + (text.charCodeAt(i) - 48);
  return n;
}

/** Whether the nine digits at area / group / serial positions could have been issued. */
function issuable(text: string, area: number, group: number, serial: number): boolean {
  const a = numberAt(text, area, 3);
  if (a === 0 || a === 666 || a >= 900) return false;
  return numberAt(text, group, 2) !== 0 && numberAt(text, serial, 4) !== 0;
}

function isSsnLabel(text: string, start: number): boolean {
  const label = labelBefore(text, start);
  if (label === null) return false;
  return label.word === "ssn" || (label.word === "security" && label.previous === "social");
}

/** Whether `end` ends a number: no word character, and no '-' / '.' (or `sep`) + digit, follows. */
function endsNumber(text: string, end: number, sep: number): boolean {
  const c = codeAt(text, end);
  if (isWordChar(c)) return false;
  return !((c === DASH || c === DOT || c === sep) && isDigit(codeAt(text, end + 1)));
}

export function scanSsns(text: string, out: RawMatch[]): void {
  const n = text.length;
  for (let i = 0; i < n; i++) {
    if (!isDigit(text.charCodeAt(i))) continue;
    const prev = codeAt(text, i - 1);
    const chained = (prev === DASH || prev === DOT || prev === SPACE) && isDigit(codeAt(text, i - 2));
    if (!isWordChar(prev)) {
      const end = ssnEnd(text, i, chained, prev);
      if (end !== -1) {
        out.push({ type: "SSN", value: text.slice(i, end), index: i });
        i = end - 1;
        continue;
      }
    }
    while (i + 1 < n && isDigit(text.charCodeAt(i + 1))) i++; // the rest of this digit run
  }
}

/** End (exclusive) of an SSN starting exactly at `start`, or -1. */
function ssnEnd(text: string, start: number, chained: boolean, prev: number): number {
  if (!digitsAt(text, start, 3)) return -1;
  const sep = codeAt(text, start + 3);
  if (sep === DASH || sep === SPACE) {
    // "12-123-45-6789" continues a longer number; so does "… 12 123 45 6789" for the spaced form.
    if (chained && (prev !== SPACE || sep === SPACE)) return -1;
    if (!digitsAt(text, start + 4, 2) || codeAt(text, start + 6) !== sep || !digitsAt(text, start + 7, 4)) return -1;
    const end = start + 11;
    if (!endsNumber(text, end, sep === SPACE ? SPACE : -1)) return -1;
    if (!issuable(text, start, start + 4, start + 7)) return -1;
    return labelledAs(text, start, NOT_PERSONAL_LABELS, NAMING_FILLERS) ? -1 : end;
  }
  if (chained || !digitsAt(text, start + 3, 6)) return -1;
  const end = start + 9;
  if (!endsNumber(text, end, -1) || !issuable(text, start, start + 3, start + 5)) return -1;
  return isSsnLabel(text, start) ? end : -1;
}
