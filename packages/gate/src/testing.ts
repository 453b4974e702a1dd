// Test support shared by the suites that prove "PII is judged on what people read" (the gate's,
// the turn pipeline's, the web routes'): PII samples, every character that can stand next to one,
// and which of those characters make the text another value by the scanner's own rules.

import type { TPiiType } from "@solserver/contracts";

export type TPiiSample = { type: TPiiType; value: string };

/** An email, phones in several US formats, card numbers (all Luhn-valid) in several groupings. */
export const PII_SAMPLES: readonly TPiiSample[] = [
  { type: "EMAIL", value: "jane.doe@example.com" },
  { type: "PHONE", value: "415-555-1212" },
  { type: "PHONE", value: "(415) 555-1212" },
  { type: "PHONE", value: "415.555.1212" },
  { type: "PHONE", value: "415 555 1212" },
  { type: "PHONE", value: "+1 415 555 1212" },
  { type: "PHONE", value: "1-415-555-1212" },
  { type: "PHONE", value: "+14155551212" },
  { type: "CREDIT_CARD", value: "4111111111111111" },
  { type: "CREDIT_CARD", value: "4111 1111 1111 1111" },
  { type: "CREDIT_CARD", value: "5555-5555-5555-4444" },
  { type: "CREDIT_CARD", value: "6011111111111117" },
  { type: "CREDIT_CARD", value: "378282246310005" },
];

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
 *  - a letter, digit or '_' glued to a phone or card number: "x415-555-1212" is an identifier,
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
