// Similarity of two outputs for the drift policy's full mode: Jaccard index of token sets or of
// character n-gram sets. Both are O(n) (set building) and deterministic; neither needs a model.

export type SimilarityKind = "token_jaccard" | "char_ngram_jaccard";

/** 1 for identical sets (two empty texts are identical), 0 for disjoint ones. */
export function similarity(a: string, b: string, kind: SimilarityKind, n = 3): number {
  if (kind === "token_jaccard") return jaccard(wordTokens(a), wordTokens(b));
  if (!Number.isInteger(n) || n < 1) throw new RangeError("n must be a positive integer");
  return jaccard(charNgrams(a, n), charNgrams(b, n));
}

/**
 * Lower-cased runs of letters and digits (any script). The regex is one character class with a
 * single `+`: no nesting, no overlap, so it runs in linear time.
 */
function wordTokens(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
}

/**
 * Character n-grams of the lower-cased text with whitespace runs collapsed to one space and the
 * ends trimmed (so re-wrapping a paragraph is not drift). A non-empty text shorter than n is its
 * own single gram.
 *
 * One pass, no intermediate strings: the last n code units of the normalized text sit in a small
 * window. For n <= 3, a gram whose units are all below 1024 (ASCII, Latin, Greek, Cyrillic ...)
 * is keyed by an exact 10-bits-per-unit integer, which V8 stores unboxed, so the default n = 3
 * allocates nothing per position; other grams are keyed by their string. A given gram is always
 * keyed the same way, so set equality (and the Jaccard index) is unchanged.
 */
function charNgrams(text: string, n: number): Set<string | number> {
  const lower = text.toLowerCase();
  const grams = new Set<string | number>();
  const window: number[] = new Array(n).fill(0);
  let emitted = 0; // code units of the normalized text so far
  let pendingSpace = false;
  for (let i = 0; i < lower.length; i++) {
    const c = lower.charCodeAt(i);
    if (isWhitespace(c)) {
      pendingSpace = emitted > 0; // leading whitespace is trimmed; a run becomes one space
      continue;
    }
    if (pendingSpace) {
      emitted = push(grams, window, n, emitted, 32);
      pendingSpace = false; // trailing whitespace never gets here: it is trimmed
    }
    emitted = push(grams, window, n, emitted, c);
  }
  if (emitted > 0 && emitted < n) grams.add(String.fromCharCode(...window.slice(n - emitted)));
  return grams;
}

/** Shifts `c` into the window and records the gram ending there once n units have been seen. */
function push(grams: Set<string | number>, window: number[], n: number, emitted: number, c: number): number {
  for (let k = 0; k < n - 1; k++) window[k] = window[k + 1] as number;
  window[n - 1] = c;
  const count = emitted + 1;
  if (count < n) return count;
  let key = n <= 3 ? 0 : -1;
  for (let k = 0; k < n && key >= 0; k++) {
    const unit = window[k] as number;
    key = unit < 1024 ? key * 1024 + unit : -1;
  }
  grams.add(key >= 0 ? key : String.fromCharCode(...window));
  return count;
}

function jaccard<T>(a: Set<T>, b: Set<T>): number {
  if (a.size === 0 && b.size === 0) return 1;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const item of small) if (large.has(item)) shared++;
  return shared / (a.size + b.size - shared);
}

// Kept in this module rather than imported: it runs once per character (see pii-scan.ts).
/** Exactly the characters of JavaScript's `\s` (and of String.prototype.trim). */
function isWhitespace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}
