// Candidate query (seed 001 §6.1): the terms the candidate index looks for, built from the
// proposal's title, entities, tags and the key words of its delta_summary. Every term is an
// analysed term (text/analyze.ts: index tokens, stemmed), the same the index holds for each CFB,
// so it is plain data and never query syntax.
import type { TCandidateQuery, TResolveProposal } from "@solserver/contracts";
import { analysisLanguage, analyzeTerms, isNameLike, isStopword, rawWords, tokens } from "@solserver/text";

/**
 * At most this many terms: every term of a proposal of ordinary length. The index adds up the
 * postings of each, so the bound keeps a pasted essay from costing more than a proposal does.
 */
export const MAX_QUERY_TERMS = 64;
/** Summary words are many; short ones are mostly function words the list misses. */
const MIN_SUMMARY_TERM = 3;

const length = (token: string) => [...token].length;

/**
 * The summary's most informative tokens: non-stopwords of 3+ characters, each once. Those that
 * repeat or are capitalised (a name, an acronym, a product: "Postgres", "API", "gRPC", but not
 * a sentence's first word) come first, each group in order of first occurrence, so the words the
 * summary is about outrank the ones it merely uses.
 */
export function summaryKeyTerms(summary: string): string[] {
  const seen = new Map<string, { first: number; count: number; capitalised: boolean }>();
  rawWords(summary).forEach((word, position) => {
    const capitalised = isNameLike(summary, word);
    for (const token of tokens(word.word)) {
      if (isStopword(token) || length(token) < MIN_SUMMARY_TERM) continue;
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

/**
 * Terms in priority order title > entities > tags > summary key words, each once, at most
 * `maxTerms`. May be empty (a proposal of stopwords only): the search then returns nothing.
 */
export function buildCandidateQuery(p: TResolveProposal, maxTerms: number = MAX_QUERY_TERMS): TCandidateQuery {
  if (!Number.isInteger(maxTerms) || maxTerms < 0) throw new RangeError("maxTerms must be a non-negative integer");
  // One language for the whole proposal: its title alone is often too short to tell.
  const language = analysisLanguage(`${p.title}\n${p.delta_summary}`);
  const terms = (text: string) => analyzeTerms(text, { language });
  const ordered = [
    ...terms(p.title),
    ...p.entities.flatMap(terms),
    ...p.tags.flatMap(terms),
    ...summaryKeyTerms(p.delta_summary).flatMap(terms),
  ];
  return { terms: [...new Set(ordered)].slice(0, maxTerms) };
}
