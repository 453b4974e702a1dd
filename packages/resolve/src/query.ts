// Candidate query (seed 001 §6.1): the words the full-text search looks for, built from the
// proposal's title, entities, tags and the key words of its delta_summary. Every term comes out
// of tokenize(), so it is a plain index token and never FTS5 syntax (quotes, parentheses, `*`,
// `^`, `col:`, AND/OR/NOT/NEAR): the db quotes each term too, this is the second fence.
import type { TCandidateQuery, TResolveProposal } from "@solserver/contracts";
import { STOPWORDS } from "./stopwords";
import { rawWords, tokenize } from "./tokenize";

export const DEFAULT_MAX_TERMS = 24;
/** Title, entity and tag words: a single letter or digit says nothing on its own. */
const MIN_NAME_TERM = 2;
/** Summary words are many; short ones are mostly function words the list misses. */
const MIN_SUMMARY_TERM = 3;

const length = (token: string) => [...token].length;

function nameTerms(texts: readonly string[]): string[] {
  return texts.flatMap(tokenize).filter((t) => !STOPWORDS.has(t) && length(t) >= MIN_NAME_TERM);
}

/**
 * The summary's most informative tokens: non-stopwords of 3+ characters, each once. Those that
 * repeat or are capitalised (a name, an acronym, a product: "Postgres", "API", "gRPC", but not
 * a sentence's first word) come first, each group in order of first occurrence, so the words the
 * summary is about outrank the ones it merely uses.
 */
export function summaryKeyTerms(summary: string): string[] {
  const { source, words } = rawWords(summary);
  const seen = new Map<string, { first: number; count: number; capitalised: boolean }>();
  words.forEach(({ word, index }, position) => {
    const capitalised = /^.+\p{Lu}/u.test(word) || (/^\p{Lu}/u.test(word) && !startsSentence(source, index));
    for (const token of tokenize(word)) {
      if (STOPWORDS.has(token) || length(token) < MIN_SUMMARY_TERM) continue;
      const entry = seen.get(token);
      if (entry) {
        entry.count += 1;
        entry.capitalised ||= capitalised;
      } else seen.set(token, { first: position, count: 1, capitalised });
    }
  });
  const informative = (e: { count: number; capitalised: boolean }) => (e.count > 1 || e.capitalised ? 0 : 1);
  return [...seen.entries()]
    .sort(([, a], [, b]) => informative(a) - informative(b) || a.first - b.first)
    .map(([token]) => token);
}

/** At the text's start or after `.`, `!`, `?` or `:` (spaces and quotes between are skipped). */
function startsSentence(source: string, index: number): boolean {
  for (let i = index - 1; i >= 0; i--) {
    const c = source[i] as string;
    if (/[\s"'“”‘’([]/u.test(c)) continue;
    return /[.!?:]/.test(c);
  }
  return true;
}

/**
 * Terms in priority order title > entities > tags > summary key words, each once, at most
 * `maxTerms`. May be empty (a proposal of stopwords only): the search then returns nothing.
 */
export function buildCandidateQuery(p: TResolveProposal, maxTerms: number = DEFAULT_MAX_TERMS): TCandidateQuery {
  if (!Number.isInteger(maxTerms) || maxTerms < 0) throw new RangeError("maxTerms must be a non-negative integer");
  const ordered = [
    ...nameTerms([p.title]),
    ...nameTerms(p.entities),
    ...nameTerms(p.tags),
    ...summaryKeyTerms(p.delta_summary),
  ];
  return { terms: [...new Set(ordered)].slice(0, maxTerms) };
}
