// Language that says a practice changed: "we no longer …", "X was replaced by Y", "instead of X",
// "X is not used anymore", "retired". A proposal that says this about a CFB's subject contradicts
// the CFB rather than restating or extending it, and only a person can decide what is true now;
// resolve raises CONTRADICTS and sends it to review. English plus the commonest forms in German,
// French, Spanish, Portuguese and Dutch. Matched on index tokens (folded, diacritics removed), so
// it is a walk over the words (@solserver/text tokens), linear in the text's length, with no regular expression at all.
import { tokens } from "@solserver/text";

export const CHANGE_CUES = ["NEGATION", "REPLACEMENT", "RETIREMENT"] as const;
export type TChangeCue = (typeof CHANGE_CUES)[number];

// One word that is a cue by itself.
const WORDS: ReadonlyMap<string, TChangeCue> = new Map([
  ...words("NEGATION", "anymore stopped gestopt"),
  ...words(
    "REPLACEMENT",
    "replaced replaces replacing superseded supersedes ersetzt statt anstatt anstelle remplace remplacee " +
      "reemplazado reemplazada reemplaza sustituido sustituida substituido substituida vervangen",
  ),
  ...words(
    "RETIREMENT",
    "retired deprecated discontinued dropped abandoned decommissioned sunset sunsetted abgeschafft eingestellt " +
      "descontinuado descontinuada afgeschaft uitgefaseerd",
  ),
]);

// Two words in a row.
const PAIRS: ReadonlyMap<string, TChangeCue> = new Map([
  ...pairs("NEGATION", "no longer|no more|any more|stop using|nicht mehr|niet meer|ya no|ja nao"),
  ...pairs(
    "REPLACEMENT",
    "instead of|switched to|switched from|moved to|moved from|migrated to|migrated from|in favour|in favor|" +
      "au lieu|en lugar|en vez|em vez|in plaats",
  ),
  ...pairs("RETIREMENT", "phased out"),
]);

// A negation split around its verb: "ne … plus", "não … mais", "geen … meer", "kein … mehr".
const SPLIT: readonly { first: ReadonlySet<string>; last: string; within: number }[] = [
  { first: new Set(["ne", "n"]), last: "plus", within: 4 },
  { first: new Set(["nao"]), last: "mais", within: 4 },
  { first: new Set(["geen"]), last: "meer", within: 4 },
  { first: new Set(["kein", "keine", "keinen", "keiner"]), last: "mehr", within: 3 },
];

const SPLIT_FIRST = new Set(SPLIT.flatMap((s) => [...s.first]));

function words(cue: TChangeCue, list: string): [string, TChangeCue][] {
  return list.split(" ").map((w) => [w, cue]);
}
function pairs(cue: TChangeCue, list: string): [string, TChangeCue][] {
  return list.split("|").map((p) => [p, cue]);
}

/** The kinds of change language in `text`. */
export function changeCues(text: string): Set<TChangeCue> {
  return changeCuesOf(tokens(text));
}

/** The same, over index tokens already cut. */
export function changeCuesOf(tokens: readonly string[]): Set<TChangeCue> {
  const found = new Set<TChangeCue>();
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as string;
    const single = WORDS.get(token);
    if (single) found.add(single);
    const next = tokens[i + 1];
    if (next !== undefined) {
      const pair = PAIRS.get(`${token} ${next}`);
      if (pair) found.add(pair);
    }
    if (!SPLIT_FIRST.has(token)) continue;
    for (const split of SPLIT) {
      if (!split.first.has(token)) continue;
      for (let j = i + 1; j <= i + split.within && j < tokens.length; j++)
        if (tokens[j] === split.last) found.add("NEGATION");
    }
  }
  return found;
}
