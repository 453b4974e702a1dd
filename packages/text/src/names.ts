// Words as written, with where each starts, and which of them are written as names: what resolve
// reads as a text's specifics ("Postgres", "gRPC", "YubiKey") beside its numbers.

/** Letters, digits and marks, with apostrophes inside ("doesn't"): no overlapping repeats, linear time. */
const WORD = /[\p{L}\p{N}\p{M}]+(?:['’][\p{L}\p{N}\p{M}]+)*/gu;
const UPPER_AFTER_FIRST = /^.+\p{Lu}/u;
const UPPER_FIRST = /^\p{Lu}/u;
const SENTENCE_END = new Set([".", "!", "?", ":"]);
const SKIPPED = /[\s"'“”‘’([]/u;

export type TRawWord = { word: string; index: number };

/** The words of `text` as written, with their start offsets. */
export function rawWords(text: string): TRawWord[] {
  return [...text.matchAll(WORD)].map((m) => ({ word: m[0], index: m.index }));
}

/** At the text's start or after `.`, `!`, `?` or `:` (spaces and quotes between are skipped). */
function startsSentence(text: string, index: number): boolean {
  for (let i = index - 1; i >= 0; i--) {
    const c = text[i] as string;
    if (SKIPPED.test(c)) continue;
    return SENTENCE_END.has(c);
  }
  return true;
}

/**
 * A word written as a name: an upper-case letter after its first ("gRPC", "YubiKey", "API"), or
 * a capital that does not merely start a sentence ("Postgres" mid-sentence).
 */
export function isNameLike(text: string, word: TRawWord): boolean {
  const w = word.word;
  let plain = true;
  for (let i = 0; i < w.length; i++) {
    const code = w.charCodeAt(i);
    if ((code >= 65 && code <= 90) || code > 127) {
      plain = false;
      break;
    }
  }
  if (plain) return false;
  return UPPER_AFTER_FIRST.test(w) || (UPPER_FIRST.test(w) && !startsSentence(text, word.index));
}
