// Phrase matching for the context engine. Messages are untrusted and catalog patterns are data, so
// nothing here builds a regular expression from either: the one analyser (@solserver/text) turns
// text into clauses of folded word tokens, and phrases are compared token by token. Catalog
// patterns and language-pack phrases are cut the same way, so "won't" in a pattern matches "wont"
// and "WON'T", and "fundído" matches "fundido".
import { type TClause, tokens } from "@solserver/text";

export type { TClause } from "@solserver/text";

/** The normalised form of a phrase, for comparing patterns ("Won't run" and "wont  run" agree). */
export function normalisePhrase(text: string): string {
  return tokens(text).join(" ");
}

/** Whether `phrase` occurs in `tokens` starting at `start`. */
export function phraseAt(tokens: readonly string[], phrase: readonly string[], start: number): boolean {
  if (phrase.length === 0 || start + phrase.length > tokens.length) return false;
  for (let k = 0; k < phrase.length; k++) if (tokens[start + k] !== phrase[k]) return false;
  return true;
}

/** Every start index where `phrase` occurs in `tokens`, in order. */
export function phraseStarts(tokens: readonly string[], phrase: readonly string[]): number[] {
  const starts: number[] = [];
  for (let i = 0; i + phrase.length <= tokens.length; i++) if (phraseAt(tokens, phrase, i)) starts.push(i);
  return starts;
}

/** Whether `phrase` occurs anywhere in the clauses (never across a clause break). */
export function containsPhrase(clauses: readonly TClause[], phrase: readonly string[]): boolean {
  return clauses.some((clause) => phraseStarts(clause.tokens, phrase).length > 0);
}
