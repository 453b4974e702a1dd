// Directive wording: sentences that only repeat a procedure turn (claim-statements.ts, step 2).
import { addPhrase, phraseTrie, phraseWords, segmentable, startsWith, type TTrie } from "./phrase-trie";
import { isNumber, splitSentences, tokens } from "./sentences";

/**
 * What an answer may repeat of a procedure turn without it being a claim (procedure-wording.ts's
 * procedureWording builds it from the directive): the directive's texts (registry, options,
 * constraints, diagnosis, report, findings, names), the fixed framing the offline model words
 * them with, and the vocabulary of the check being asked.
 */
export type TProcedureWording = {
  texts: readonly string[];
  frames: readonly string[];
  askVocabulary: readonly string[];
};

export type TCompiledWording = { pieces: TTrie; ask: Set<string> };

/** Words that carry no content of their own in an ask ("Check that the fuse is not blown"). */
const FUNCTION_WORDS = new Set(
  (
    "a an the this that these those it its is are be been being was were am do does did done to of in on at " +
    "by for with from into onto about as and or but if whether then than so not no yes you your yours i me " +
    "my we our us they them their there here what which who whom whose how when where why can could should " +
    "would will shall may might must has have had please now next first also just still again any some all " +
    "each every both either one ones whether let let's us out up down off over under"
  ).split(" "),
);
const CHECK_LEADS = [
  "check",
  "verify",
  "confirm",
  "measure",
  "test",
  "inspect",
  "look",
  "see",
  "tell me",
  "let me know",
  "find out",
  "make sure",
  "answer",
  "reply",
  "choose",
  "pick",
].map(phraseWords);
const ASK_FILLERS = new Set(["please", "now", "next", "first", "then", "ok", "okay", "so", "and"]);

const compiledWordings = new WeakMap<TProcedureWording, TCompiledWording>();

export function compileWording(wording: TProcedureWording): TCompiledWording {
  const cached = compiledWordings.get(wording);
  if (cached) return cached;
  const pieces = phraseTrie(wording.frames);
  for (const text of wording.texts) {
    // Each sentence of a directive text is one piece; so is the whole text when it has no break.
    for (const s of splitSentences(text))
      addPhrase(
        pieces,
        tokens(s.text).map((t) => t.word),
      );
    addPhrase(
      pieces,
      tokens(text).map((t) => t.word),
    );
  }
  const ask = new Set<string>();
  for (const text of wording.askVocabulary) for (const t of tokens(text)) ask.add(t.word);
  const compiled = { pieces, ask };
  compiledWordings.set(wording, compiled);
  return compiled;
}

function asksTheCheck(words: readonly string[], questionMark: boolean, ask: Set<string>): boolean {
  if (ask.size === 0) return false;
  let i = 0;
  while (i < words.length && ASK_FILLERS.has(words[i] as string)) i++;
  let lead = 0;
  for (const p of CHECK_LEADS) if (startsWith(words, p, i) && p.length > lead) lead = p.length;
  if (lead === 0 && !questionMark) return false;
  let content = 0;
  for (let j = i + lead; j < words.length; j++) {
    const w = words[j] as string;
    if (ask.has(w)) content++;
    else if (!FUNCTION_WORDS.has(w)) return false;
  }
  return content > 0;
}

export function isDirectiveWording(
  words: readonly string[],
  questionMark: boolean,
  compiled: TCompiledWording | null,
): boolean {
  // Numbers alone ("30.") are an answer, whatever the framing allows around them.
  if (compiled === null || words.every(isNumber)) return false;
  return segmentable(words, compiled.pieces) || asksTheCheck(words, questionMark, compiled.ask);
}
