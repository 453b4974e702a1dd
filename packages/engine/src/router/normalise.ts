// Text normalisation and matching for the selector step's router (docs/routing.md, "Matching").
// Messages are untrusted and routing entries are data, so nothing here builds a regular
// expression from either: one pass over the message's code points makes clauses of folded word
// tokens, and entries are compared with windows of those tokens through a hash map, linear in
// the message.
//
//   folding      NFKC (full-width "ＲＶ" is "RV", ligatures split), Unicode case folding (upper
//                then lower case: "STRASSE" and "Straße" agree), Latin diacritics dropped ("pompe à
//                eau" = "pompe a eau", "Kühlschrank" = "Kuhlschrank")
//   possessives  "RV's", "RV’s" and "campers'" are "rv", "campers"
//   plurals      simple English rules on the last word of a phrase: -s, -es, -ies ("pumps",
//                "switches", "batteries"); a final -e is dropped on both sides ("fuse" = "fuses")
//   compounds    an entry matches the same letters written apart, hyphenated or run together:
//                "slide-out" = "slide out" = "slideout", "roof a/c" = "roof AC" = "roofac". A
//                one-word entry ("backup") matches a message written in pieces only when the pieces
//                are joined by a hyphen or slash ("back-up"), never by a space ("back up")
//   inflections  a message word in -ed or -ing whose base is an entry word is read as that word
//                ("winterized" = "winterize", "clogged" = "clog"), and a number with a suffix as
//                the number ("502er" = "502"); entries are never uninflected
//   typos        a message word one letter off an entry word of six letters or more (one letter
//                missing, one extra, or two neighbours swapped; same first letter) is read as
//                that entry word: "furnance" is "furnace", "deploymnet" "deployment". A word
//                within one edit of two entry words is left alone
//   scripts      each Han, Hiragana or Katakana character is a token of its own, so an entry in
//                those scripts matches inside a sentence written without spaces

import { fold } from "@solserver/text";

/** A folded word of a message or entry; `glued` when joined to the previous one by - / _ + & '. */
export type TRouteToken = { text: string; glued: boolean };

const APOSTROPHES: ReadonlySet<string> = new Set(["'", "\u2019", "\u2018", "`", "\u02bc", "\u2032"]);
const GLUE: ReadonlySet<string> = new Set(["-", "/", "_", "+", "&", "\u2010", "\u2011", "\u00b7"]);
// , ; : ! ? newline, en and em dash, the ideographic full stop and comma, and "." unless between
// two digits ("v2.3"). The full-width forms are already ASCII after NFKC.
const CLAUSE_BREAKS: ReadonlySet<string> = new Set([
  ",",
  ";",
  ":",
  "!",
  "?",
  "\n",
  "\r",
  "\u2013",
  "\u2014",
  ".",
  "\u3002",
  "\u3001",
]);
const WORD = /[\p{L}\p{N}\p{M}]/u;
const SINGLE_CHARACTER_WORD = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

const isDigit = (ch: string | undefined) => ch !== undefined && ch >= "0" && ch <= "9";

/**
 * Folded word tokens grouped in clauses (a phrase never matches across a clause break). Every
 * other character separates words; a possessive "'s" is dropped.
 */
export function toRouteClauses(text: string): TRouteToken[][] {
  const chars = Array.from(fold(text));
  const clauses: TRouteToken[][] = [];
  let tokens: TRouteToken[] = [];
  let word = "";
  // What lies between the last word and this one: nothing, glue only, an apostrophe, or a space
  // (any other separator).
  let gap = "space" as "none" | "glue" | "apostrophe" | "space";
  const endWord = () => {
    if (word === "") return;
    // "rv's" and "rv’s": an "s" right after an apostrophe is a possessive, not a word.
    if (!(word === "s" && gap === "apostrophe" && tokens.length > 0))
      tokens.push({ text: word, glued: tokens.length > 0 && gap !== "space" });
    word = "";
    gap = "none";
  };
  const endClause = () => {
    endWord();
    if (tokens.length > 0) clauses.push(tokens);
    tokens = [];
    gap = "space";
  };
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] as string;
    if (SINGLE_CHARACTER_WORD.test(ch)) {
      endWord();
      word = ch;
      endWord();
    } else if (WORD.test(ch)) {
      word += ch;
    } else if (CLAUSE_BREAKS.has(ch) && !(ch === "." && isDigit(chars[i - 1]) && isDigit(chars[i + 1]))) {
      endClause();
    } else {
      endWord();
      // (endWord set gap to "none" if a word ended here: read it afresh.)
      const before = gap as typeof gap;
      if (APOSTROPHES.has(ch)) {
        if (before !== "space") gap = "apostrophe";
      } else if (GLUE.has(ch)) {
        if (before === "none") gap = "glue";
      } else gap = "space";
    }
  }
  endClause();
  return clauses;
}

