// Word stems per language (Snowball, the stemmers Lucene and Elasticsearch ship), so "rotated",
// "rotate" and "rotation" are one term, and "Pumpen" one with "Pumpe". Short words are kept as
// they are: the stems of two- and three-letter words collide ("us" / "use").
/// <reference path="./snowball-stemmers.d.ts" />
import { newStemmer } from "snowball-stemmers";
import type { TLanguageGuess } from "./language";

const ALGORITHMS: Readonly<Record<string, string>> = {
  en: "english",
  de: "german",
  fr: "french",
  es: "spanish",
  it: "italian",
  nl: "dutch",
  pt: "portuguese",
  cyrillic: "russian",
};
const stemmers = new Map<string, { stem(word: string): string }>();
const MIN_STEM_LENGTH = 4;
/** Stems memoised per language; bounded (cleared when full) because tokens come from untrusted text. */
const cache = new Map<string, string>();
const CACHE_LIMIT = 100_000;

/**
 * The stem of one folded token in `language`; numbers and short words unchanged. Without a
 * language, a Cyrillic word is stemmed as Russian and any other as English.
 */
export function stem(token: string, language: TLanguageGuess | null = null): string {
  if (token.length < MIN_STEM_LENGTH) return token;
  const first = token.charCodeAt(0);
  const algorithm = ALGORITHMS[language ?? (first >= 0x400 && first <= 0x4ff ? "cyrillic" : "en")];
  if (algorithm === undefined) return token;
  const key = `${algorithm}\u0000${token}`;
  const known = cache.get(key);
  if (known !== undefined) return known;
  let stemmer = stemmers.get(algorithm);
  if (!stemmer) {
    stemmer = newStemmer(algorithm);
    stemmers.set(algorithm, stemmer);
  }
  const c = token.charCodeAt(0);
  // Digits and words in another script than the stemmer's stay as they are.
  const latin = c >= 0x61 && c <= 0x7a;
  const cyrillic = c >= 0x400 && c <= 0x4ff;
  const out = (algorithm === "russian" ? cyrillic : latin) ? stemmer.stem(token) : token;
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, out);
  return out;
}
