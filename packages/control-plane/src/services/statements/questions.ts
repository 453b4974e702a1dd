// Question sentences, and the assertions dressed as questions (claim-statements.ts, step 2).
import { phraseWords, sameWords, startsWith } from "./phrase-trie";
import {
  CLOSERS,
  isNumber,
  isSpace,
  LATIN_LETTER,
  LETTER,
  QUESTION_MARKS,
  TERMINATORS,
  type TSentence,
  tokens,
} from "./sentences";

/** Words that open a question (interrogatives and auxiliaries, in the languages we see most). */
const QUESTION_OPENERS = new Set(
  // English
  (
    "what whats what's how why when where who whom whose which is are was were am do does did can could " +
    "should would will shall may might must have has had isn't aren't wasn't weren't don't doesn't didn't " +
    "can't cannot couldn't shouldn't wouldn't won't haven't hasn't hadn't mustn't shan't any anything anyone " +
    "anybody " +
    // Spanish (questions also open with "¿")
    "qué cómo cuál cuáles cuándo dónde adónde quién quiénes cuánto cuánta cuántos cuántas hay " +
    // French
    "est qu'est quel quelle quels quelles comment pourquoi où quand combien " +
    // German
    "was wie warum wieso weshalb wann wo wer wen wem wessen welche welcher welches welchen woher wohin " +
    "womit wozu ist sind hat haben hast habt kann kannst können könnt soll sollte sollen gibt wird werden " +
    "waren darf dürfen muss müssen funktioniert läuft " +
    // Italian
    "cosa perché dove chi quale quali quanto quanti è sono hai puoi posso " +
    // Portuguese
    "porquê quem quais são " +
    // Dutch
    "wat hoe waarom wanneer waar wie welke welk zijn heeft hebben kun kunt moet werkt"
  ).split(" "),
);
/** Words that open a part which asserts nothing on its own: "If the pump hums, is …?". */
const SUBORDINATE_OPENERS = new Set(
  (
    "if when whenever before after once while since because although though unless until with without " +
    "for in on at to from by during given assuming supposing besides apart except while after " +
    "si cuando antes después despues con sin para en quand avant après apres avec sans pour dans lorsque " +
    "wenn bevor nachdem mit ohne für fur bei se prima dopo senza per als voor na met zonder"
  ).split(" "),
);
/** Words skipped before a part's first word: "And is it …", "So, what …", "1. Is …". */
const LEAD_FILLERS = new Set(["and", "but", "so", "or", "then", "also", "now", "well", "ok", "okay", "y", "et", "und"]);
const TAG_WORDS = new Set([
  "right",
  "correct",
  "ok",
  "okay",
  "yes",
  "yeah",
  "no",
  "agreed",
  "true",
  "eh",
  "huh",
  "verdad",
  "cierto",
  "oder",
  "vero",
  "né",
  "toch",
]);
const TAG_PHRASES = [
  "is that right",
  "is that correct",
  "is that true",
  "isn't that right",
  "isn't that so",
  "don't you think",
  "wouldn't you agree",
  "you know",
  "you see",
  "n'est ce pas",
  "nicht wahr",
  "no es cierto",
  "não é",
].map(phraseWords);
const AUXILIARIES = new Set(
  (
    "is are was were am do does did can could should would will shall may might must has have had isn't " +
    "aren't wasn't weren't don't doesn't didn't can't couldn't shouldn't wouldn't won't haven't hasn't hadn't"
  ).split(" "),
);
const PRONOUNS = new Set(["i", "you", "we", "they", "he", "she", "it", "there", "that", "this", "one"]);
const RHETORICAL_OPENERS = [
  "did you know",
  "didn't you know",
  "do you know that",
  "isn't it true that",
  "is it not true that",
  "wouldn't you agree that",
  "don't forget that",
  "remember that",
  "you know that",
  "sabías que",
  "sabias que",
  "savais tu que",
  "wusstest du dass",
].map(phraseWords);
/** French inversion ("est-il", "faut-il", "avez-vous"): a question without an opener word. */
const INVERSION_SUFFIXES = ["-il", "-elle", "-ils", "-elles", "-vous", "-tu", "-on", "-je", "-nous", "-t-il"];
/** Up to this many words, a sentence ending in "?" is a question whatever its shape ("Fuse intact?"). */
const SHORT_QUESTION_WORDS = 3;
const PART_BREAKS = new Set([",", ";", ":", "—", "–", "(", ")", "、", "，", "；", "：", "¿"]);

