// Word tokens exactly as the CFB index (SQLite FTS5, `tokenize='unicode61 remove_diacritics 2'`,
// prisma/migrations/*_cfb_fts) cuts and folds them. The db looks query terms up in the index's
// vocabulary verbatim, and the title similarity should count the same words the search matched,
// so a token here must be the token FTS5 stores: "Crème" → "creme", "Łódź" → "łodz", "ΟΔΌΣ" → "οδόσ".
//
// What unicode61 does, checked code point by code point against SQLite 3.53 (test/tokenize.test.ts
// keeps checking Latin, Greek, Cyrillic and the combining marks):
// - token characters are letters, digits, private-use and unassigned code points (L*, N*, Co,
//   Cn); everything else separates tokens;
// - case is folded (simple case folding: also ς → σ, µ → μ, ſ → s, ϐ → β, ...);
// - with remove_diacritics 2, a Latin letter whose canonical decomposition is an ASCII letter
//   plus marks from a fixed set of 25 combining diacritics is replaced by that ASCII letter
//   ("ệ" → "e", but "ø", "ł", "æ", "ǽ" stay), and those 25 marks are token characters that are
//   dropped wherever they appear (so decomposed "e\u0301clair" is "eclair", also after Greek).
//   Other scripts keep their precomposed accents ("ό", "ё"). NFKD is not applied: "ﬁ", "①",
//   "x²" stay as they are.
// The only disagreements left are characters added to Unicode after 6.1, the version of FTS5's
// tables (e.g. Georgian Mtavruli, Cherokee lower case, newer symbols): FTS5 sees them as
// unassigned, this sees their real category. Real text rarely holds them.

/** The combining diacritics unicode61 treats as removable (sqlite3Fts5UnicodeIsdiacritic). */
const DIACRITIC_MARKS = /[\u0300-\u0304\u0306-\u030c\u030f\u0311\u031b\u0323-\u0328\u032d\u032e\u0330\u0331]/g;

/** Case folding where it differs from toLowerCase (FTS5 folds these; JS leaves them). */
const CASE_FOLD: Readonly<Record<string, string>> = {
  ς: "σ",
  µ: "μ",
  ſ: "s",
  ϐ: "β",
  ϑ: "θ",
  ϕ: "φ",
  ϖ: "π",
  ϰ: "κ",
  ϱ: "ρ",
  ϵ: "ε",
  "\u1fbe": "ι",
};
const CASE_FOLD_CHARS = /[ςµſϐϑϕϖϰϱϵ\u1fbe]/g;

/** Non-ASCII Latin letters: the only ones remove_diacritics can change. */
const NON_ASCII_LATIN = /(?!\p{ASCII})\p{Script=Latin}/gu;

/** FTS5's fold table leaves these alone although they decompose like the others. */
const KEEP_AS_IS = new Set(["ǡ"]);

/**
 * One token character class, one `+`: linear time on any input. Unassigned code points (Cn) are
 * token characters in FTS5 too (its tables give them no separator category).
 */
const TOKEN = /[\p{L}\p{N}\p{Co}\p{Cn}]+/gu;

function foldCase(text: string): string {
  return text.replace(CASE_FOLD_CHARS, (c) => CASE_FOLD[c] ?? c);
}

function foldLatin(ch: string): string {
  if (KEEP_AS_IS.has(ch)) return ch;
  // "ẛ" is ſ + dot above: its base folds on to "s" as well.
  const base = foldCase(ch.normalize("NFD").replace(DIACRITIC_MARKS, ""));
  return base.length === 1 && /^\p{ASCII}$/u.test(base) ? base : ch;
}

/** Lower-cased and diacritic-folded as unicode61 does, before cutting into tokens. */
export function foldText(text: string): string {
  return foldCase(text.toLowerCase()).replace(DIACRITIC_MARKS, "").replace(NON_ASCII_LATIN, foldLatin);
}

/** The index's tokens of `text`, in order, repeats kept. */
export function tokenize(text: string): string[] {
  return foldText(text).match(TOKEN) ?? [];
}

/**
 * The same cuts on the original text, before folding, with where each word starts (the query
 * builder looks at capitalisation and sentence starts). The diacritic marks go first because in
 * FTS5 they join words rather than separate them; folding never adds or removes a separator, so
 * `tokenize(word)` is the one index token of each word.
 */
export function rawWords(text: string): { source: string; words: { word: string; index: number }[] } {
  const source = text.replace(DIACRITIC_MARKS, "");
  return { source, words: [...source.matchAll(TOKEN)].map((m) => ({ word: m[0], index: m.index })) };
}

const SKIPPED_BEFORE_WORD = new Set([" ", "\t", "\n", "\r", '"', "'", "“", "”", "‘", "’", "(", "["]);
const SENTENCE_END = new Set([".", "!", "?", ":"]);
const UPPER_AFTER_FIRST = /^.+\p{Lu}/u;
const UPPER_FIRST = /^\p{Lu}/u;

/** At the text's start or after `.`, `!`, `?` or `:` (spaces and quotes between are skipped). */
function startsSentence(source: string, index: number): boolean {
  for (let i = index - 1; i >= 0; i--) {
    const c = source[i] as string;
    if (SKIPPED_BEFORE_WORD.has(c) || /\s/.test(c)) continue;
    return SENTENCE_END.has(c);
  }
  return true;
}

/**
 * A word written as a name: an upper-case letter after its first ("gRPC", "YubiKey", "API"), or
 * a capital that does not merely start a sentence ("Postgres" mid-sentence). `word` is one of
 * rawWords(text).words, `source` its source.
 */
export function isNameLike(source: string, word: string, index: number): boolean {
  // Fast path: an all-lower-case ASCII word is never a name.
  let lower = true;
  for (let i = 0; i < word.length; i++) {
    const code = word.charCodeAt(i);
    if (code >= 65 && code <= 90) {
      lower = false;
      break;
    }
    if (code > 127) {
      lower = false;
      break;
    }
  }
  if (lower) return false;
  return UPPER_AFTER_FIRST.test(word) || (UPPER_FIRST.test(word) && !startsSentence(source, index));
}
