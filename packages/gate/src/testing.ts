// Test support shared by the suites that prove "PII is judged on what people read" (the gate's,
// the turn pipeline's, the web routes'): PII samples, every character that can stand next to one,
// and which of those characters make the text another value by the scanner's own rules; and the
// scoring of the labelled PII corpus.

import { PII_TYPES, type TPiiType } from "@solserver/contracts";
import { NOT_CARD_LABELS } from "./pii-card";
import { jsonStrings } from "./pii-read";
import { scanPii } from "./pii-scan";
import { NOT_PERSONAL_LABELS } from "./pii-ssn";

export type TPiiSample = { type: TPiiType; value: string };

/**
 * An email, phones in several US and international formats, card numbers (all Luhn-valid) in
 * several groupings, SSNs with either separator.
 */
export const PII_SAMPLES: readonly TPiiSample[] = [
  { type: "EMAIL", value: "jane.doe@example.com" },
  { type: "PHONE", value: "415-555-1212" },
  { type: "PHONE", value: "(415) 555-1212" },
  { type: "PHONE", value: "415.555.1212" },
  { type: "PHONE", value: "415 555 1212" },
  { type: "PHONE", value: "+1 415 555 1212" },
  { type: "PHONE", value: "1-415-555-1212" },
  { type: "PHONE", value: "+14155551212" },
  { type: "PHONE", value: "415-5551212" },
  { type: "PHONE", value: "+44 20 7946 0958" },
  { type: "CREDIT_CARD", value: "4111111111111111" },
  { type: "CREDIT_CARD", value: "4111 1111 1111 1111" },
  { type: "CREDIT_CARD", value: "5555-5555-5555-4444" },
  { type: "CREDIT_CARD", value: "6011111111111117" },
  { type: "CREDIT_CARD", value: "378282246310005" },
  { type: "CREDIT_CARD", value: "4222 2222 2222 2" },
  { type: "SSN", value: "123-45-6789" },
  { type: "SSN", value: "123 45 6789" },
];

/**
 * The words that, right before a number, say it is not PII ("Part 555-123-4567", "IMEI
 * 490154203237518"; docs/gate.md). Random prose around a sample must leave them out, or the
 * sample it precedes is rightly not found.
 */
export const NOT_PII_LABELS: ReadonlySet<string> = new Set([...NOT_PERSONAL_LABELS, ...NOT_CARD_LABELS]);

/** The characters named for a neighbour, with a name for messages (e.g. "U+200B"). */
export type TNeighbour = { char: string; name: string };

const named = (char: string): TNeighbour => ({
  char,
  name: `U+${(char.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, "0")}`,
});

function formatCharacters(): string[] {
  const cf = /\p{Cf}/u;
  const out: string[] = [];
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const char = String.fromCodePoint(cp);
    if (cf.test(char)) out.push(char);
  }
  return out;
}

/**
 * Every character that can precede or follow a value: all of U+0000-U+007F, the C1 controls
 * U+0080-U+009F, every format character (Unicode Cf, from the running engine's Unicode tables),
 * the lone surrogates U+D800 and U+DC00, and the full-width digits and '@' (U+FF10-U+FF19, U+FF20).
 */
export function piiNeighbours(): TNeighbour[] {
  const chars: string[] = [];
  for (let cp = 0; cp <= 0x9f; cp++) chars.push(String.fromCharCode(cp));
  chars.push(...formatCharacters(), "\uD800", "\uDC00");
  for (let cp = 0xff10; cp <= 0xff19; cp++) chars.push(String.fromCharCode(cp));
  chars.push("\uFF20");
  return chars.map(named);
}

/** An ASCII letter, digit or '_' once NFKC has folded it (full-width digits are digits). */
function isWordChar(char: string): boolean {
  const folded = char.normalize("NFKC");
  return folded.length === 1 && /^\w$/.test(folded);
}

function isDigit(char: string): boolean {
  return /^[0-9]$/.test(char.normalize("NFKC"));
}

