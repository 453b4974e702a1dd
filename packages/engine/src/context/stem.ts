// Word stems, so a pattern written once matches its inflections: "blows" / "blowing" / "blew"…
// not "blew" (irregular), but "calls" / "calling", "batteries" / "battery", and in Russian
// "предохранитель" / "предохранителя", "сгорел" / "сгорели". Snowball stemmers (pure functions,
// no I/O): Russian for Cyrillic words, English for Latin ones. Spanish words are left to the
// English stemmer too: a Spanish stemmer on every Latin word makes cross-language collisions
// (Spanish "humo", smoke, and English "hums" share the stem "hum"); the Spanish patterns list
// the inflections instead.

/// <reference path="../snowball-stemmers.d.ts" />
import { newStemmer } from "snowball-stemmers";

const english = newStemmer("english");
const russian = newStemmer("russian");

/** Words shorter than this are kept as they are ("on", "no", "ok"): stems of short words collide. */
const MIN_STEM_LENGTH = 4;

function isCyrillic(word: string): boolean {
  const c = word.charCodeAt(0);
  return c >= 0x400 && c <= 0x4ff;
}

function isLatin(word: string): boolean {
  const c = word.charCodeAt(0);
  return c >= 0x61 && c <= 0x7a;
}

/** Stems computed so far; bounded (cleared when full) because tokens come from untrusted messages. */
const cache = new Map<string, string>();
const CACHE_LIMIT = 20_000;

/** The stem of one folded token (numbers and short words unchanged). */
export function stem(token: string): string {
  if (token.length < MIN_STEM_LENGTH) return token;
  const known = cache.get(token);
  if (known !== undefined) return known;
  const stemmed = isCyrillic(token) ? russian.stem(token) : isLatin(token) ? english.stem(token) : token;
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(token, stemmed);
  return stemmed;
}
