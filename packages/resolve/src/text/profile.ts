// A text as resolve compares it: its analysed terms, the same per sentence, its specifics
// (numbers and names: what differs between two near-identical but distinct CFBs, and what stays
// the same across languages), its language and its change language. Computed once per text.
import {
  analysisLanguage,
  analyzeToken,
  detectLanguage,
  isAnyStopword,
  isNameLike,
  rawWords,
  type TLanguageGuess,
  tokens as textTokens,
} from "@solserver/text";
import { LRUCache } from "lru-cache";
import { changeCuesOf, type TChangeCue } from "./change-cues";
import { negatedTokens, valueKeys } from "./values";

export type TTextProfile = {
  /** Distinct analysed terms of the title and the body. */
  terms: ReadonlySet<string>;
  /** The body's sentences, each as its distinct analysed terms (empty ones left out). */
  sentences: readonly ReadonlySet<string>[];
  /** Numbers and names (folded tokens): "90", "frankfurt", "yubikey", "sha256". */
  specifics: ReadonlySet<string>;
  /**
   * Character trigrams of the content words (function words out, each word padded): what two
   * texts in different languages still share through names, numbers and cognates ("migrations" /
   * "migraciones", "certificates" / "certificados").
   */
  trigrams: ReadonlySet<string>;
  language: TLanguageGuess | null;
  cues: ReadonlySet<TChangeCue>;
  /** The title's analysed terms and the body's first sentence's, in order (subject.ts aligns them). */
  titleSequence: readonly string[];
  leadSequence: readonly string[];
  /** Per term of those sequences: whether a preposition stands before it ("hotfixes to the <search API>"). */
  titleAfterPreposition: readonly boolean[];
  leadAfterPreposition: readonly boolean[];
  /** Numbers with their units, weekdays and months, as comparable keys ("15 A", "day:monday"). */
  values: readonly string[];
  /** The body's sentences that say no ("not", "never", "no", "don't", "nicht", "kein", …), as terms; and the others. */
  negatedSentences: readonly ReadonlySet<string>[];
  plainSentences: readonly ReadonlySet<string>[];
};

/** Sentence ends: . ! ? ; followed by a space or the end ("99.9%", "02:00" and "v1.2" stay whole). */
function splitSentences(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    // A line break always ends one; punctuation only before a space or the end.
    const end = c === "." || c === "!" || c === "?" || c === ";";
    if (c === "\n" || (end && (i + 1 === text.length || SPACE.test(text[i + 1] as string)))) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out.filter((s) => s.trim().length > 0);
}

type TWord = { token: string; specific: boolean };

const HAS_DIGIT = /\p{N}/u;
const ARTICLES = new Set(["the", "a", "an", "its", "their", "our", "this", "that"]);
const PREPOSITIONS = new Set(["to", "of", "for", "on", "in", "at", "with", "from", "by", "about", "inside", "under"]);
const DIGITS = /^\p{N}+$/u;
const SPACE = /\s/;

/** One pass over a sentence: each word's tokens, and whether the word is a number or a name. */
function wordsOf(sentence: string): TWord[] {
  return rawWords(sentence).flatMap((word) => {
    const specific = HAS_DIGIT.test(word.word) || isNameLike(sentence, word);
    return textTokens(word.word).map((token) => ({ token, specific }));
  });
}

function termsOf(words: readonly TWord[], language: TLanguageGuess): Set<string> {
  const terms = new Set<string>();
  for (const { token } of words) {
    const term = analyzeToken(token, language);
    if (term !== null) terms.add(term);
  }
  return terms;
}

// Profiles of the texts resolve meets again and again (the CFBs of a busy domain are candidates
// for most of its proposals) are kept: same text, same profile, so this is only a memo.
const PROFILES = new LRUCache<string, TTextProfile>({ max: 4096 });

/** textProfile, memoised on the text (bounded LRU). */
export function cachedTextProfile(title: string, body: string): TTextProfile {
  const key = JSON.stringify([title, body]);
  let profile = PROFILES.get(key);
  if (!profile) {
    profile = textProfile(title, body);
    PROFILES.set(key, profile);
  }
  return profile;
}

/**
 * The profile of a text. Terms and language are computed at once (every candidate needs them);
 * sentences, specifics and change cues when first read (only the best few candidates need them).
 */
export function textProfile(title: string, body: string): TTextProfile {
  const titleWords = wordsOf(title);
  const bodySentences = splitSentences(body).map(wordsOf);
  const language = detectLanguage(`${title}. ${body}`);
  const analysedAs = analysisLanguage(`${title}\n${body}`);
  const terms = termsOf(titleWords, analysedAs);
  for (const sentence of bodySentences) for (const t of termsOf(sentence, analysedAs)) terms.add(t);
  const tokens = [...titleWords, ...bodySentences.flat()].map((w) => w.token);
  let sentences: ReadonlySet<string>[] | undefined;
  let specifics: Set<string> | undefined;
  let cues: Set<TChangeCue> | undefined;
  let trigrams: Set<string> | undefined;
  const sequence = (words: readonly TWord[]) => {
    const terms: string[] = [];
    const afterPreposition: boolean[] = [];
    let preposition = false;
    for (const { token } of words) {
      const term = analyzeToken(token, analysedAs);
      if (term !== null) {
        terms.push(term);
        afterPreposition.push(preposition);
        preposition = false;
      } else if (!ARTICLES.has(token)) preposition = PREPOSITIONS.has(token);
    }
    return { terms, afterPreposition };
  };
  const titleSeq = sequence(titleWords);
  const leadSeq = sequence(bodySentences[0] ?? []);
  return {
    terms,
    language,
    titleSequence: titleSeq.terms,
    leadSequence: leadSeq.terms,
    titleAfterPreposition: titleSeq.afterPreposition,
    leadAfterPreposition: leadSeq.afterPreposition,
    values: valueKeys(`${title}\n${body}`),
    get negatedSentences() {
      return bodySentences
        .filter((words) => negatedTokens(words.map((w) => w.token)))
        .map((words) => termsOf(words, analysedAs));
    },
    get plainSentences() {
      return bodySentences
        .filter((words) => !negatedTokens(words.map((w) => w.token)))
        .map((words) => termsOf(words, analysedAs));
    },
    get sentences() {
      sentences ??= bodySentences.map((words) => termsOf(words, analysedAs)).filter((s) => s.size > 0);
      return sentences;
    },
    get specifics() {
      if (!specifics) {
        specifics = new Set<string>();
        for (const { token, specific } of [...titleWords, ...bodySentences.flat()])
          if (specific && (token.length >= 2 || DIGITS.test(token))) specifics.add(token);
      }
      return specifics;
    },
    get trigrams() {
      if (!trigrams) {
        trigrams = new Set<string>();
        for (const token of tokens) {
          if (isAnyStopword(token) || token.length < 3) continue;
          const padded = ` ${token} `;
          for (let i = 0; i + 3 <= padded.length; i++) trigrams.add(padded.slice(i, i + 3));
        }
      }
      return trigrams;
    },
    get cues() {
      cues ??= changeCuesOf(bodySentences.flat().map((w) => w.token));
      return cues;
    },
  };
}