/** All folded words of a text, clause breaks ignored: how a routing entry is read. */
export function toRouteTokens(text: string): TRouteToken[] {
  return toRouteClauses(text).flat();
}

/**
 * The plural-free form of a word (simple English rules, applied alike to messages and entries):
 * "batteries" → "battery", "pumps" → "pump", "switches" → "switch", "fuses" and "fuse" → "fus".
 * Words of one or two characters, and words ending in -ss, -us or -is, are kept.
 */
export function stemWord(word: string): string {
  if (word.length <= 2) return word;
  if (word.endsWith("ies") && word.length > 4) return `${word.slice(0, -3)}y`;
  let stem = word;
  if (stem.endsWith("s") && !stem.endsWith("ss") && !stem.endsWith("us") && !stem.endsWith("is"))
    stem = stem.slice(0, -1);
  if (stem.endsWith("e") && stem.length > 3) stem = stem.slice(0, -1);
  return stem;
}

/** The two keys an entry is found by: its words stemmed one by one, and all its letters run together. */
export function entryKeys(tokens: readonly TRouteToken[]): { words: string; compact: string } {
  return {
    words: tokens.map((t) => stemWord(t.text)).join(" "),
    compact: stemWord(tokens.map((t) => t.text).join("")),
  };
}

/**
 * How many words an entry has for its weight: runs of one-character tokens count as one word, so
 * "a/c" is one word and "roof a/c" two.
 */
export function wordCount(tokens: readonly TRouteToken[]): number {
  let count = 0;
  let inRun = false;
  for (const t of tokens) {
    const single = Array.from(t.text).length === 1;
    if (!single || !inRun) count++;
    inRun = single;
  }
  return count;
}

/** An entry of the index: found by `words` or `compact`; `pieces` is how many tokens it has. */
export type TIndexedEntry<T> = { value: T; pieces: number };

/** Entries by key, and how far a window of message tokens may reach to find one. */
export type TEntryIndex<T> = {
  byWords: Map<string, TIndexedEntry<T>[]>;
  byCompact: Map<string, TIndexedEntry<T>[]>;
  maxPieces: number;
  maxCompact: number;
  /** Every entry word: stem → the word as the entry spells it (folded). */
  words: Map<string, string>;
  /** Entry words that typos are corrected to: stem → the word as the entry spells it (folded). */
  vocabulary: Map<string, string>;
  /** Each vocabulary stem with one letter deleted → the stems it came from. */
  deletions: Map<string, Set<string>>;
};

/** The shortest entry word (stemmed) a typo is corrected to. */
export const TYPO_MIN_LENGTH = 6;
const LETTERS = /^\p{L}+$/u;

function withoutLetter(word: string, i: number): string {
  return word.slice(0, i) + word.slice(i + 1);
}

/**
 * The entry word a message word is a typo of: the one vocabulary stem within one deletion,
 * insertion or swap of neighbours, with the same first letter; null when none or several.
 */
function correctTypo<T>(index: TEntryIndex<T>, word: string): string | null {
  const stem = stemWord(word);
  if (stem.length < TYPO_MIN_LENGTH - 1 || index.vocabulary.has(stem) || !LETTERS.test(stem)) return null;
  const candidates = new Set<string>();
  // A letter missing from the message word.
  for (const c of index.deletions.get(stem) ?? []) candidates.add(c);
  // An extra letter in it, or two neighbours swapped.
  for (let i = 0; i < stem.length; i++) {
    const shorter = withoutLetter(stem, i);
    if (shorter.length >= TYPO_MIN_LENGTH && index.vocabulary.has(shorter)) candidates.add(shorter);
    if (i + 1 < stem.length && stem[i] !== stem[i + 1]) {
      const swapped = stem.slice(0, i) + stem[i + 1] + stem[i] + stem.slice(i + 2);
      if (index.vocabulary.has(swapped)) candidates.add(swapped);
    }
  }
  const sameStart = [...candidates].filter((c) => c[0] === stem[0]);
  return sameStart.length === 1 ? (index.vocabulary.get(sameStart[0] as string) ?? null) : null;
}

const VOWEL = /[aeiouy]/;

function leadingDigits(word: string): number {
  let i = 0;
  while (i < word.length && word.charCodeAt(i) >= 48 && word.charCodeAt(i) <= 57) i++;
  return i;
}

/**
 * The entry word a message word in -ed or -ing is an inflection of ("winterized", "winterizing" →
 * "winterize"; "leaking" → "leak"; "clogged" → "clog"), or null. Only message words are
 * uninflected, and only into an entry word, so an entry's own -ing word ("hosting",
 * "monitoring") never starts matching its stem ("host", "my monitor").
 */
