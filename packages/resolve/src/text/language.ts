// Which language a text is written in, for one rule: a proposal that restates a CFB in another
// language is never an update (it would replace the team's text) but a review, and its word
// overlap with the CFB says nothing, so only language-neutral tokens (numbers, names) are compared.
//
// A vote of function words ("the", "und", "les", "los", "het", "não"…), which every sentence of
// these languages is full of, plus the writing system for scripts other than Latin. Trigram
// detectors (franc) were measured at 0.1–0.5 ms a text; resolve profiles up to 40 candidate texts
// per proposal, so that alone would be several times its 3 ms budget. This costs microseconds, and
// the rule only needs "same language or not". An uncertain text is "unknown", never "different".
import { tokenize } from "../tokenize";

const FUNCTION_WORDS: Readonly<Record<string, string>> = {
  en: "the and of to is are was were be been for with on in at by from that this these those it its not or as an must will can should has have had we our their they when after before than which who",
  de: "der die das den dem des und ist sind wird werden nicht mit für von zu im auf bei aus nach vor wie auch nur noch ein eine einer eines einem einen wir unsere sie es oder wenn dass",
  fr: "le la les un une des du de et ou est sont avec pour par dans sur pas plus au aux ce cette ces qui que nous notre leur leurs il elle doit être sont",
  es: "de del el la los las un una unos unas y o es son con por para en del al se lo no más que su sus nosotros nuestro debe está están",
  it: "di da il lo la gli le un una dei delle del della e o è sono con per nel nella sul che non più si deve nostro",
  nl: "de het een en of is zijn met voor van op te niet ook die dat wordt worden bij naar als we onze moet",
  pt: "de o a os as um uma uns umas e ou é são com para por em do da dos das no na nos nas não mais que se deve nosso",
};

const VOTES: ReadonlyMap<string, readonly string[]> = (() => {
  const byWord = new Map<string, string[]>();
  for (const [lang, list] of Object.entries(FUNCTION_WORDS))
    for (const word of new Set(tokenize(list))) byWord.set(word, [...(byWord.get(word) ?? []), lang]);
  return byWord;
})();

const SCRIPTS: readonly [string, RegExp][] = [
  ["cyrillic", /\p{Script=Cyrillic}/u],
  ["greek", /\p{Script=Greek}/u],
  ["arabic", /\p{Script=Arabic}/u],
  ["hebrew", /\p{Script=Hebrew}/u],
  ["han", /\p{Script=Han}/u],
  ["kana", /[\p{Script=Hiragana}\p{Script=Katakana}]/u],
  ["hangul", /\p{Script=Hangul}/u],
  ["devanagari", /\p{Script=Devanagari}/u],
  ["thai", /\p{Script=Thai}/u],
];

/** Every character below U+0080. */
function isAscii(token: string): boolean {
  for (let i = 0; i < token.length; i++) if (token.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** A language needs this many of its function words, and this lead over the runner-up. */
const MIN_VOTES = 2;
const LEAD = 1.5;

export type TLanguageGuess = string;

/** The text's language ("en", "de", …, or a script such as "cyrillic"), or null when unsure. */
export function detectLanguage(text: string): TLanguageGuess | null {
  return languageOf(tokenize(text));
}

/** The same, over index tokens already cut. */
export function languageOf(tokens: readonly string[]): TLanguageGuess | null {
  // A script other than Latin on a quarter or more of the words decides (ASCII text has none).
  const nonAscii = tokens.some((t) => !isAscii(t));
  for (const [script, pattern] of nonAscii ? SCRIPTS : []) {
    const inScript = tokens.filter((t) => pattern.test(t)).length;
    if (tokens.length > 0 && inScript * 4 >= tokens.length) return script;
  }
  const votes = new Map<string, number>();
  for (const token of tokens) for (const lang of VOTES.get(token) ?? []) votes.set(lang, (votes.get(lang) ?? 0) + 1);
  const ranked = [...votes].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const [best, next] = ranked;
  if (!best || best[1] < MIN_VOTES) return null;
  if (next && best[1] < next[1] * LEAD) {
    // Two close languages (Spanish and French share "de", "la"): which one matters little when
    // the text is plainly not English, the language nearly every knowledge base is written in.
    const english = votes.get("en") ?? 0;
    return best[0] !== "en" && next[0] !== "en" && english * LEAD <= best[1] ? best[0] : null;
  }
  return best[0];
}

/** True only when both languages are known and differ. */
export function languagesDiffer(a: TLanguageGuess | null, b: TLanguageGuess | null): boolean {
  return a !== null && b !== null && a !== b;
}