/**
 * Whether `char` right before (or after) `sample` makes the text another token by the scanner's
 * documented rules (docs/gate.md), so that it is not that value as people read it either:
 *  - a letter, digit or '_' glued to a phone, card or SSN: "x415-555-1212" is an identifier,
 *    "0415-555-1212" and "41111111111111110" are longer numbers (full-width digits too: NFKC
 *    makes them digits);
 *  - '+' before a phone: "+415-555-1212" is an international number, not a US one;
 *  - a digit after an email: "…@example.com0" has no valid top-level domain.
 * Letters and the like before an email, or letters after it, are not excluded: they lengthen the
 * address, which is still found.
 */
export function gluesToSample(sample: TPiiSample, char: string, side: "before" | "after"): boolean {
  if (sample.type === "EMAIL") return side === "after" && isDigit(char);
  if (isWordChar(char)) return true;
  return sample.type === "PHONE" && side === "before" && char === "+";
}

// ---------------------------------------------------------------------------------------------
// The labelled PII corpus (test/fixtures/pii-corpus.jsonl): scored the same way by its test and
// by bench/pii-corpus.mjs, so the figures in docs/gate.md are the ones the test asserts.

export type TCorpusSplit = "tune" | "holdout";

export type TCorpusRow = {
  id: string;
  text: string;
  /** Every PII value in the text as people read it (after NFKC: full-width digits as ASCII). */
  expect: { type: TPiiType; value: string }[];
  /** "true" when the text holds PII; otherwise what the near miss is (timestamp, isbn, ip …). */
  kind: string;
  split: TCorpusSplit;
};

export type TTypeScore = { tp: number; fp: number; fn: number; precision: number | null; recall: number | null };

export type TCorpusScore = {
  /** Per split ("tune", "holdout", "all"), per PII type. */
  scores: Record<TCorpusSplit | "all", Record<TPiiType, TTypeScore>>;
  /** Every miss and every false find, for messages: "holdout FN pii-042 PHONE +44 20 …". */
  errors: string[];
};

/**
 * The split a snippet belongs to: FNV-1a (32 bit) of its id, 3 in 5 to "tune". Deterministic and
 * independent of the other rows, so adding a snippet never moves another one between splits.
 */
export function corpusSplit(id: string): TCorpusSplit {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % 5 < 3 ? "tune" : "holdout";
}

/**
 * Scans every row as the PII policy reads output (JSON-shaped text as its decoded strings) and
 * scores the finds per type: a find is a true positive when an expected value of the same type
 * and the same text is still unmatched in its row, else a false positive; expected values left
 * unmatched are false negatives. Precision / recall are null when undefined (nothing found /
 * nothing to find).
 */
export function scorePiiCorpus(rows: readonly TCorpusRow[]): TCorpusScore {
  const empty = (): Record<TPiiType, TTypeScore> =>
    Object.fromEntries(PII_TYPES.map((t) => [t, { tp: 0, fp: 0, fn: 0, precision: null, recall: null }])) as Record<
      TPiiType,
      TTypeScore
    >;
  const scores = { tune: empty(), holdout: empty(), all: empty() };
  const errors: string[] = [];
  for (const row of rows) {
    const bump = (type: TPiiType, field: "tp" | "fp" | "fn") => {
      scores[row.split][type][field]++;
      scores.all[type][field]++;
    };
    const left = [...row.expect];
    for (const found of scanPii(jsonStrings(row.text) ?? row.text)) {
      const i = left.findIndex((e) => e.type === found.type && e.value === found.value);
      if (i === -1) {
        bump(found.type, "fp");
        errors.push(`${row.split} FP ${row.id} ${found.type} ${found.value} (${row.kind})`);
      } else {
        bump(found.type, "tp");
        left.splice(i, 1);
      }
    }
    for (const missed of left) {
      bump(missed.type, "fn");
      errors.push(`${row.split} FN ${row.id} ${missed.type} ${missed.value}`);
    }
  }
  for (const split of Object.values(scores)) {
    for (const s of Object.values(split)) {
      s.precision = s.tp + s.fp === 0 ? null : s.tp / (s.tp + s.fp);
      s.recall = s.tp + s.fn === 0 ? null : s.tp / (s.tp + s.fn);
    }
  }
  return { scores, errors };
}

/** Parses the corpus file's text (JSON Lines; blank lines ignored). */
export function parsePiiCorpus(jsonl: string): TCorpusRow[] {
  return jsonl
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as TCorpusRow);
}