function uninflect<T>(index: TEntryIndex<T>, word: string): string | null {
  if (index.words.has(stemWord(word))) return null;
  // A number with a suffix ("502er", "500s", "404ern"): the number, if it is an entry word.
  const digits = leadingDigits(word);
  if (digits > 0 && digits < word.length) {
    const number = word.slice(0, digits);
    return LETTERS.test(word.slice(digits)) && index.words.has(number) ? number : null;
  }
  let base: string;
  if (word.length >= 6 && word.endsWith("ing")) base = word.slice(0, -3);
  else if (word.length >= 5 && word.endsWith("ed") && !word.endsWith("eed")) base = word.slice(0, -2);
  else return null;
  if (!VOWEL.test(base)) return null;
  const last = base.length - 1;
  const candidates = [base, `${base}e`];
  if (base[last] === base[last - 1]) candidates.push(base.slice(0, -1)); // "clogged" → "clog"
  for (const candidate of candidates) {
    const entryWord = index.words.get(stemWord(candidate));
    if (entryWord !== undefined) return entryWord;
  }
  return null;
}

/** The most tokens a window spans beyond the longest entry's: "slide out" for "slideout". */
const MAX_EXTRA_PIECES = 8;

export function buildEntryIndex<T>(entries: readonly { tokens: readonly TRouteToken[]; value: T }[]): TEntryIndex<T> {
  const index: TEntryIndex<T> = {
    byWords: new Map(),
    byCompact: new Map(),
    maxPieces: 0,
    maxCompact: 0,
    words: new Map(),
    vocabulary: new Map(),
    deletions: new Map(),
  };
  const add = (map: Map<string, TIndexedEntry<T>[]>, key: string, entry: TIndexedEntry<T>) => {
    const list = map.get(key);
    if (list) list.push(entry);
    else map.set(key, [entry]);
  };
  for (const { tokens, value } of entries) {
    if (tokens.length === 0) continue;
    const keys = entryKeys(tokens);
    const entry = { value, pieces: tokens.length };
    add(index.byWords, keys.words, entry);
    if (keys.compact !== keys.words) add(index.byCompact, keys.compact, entry);
    index.maxPieces = Math.max(index.maxPieces, tokens.length);
    index.maxCompact = Math.max(index.maxCompact, keys.compact.length);
    for (const t of tokens) {
      const stem = stemWord(t.text);
      if (!index.words.has(stem)) index.words.set(stem, t.text);
      if (stem.length < TYPO_MIN_LENGTH || !LETTERS.test(stem) || index.vocabulary.has(stem)) continue;
      index.vocabulary.set(stem, t.text);
      for (let i = 0; i < stem.length; i++) {
        const shorter = withoutLetter(stem, i);
        const from = index.deletions.get(shorter);
        if (from) from.add(stem);
        else index.deletions.set(shorter, new Set([stem]));
      }
    }
  }
  return index;
}

/**
 * Every entry that occurs in the text, each once, in no particular order. A window of tokens
 * matches an entry when their stemmed words are the entry's, or when their letters run together
 * are the entry's: a one-word entry then only across hyphens and slashes, never across spaces,
 * and never when a space stands next to a one-letter piece.
 */
export function findEntries<T>(index: TEntryIndex<T>, text: string): Set<T> {
  const found = new Set<T>();
  if (index.maxPieces === 0) return found;
  const reach = index.maxPieces + MAX_EXTRA_PIECES;
  const take = (list: TIndexedEntry<T>[] | undefined, accept: (e: TIndexedEntry<T>) => boolean) => {
    if (list) for (const e of list) if (accept(e)) found.add(e.value);
  };
  const corrections = new Map<string, string | null>();
  const correct = (word: string) => {
    let corrected = corrections.get(word);
    if (corrected === undefined) {
      corrected = uninflect(index, word) ?? correctTypo(index, word);
      corrections.set(word, corrected);
    }
    return corrected;
  };
  for (const raw of toRouteClauses(text)) {
    const clause = raw.map((t) => {
      const corrected = correct(t.text);
      return corrected === null ? t : { ...t, text: corrected };
    });
    for (let i = 0; i < clause.length; i++) {
      let joined = "";
      let words = "";
      let allGlued = true;
      // A space next to a one-letter piece: "a c" is not "a/c", "c i" not "ci".
      let looseLetter = false;
      for (let j = i; j < clause.length && j - i < reach; j++) {
        const token = clause[j] as TRouteToken;
        const pieces = j - i + 1;
        if (j > i && !token.glued) {
          allGlued = false;
          if (token.text.length === 1 || (clause[j - 1] as TRouteToken).text.length === 1) looseLetter = true;
        }
        joined += token.text;
        words = j === i ? stemWord(token.text) : `${words} ${stemWord(token.text)}`;
        if (pieces <= index.maxPieces) take(index.byWords.get(words), (e) => e.pieces === pieces);
        const compact = stemWord(joined);
        take(index.byWords.get(compact), (e) => e.pieces === 1 && (pieces === 1 || allGlued));
        if (!looseLetter) take(index.byCompact.get(compact), () => true);
        // Stemming shortens a word by two characters at most.
        if (joined.length > index.maxCompact + 2 && pieces >= index.maxPieces) break;
      }
    }
  }
  return found;
}
