// Which language a text is written in. Latin-script texts of the languages the analyser has
// stemmers and stopwords for are told apart by ELD (Efficient Language Detector, n-gram
// statistics, Apache-2.0), limited to those languages; other scripts are named by their script.
// Measured on real short sentences (test/language.test.ts: STS-B captions and UDHR articles):
// ≥ 97 % right from four words on, in every supported language. A text with too little to go on
// ("vpn?", "15 A") is null: callers treat it as English for stemming, never as "different".
//
// English is by far the commonest language of a knowledge base, so a text whose words are mostly
// unambiguous English function words is English without asking ELD (ELD costs ~60 µs a text; a
// 100k-CFB index build would pay seconds for it).
import { trimEndWhile } from "@solserver/contracts";
import { eld } from "eld/extrasmall";
import { LRUCache } from "lru-cache";

export const LANGUAGES = ["en", "de", "fr", "es", "it", "nl", "pt"] as const;
export type TLanguage = (typeof LANGUAGES)[number];
/** A supported language, or the script of a text in another writing system. */
export type TLanguageGuess =
  | TLanguage
  | "cyrillic"
  | "greek"
  | "arabic"
  | "hebrew"
  | "han"
  | "kana"
  | "hangul"
  | "devanagari"
  | "thai"
  | "other";

eld.setLanguageSubset([...LANGUAGES]);

const SCRIPTS: readonly [TLanguageGuess, RegExp][] = [
  ["cyrillic", /\p{Script=Cyrillic}/u],
  ["greek", /\p{Script=Greek}/u],
  ["arabic", /\p{Script=Arabic}/u],
  ["hebrew", /\p{Script=Hebrew}/u],
  ["kana", /[\p{Script=Hiragana}\p{Script=Katakana}]/u],
  ["han", /\p{Script=Han}/u],
  ["hangul", /\p{Script=Hangul}/u],
  ["devanagari", /\p{Script=Devanagari}/u],
  ["thai", /\p{Script=Thai}/u],
];
const LATIN = /\p{Script=Latin}/u;
const ONLY_LETTERS = /^[\p{L}\p{M}'’]+$/u;
/** Function words of one side must outnumber the other's this many times to decide. */
const LEAD = 2.5;
const LETTER = /\p{L}/u;

// Function words that are English and nothing else among the supported languages ("die", "was",
// "in", "a" are words of other languages too, so they are not here).
const ENGLISH_ONLY = new Set(
  "the and are to for with this that these those it its be been has have had would should could not from by at which who when what how our their they you your".split(
    " ",
  ),
);
const OTHER_FUNCTION_WORDS = new Set(
  "de en der die das und ist sind nicht mit für von le la les et est sont avec pour dans el los las y es son con para en il lo gli della het een zijn voor van o os as um uma é são não com".split(
    " ",
  ),
);

/** Whether `text` holds a function word of a supported language other than English. */
export function hasForeignFunctionWord(text: string): boolean {
  for (const w of text.toLowerCase().split(/[^\p{L}]+/u)) if (OTHER_FUNCTION_WORDS.has(w)) return true;
  return false;
}

const cache = new LRUCache<string, TLanguageGuess | "none">({ max: 20_000 });

/** The language of `text` ("en", "de", …, or a script such as "cyrillic"), or null when it cannot tell. */
export function detectLanguage(text: string): TLanguageGuess | null {
  const sample = text.length > 1000 ? text.slice(0, 1000) : text;
  const known = cache.get(sample);
  if (known !== undefined) return known === "none" ? null : known;
  const guess = guessLanguage(sample);
  cache.set(sample, guess ?? "none");
  return guess;
}

function guessLanguage(text: string): TLanguageGuess | null {
  let letters = 0;
  let latin = 0;
  const scripts = new Map<TLanguageGuess, number>();
  for (const ch of text) {
    if (!LETTER.test(ch)) continue;
    letters++;
    if (ch.charCodeAt(0) < 0x80 || LATIN.test(ch)) {
      latin++;
      continue;
    }
    for (const [name, re] of SCRIPTS)
      if (re.test(ch)) {
        scripts.set(name, (scripts.get(name) ?? 0) + 1);
        break;
      }
  }
  if (letters === 0) return null;
  if (latin * 2 < letters) {
    // Kana beside Han is Japanese; otherwise the commonest script.
    if ((scripts.get("kana") ?? 0) > 0) return "kana";
    let best: TLanguageGuess = "other";
    let count = 0;
    for (const [name, n] of scripts) if (n > count) [best, count] = [name, n];
    return best;
  }
  // Words of letters only: identifiers ("eu-central-1", "sha256", "v1.2") say nothing of a language.
  const words = text
    .toLowerCase()
    .split(/[\s,;:!?()"“”]+/u)
    .map((w) => trimEndWhile(w.replace(/^[.'’]+/u, ""), (c) => ".'’".includes(c)))
    .filter((w) => w.length > 0 && ONLY_LETTERS.test(w));
  let english = 0;
  let other = 0;
  for (const w of words) {
    if (ENGLISH_ONLY.has(w)) english++;
    else if (OTHER_FUNCTION_WORDS.has(w)) other++;
  }
  if (english >= 2 && other === 0) return "en";
  // English and another language's function words side by side, neither clearly ahead: mixed.
  if (english > 0 && other > 0 && Math.max(english, other) < LEAD * Math.min(english, other)) return null;
  if (words.length < 2) return null;
  const result = eld.detect(text);
  const language = result.language as TLanguage | "";
  if (language === "" || !(LANGUAGES as readonly string[]).includes(language)) return null;
  // Only a clear lead counts: made-up words ("alpha bravo charlie") are no language.
  if (!result.isReliable()) return null;
  return language;
}

/** Whether two texts are in different known languages (an unknown one is never "different"). */
export function languagesDiffer(a: TLanguageGuess | null, b: TLanguageGuess | null): boolean {
  return a !== null && b !== null && a !== b;
}
