// Typo neighbours: the words of a vocabulary one edit away (a letter missing, added, replaced, or
// two neighbours swapped: Damerau–Levenshtein distance 1) from a word, through a symmetric-delete
// index (SymSpell, from mnemonist): a lookup costs a few hash probes whatever the vocabulary's size.
// Words shorter than MIN_LENGTH have too many neighbours to guess from ("pump" / "dump" / "pimp").
import { SymSpell } from "mnemonist";

const MIN_LENGTH = 5;
const length = (word: string) => [...word].length;

export class Spellings {
  private readonly index = new SymSpell({ maxDistance: 1, verbosity: 2 });
  private readonly known = new Set<string>();

  constructor(words: Iterable<string> = []) {
    for (const word of words) this.add(word);
  }

  add(word: string): void {
    if (length(word) < MIN_LENGTH - 1 || this.known.has(word)) return;
    this.known.add(word);
    this.index.add(word);
  }

  has(word: string): boolean {
    return this.known.has(word);
  }

  /** The vocabulary's words one edit from `word`, itself excluded. */
  near(word: string): string[] {
    if (length(word) < MIN_LENGTH) return [];
    return this.index
      .search(word)
      .map((m) => m.term)
      .filter((t) => t !== word);
  }
}
