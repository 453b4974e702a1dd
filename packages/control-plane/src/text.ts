// Small, deterministic text helpers shared by retrieval and the offline model. Every regex here
// is a single pass without nested quantifiers, so it runs in linear time on untrusted text.

const STOPWORDS = new Set(
  (
    "a an and are as at be been but by can could did do does for from had has have how i if in into is it its " +
    "just me my no not of on or our ours please should so that the their them then there these they this " +
    "those to too us was we were what when where which who why will with would you your yours about also " +
    "any all some than very let lets let's now going forward remember decided agreed note rule policy always never"
  ).split(" "),
);

const WORD = /[\p{L}\p{N}][\p{L}\p{N}_'-]*/gu;

/** Lower-cased word tokens, in order. */
export function words(text: string): string[] {
  return Array.from(text.toLowerCase().matchAll(WORD), (m) => m[0].replace(/'s$/, ""));
}

/** Words that carry meaning: not stopwords, at least 3 characters (or a number). */
export function contentWords(text: string): string[] {
  return words(text).filter((w) => !STOPWORDS.has(w) && (w.length >= 3 || /^\d+$/.test(w)));
}

export function uniqueContentWords(text: string): string[] {
  return [...new Set(contentWords(text))];
}

/** Share of `query` words found in `doc` words: 0 (none) .. 1 (all). */
export function coverage(query: readonly string[], doc: ReadonlySet<string>): number {
  if (query.length === 0) return 0;
  let hit = 0;
  for (const w of query) if (doc.has(w)) hit++;
  return hit / query.length;
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
