// What the router's classifier reads in a message, from the one text analyser (packages/text):
// - the analysed terms (folded, stopwords out, stemmed in the message's language, aliases
//   resolved: "pumps" = "pump", "k8s" = "kubernetes"), and pairs of neighbouring terms;
// - the words as typed, stopwords kept ("how do I", "wont"): the shape of a request;
// - character 4-grams of each word, with its edges ("<pum", "pump", "ump>"): a typo or a word in
//   another language still shares most of them with the examples' words.
// Weights per kind are fixed (docs/routing.md); the classifier normalises each message's vector.
import { analyzeTerms, tokens } from "@solserver/text";

export type TFeatures = Map<string, number>;

const WEIGHT = { term: 1, pair: 0.5, word: 0.5, gram: 0.5 } as const;
const GRAM = 4;
/** Features read from at most this much of a message: a request says what it is about early. */
const MAX_CHARS = 2000;

export function routeFeatures(text: string): TFeatures {
  const clipped = text.length > MAX_CHARS ? text.slice(0, MAX_CHARS) : text;
  const out: TFeatures = new Map();
  const add = (feature: string, weight: number) => out.set(feature, (out.get(feature) ?? 0) + weight);
  const terms = analyzeTerms(clipped);
  for (const t of terms) add(`t:${t}`, WEIGHT.term);
  for (let i = 0; i + 1 < terms.length; i++) add(`p:${terms[i]} ${terms[i + 1]}`, WEIGHT.pair);
  for (const word of tokens(clipped)) {
    add(`w:${word}`, WEIGHT.word);
    const edged = `<${word}>`;
    for (let i = 0; i + GRAM <= edged.length; i++) add(`g:${edged.slice(i, i + GRAM)}`, WEIGHT.gram);
  }
  return out;
}