/** The parts of a sentence between commas, semicolons, colons, dashes, brackets and "¿", as word lists. */
function parts(text: string, start: number, end: number): string[][] {
  const out: string[][] = [];
  let from = start;
  for (let i = start; i <= end; i++) {
    if (i < end && !PART_BREAKS.has(text.charAt(i))) continue;
    const words = tokens(text, from, i).map((t) => t.word);
    // A part of fillers only ("So, …") opens nothing.
    if (words.some((w) => !LEAD_FILLERS.has(w) && !isNumber(w))) out.push(words);
    from = i + 1;
  }
  return out;
}

/** The first word of a part after fillers and a list number. */
function firstWord(words: readonly string[]): string | undefined {
  let i = 0;
  while (i < words.length && (LEAD_FILLERS.has(words[i] as string) || isNumber(words[i] as string))) i++;
  return words[i];
}

const opensQuestion = (words: readonly string[]) => QUESTION_OPENERS.has(firstWord(words) ?? "");
const opensSubordinate = (words: readonly string[]) => SUBORDINATE_OPENERS.has(firstWord(words) ?? "");

function isTag(words: readonly string[]): boolean {
  if (words.length === 0 || words.length > 3) return false;
  if (words.length === 1 && TAG_WORDS.has(words[0] as string)) return true;
  if (words.length === 2 && AUXILIARIES.has(words[0] as string) && PRONOUNS.has(words[1] as string)) return true;
  return TAG_PHRASES.some((p) => sameWords(words, p));
}

export function endsWithQuestionMark(text: string, start: number, end: number): boolean {
  let i = end;
  while (i > start && (CLOSERS.has(text.charAt(i - 1)) || isSpace(text.charAt(i - 1)))) i--;
  while (i > start && TERMINATORS.has(text.charAt(i - 1))) {
    if (QUESTION_MARKS.has(text.charAt(i - 1))) return true;
    i--;
  }
  return false;
}

function isLatinText(text: string): boolean {
  for (const ch of text) if (LETTER.test(ch) && !LATIN_LETTER.test(ch)) return false;
  return true;
}

function hasInversion(lower: string): boolean {
  for (const suffix of INVERSION_SUFFIXES) {
    let at = lower.indexOf(suffix);
    while (at >= 0) {
      if (at > 0 && LETTER.test(lower.charAt(at - 1)) && !LETTER.test(lower.charAt(at + suffix.length))) return true;
      at = lower.indexOf(suffix, at + 1);
    }
  }
  return false;
}

/**
 * A question that asks, not a statement with a question mark (see the header, 2.). In Latin
 * script a sentence of more than three words is a question only when its first part opens with a
 * question word, or opens with a subordinate part ("If …", "With the switch ON, …") and a later
 * part does: "The pump uses a 30 A fuse, can you bypass it?" asserts its first part.
 */
export function isQuestion(text: string, s: TSentence, words: readonly string[]): boolean {
  const inverted = s.text.includes("¿");
  if (!inverted && !endsWithQuestionMark(text, s.start, s.end)) return false;
  if (RHETORICAL_OPENERS.some((p) => startsWith(words, p))) return false;
  const ps = parts(text, s.start, s.end);
  const first = ps[0] ?? [];
  const last = ps[ps.length - 1] ?? [];
  if (ps.length >= 2 && isTag(last) && !opensQuestion(first)) return false;
  if (words.length <= SHORT_QUESTION_WORDS || !isLatinText(s.text)) return true;
  if (opensQuestion(first) || hasInversion(s.text.toLowerCase())) return true;
  if (inverted && s.text.trimStart().startsWith("¿")) return true;
  let i = 0;
  while (i < ps.length - 1 && opensSubordinate(ps[i] ?? [])) i++;
  return i > 0 && (opensQuestion(ps[i] ?? []) || (inverted && !opensSubordinate(ps[i] ?? [])));
}
