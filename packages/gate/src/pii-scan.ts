// The PII scanner: emails, phone numbers (US and international), payment card numbers and US
// Social Security numbers in untrusted model output.
//
// scanPii() is the one entry point for every PII decision (the gate's PII policy, the stream
// guard of a streamed turn). It judges what people read, not the bytes: the text goes through
// readableText() (pii-read.ts: NFKC, dashes as '-', control and invisible characters as
// separators) and the detectors run on the result. Match values and indices therefore refer to
// that readable text; `source` says where a match is in the text as given.
//
// Linear time is a hard requirement (a model can be prompted into emitting adversarial text, and
// the gate runs on every turn), so there are no regular expressions. Each detector is a single
// left-to-right pass whose work per position is bounded by a constant (see each module):
// pii-email.ts, pii-phone.ts, pii-card.ts, pii-ssn.ts; the words that label a number
// ("SSN 523456789", "IMEI …") are read by pii-label.ts, only for a candidate and at most 64
// characters back. Overlaps between detectors are resolved afterwards (earliest start, then
// longest, wins). Character classes live in pii-chars.ts and
// each detector binds them to local constants once: the scanners call them once or more per
// character, and module transforms such as Vite's (vitest) turn every imported binding into a
// getter read per call, which made the scan several times slower.

import { PII_TYPES, type TPiiType } from "@solserver/contracts";
import { type CompiledAllowlist, compileAllowlist, isAllowlisted } from "./pii-allowlist";
import { scanCards } from "./pii-card";
import { scanEmails } from "./pii-email";
import { scanPhones } from "./pii-phone";
import { readableText, type TReadableText } from "./pii-read";
import { scanSsns } from "./pii-ssn";

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

/** A detector's finding in the readable text (before allowlisting and source mapping). */
export type RawMatch = { type: TPiiType; value: string; index: number };

/** The detectors over one reading: non-overlapping matches in order, allowlisted ones left out. */
function detect(read: TReadableText, types: readonly TPiiType[], allow: CompiledAllowlist): PiiMatch[] {
  const found: RawMatch[] = [];
  if (types.includes("EMAIL")) scanEmails(read.text, found);
  if (types.includes("PHONE")) scanPhones(read.text, found);
  if (types.includes("CREDIT_CARD")) scanCards(read.text, found);
  if (types.includes("SSN")) scanSsns(read.text, found);

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
