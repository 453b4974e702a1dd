// Character codes and classes the PII detectors share (pii-card, pii-email, pii-phone, pii-ssn):
// ASCII only on purpose: pii-read.ts has already folded full-width digits and other look-alikes
// to ASCII, so the detectors never see them.

export const SPACE = 32;
export const PLUS = 43;
export const DASH = 45;
export const DOT = 46;
export const ONE = 49;
export const UNDERSCORE = 95;

/** The UTF-16 unit at `i`, or -1 outside the text (so a boundary check needs no length test). */
export function codeAt(text: string, i: number): number {
  return i >= 0 && i < text.length ? text.charCodeAt(i) : -1;
}

export function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

export function isAsciiLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** A character that glues to a number or a word (a value next to one is part of something else). */
export function isWordChar(c: number): boolean {
  return isDigit(c) || isAsciiLetter(c) || c === UNDERSCORE;
}

/** Whether `count` ASCII digits start at `at`. */
export function digitsAt(text: string, at: number, count: number): boolean {
  if (at + count > text.length) return false;
  for (let i = at; i < at + count; i++) if (!isDigit(text.charCodeAt(i))) return false;
  return true;
}
