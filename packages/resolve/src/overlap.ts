// The set-overlap components of the composite score (seed 001 §6.2). Jaccard (|A∩B| / |A∪B|)
// everywhere: symmetric, in [0, 1], 1 only for equal sets, and it grows when one more item is
// shared, which keeps the score monotonic in each component.
import { normalizeText } from "./normalize";
import { STOPWORDS } from "./stopwords";
import { tokenize } from "./tokenize";

/** |A∩B| / |A∪B|; 0 when both are empty (nothing shared is no evidence of a match). */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let shared = 0;
  for (const x of a) if (b.has(x)) shared += 1;
  return shared / (a.size + b.size - shared);
}

function normalizedSet(items: readonly string[]): Set<string> {
  return new Set(items.map(normalizeText).filter((x) => x.length > 0));
}

/** Jaccard of the normalized tag sets ("Billing " and "billing" are one tag). */
export function tagOverlap(a: readonly string[], b: readonly string[]): number {
  return jaccard(normalizedSet(a), normalizedSet(b));
}

/** Jaccard of the normalized entity sets (lower-cased, trimmed, inner whitespace collapsed). */
export function entityOverlap(a: readonly string[], b: readonly string[]): number {
  return jaccard(normalizedSet(a), normalizedSet(b));
}

function contentWords(title: string): Set<string> {
  return new Set(tokenize(title).filter((t) => !STOPWORDS.has(t)));
}

/**
 * Token Jaccard of the titles' content words (tokenize() minus stopwords). Chosen over character
 * trigram Dice because it counts the same words the index matched (same folding), ignores word
 * order and function words ("Reset the password" = "Password reset"), and does not reward
 * titles that merely share a stem-like fragment. Titles of stopwords only score 0.
 */
export function titleSimilarity(a: string, b: string): number {
  return jaccard(contentWords(a), contentWords(b));
}
