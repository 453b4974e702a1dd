// The terms a text is compared by, the same for a proposal, a CFB, a chat message and a routing
// example: its folded tokens (tokens.ts) without the function words of its language, each
// abbreviation read as the word it stands for (data/aliases.json), reduced to its stem in the
// text's language ("rotated", "rotate", "rotation" → "rotat"; "Pumpen", "Pumpe" → "pump"). Numbers
// stay, lone letters go. The candidate index stores these terms, so what it finds is exactly what
// the scores count.
import { LRUCache } from "lru-cache";
import data from "../data/aliases.json" with { type: "json" };
import { detectLanguage, hasForeignFunctionWord, LANGUAGES, type TLanguage, type TLanguageGuess } from "./language";
import { stem } from "./stem";
import { isStopword } from "./stopwords";
import { tokens } from "./tokens";

const ALIASES: ReadonlyMap<string, string> = new Map(Object.entries(data.aliases));
const DIGITS = /^\p{N}/u;
/** Han, Hiragana and Katakana characters are words of one character each (tokens.ts). */
const IDEOGRAPH = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]$/u;

export type TAnalyzeOptions = {
  /** The text's language when the caller knows it; detected otherwise (English when unsure). */
  language?: TLanguageGuess | null;
  /** false: the content words as folded, unstemmed and without aliases (labels shown to people). */
  stem?: boolean;
};

const NON_ASCII = /[^\p{ASCII}]/u;

/**
 * The language the analyser stems a text in: English unless the text shows another language (a
 * letter outside ASCII, or a function word of another supported language), then the detected one.
 * Stemming two texts of one language differently is worse than stemming a foreign one in English,
 * so a short or odd text ("Alpha bravo charlie", "Pumpe defekt") stays English.
 */
export function analysisLanguage(text: string, given?: TLanguageGuess | null): TLanguageGuess {
  if (given) return given;
  if (!NON_ASCII.test(text) && !hasForeignFunctionWord(text)) return "en";
  return detectLanguage(text) ?? "en";
}

function stopwordLanguage(language: TLanguageGuess): TLanguage | null {
  return (LANGUAGES as readonly string[]).includes(language) ? (language as TLanguage) : null;
}

/** The analysed term of one folded token in `language`, or null for a function word or a lone letter. */
export function analyzeToken(token: string, language: TLanguageGuess = "en", stemmed = true): string | null {
  const lang = stopwordLanguage(language);
  if (isStopword(token, lang) || (lang !== "en" && isStopword(token, "en") && token.length < 4)) return null;
  if (token.length < 2 && !DIGITS.test(token) && !IDEOGRAPH.test(token)) return null;
  if (!stemmed) return token;
  const word = ALIASES.get(token) ?? token;
  return stem(word, language);
}

/** The analysed terms of `text`, in order, repeats kept. */
export function analyzeTerms(text: string, opts: TAnalyzeOptions = {}): string[] {
  const language = analysisLanguage(text, opts.language);
  const out: string[] = [];
  for (const token of tokens(text)) {
    const term = analyzeToken(token, language, opts.stem ?? true);
    if (term !== null) out.push(term);
  }
  return out;
}

/**
 * The distinct analysed terms of all `texts`, read as one text in one language (a CFB's title,
 * summary and labels are stemmed alike even when the title alone is too short to tell).
 */
export function termSet(...texts: readonly string[]): Set<string> {
  const language = analysisLanguage(texts.join("\n"));
  const set = new Set<string>();
  for (const text of texts) for (const term of analyzeTerms(text, { language })) set.add(term);
  return set;
}

// Term sets of texts seen again (a hot CFB is ranked on every turn that finds it): a memo.
const TERM_SETS = new LRUCache<string, ReadonlySet<string>>({ max: 8192 });

/** termSet of one text, memoised (bounded LRU); the set must not be changed. */
export function cachedTermSet(text: string): ReadonlySet<string> {
  let set = TERM_SETS.get(text);
  if (!set) {
    set = termSet(text);
    TERM_SETS.set(text, set);
  }
  return set;
}

const BIGRAMS = new LRUCache<string, ReadonlySet<string>>({ max: 8192 });

/** The text's adjacent analysed-term pairs, as "first second" (function words skipped); memoised. */
export function termBigrams(text: string): ReadonlySet<string> {
  let set = BIGRAMS.get(text);
  if (!set) {
    const terms = analyzeTerms(text);
    const pairs = new Set<string>();
    for (let i = 0; i + 1 < terms.length; i++) pairs.add(`${terms[i]} ${terms[i + 1]}`);
    set = pairs;
    BIGRAMS.set(text, set);
  }
  return set;
}
