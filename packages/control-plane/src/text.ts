import { analyzeTerms } from "@solserver/text";

// Small, deterministic text helpers of the offline model: presentation, and word overlap through
// the one analyser (@solserver/text). Every regex here
// is a single pass without nested quantifiers, so it runs in linear time on untrusted text.

/** Share of `query` words found in `doc` words: 0 (none) .. 1 (all). */
export function coverage(query: readonly string[], doc: ReadonlySet<string>): number {
  if (query.length === 0) return 0;
  let hit = 0;
  for (const w of query) if (doc.has(w)) hit++;
  return hit / query.length;
}

/** The text's content words (@solserver/text: function words out, unstemmed), each once. */
export function uniqueContentWords(text: string): string[] {
  return [...new Set(analyzeTerms(text, { stem: false }))];
}

/** Sentences with their terminator, split on . ! ? and newlines. */
export function sentences(text: string): string[] {
  return Array.from(text.matchAll(/[^.!?\n]+[.!?]*/g), (m) => m[0].trim()).filter((s) => s.length > 0);
}

export function normalizeWhitespace(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

export function capitalize(text: string): string {
  return text.length === 0 ? text : text[0]?.toUpperCase() + text.slice(1);
}

/** `text` cut to at most `max` characters, at a word boundary when one is near, marked with "…". */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${space > max * 0.6 ? cut.slice(0, space) : cut}…`;
}
