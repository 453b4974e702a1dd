import type { TClaimMapEntry } from "@solserver/contracts";

// What an answer states, sentence by sentence, and which of its statements a claim map leaves
// uncovered (issue 17, "strict means complete"; docs/routing.md#what-counts-as-a-statement).
// Pure and deterministic. The answer is untrusted text: everything here is a single left-to-right
// pass over characters or tokens (no regular expression runs over the text, only per-character
// class tests), and phrase lookups walk tries of bounded depth, so the cost is linear in the
// answer's length.
//
// 1. Sentences. assistant_text is cut at line breaks and after a run of sentence-ending marks
//    (. ! ? … and the full-width, Arabic, Greek and other forms) that is followed by whitespace or
//    the end (closing quotes and brackets after the mark stay with the sentence; after "。", "！"
//    or "？" no space is needed). A "." does not end a sentence after an initialism ("e.g.",
//    "i.e.", "U.S.", "a.m."), a listed abbreviation ("Dr.", "approx.", "No. 5", "etc." before a
//    lower-case word), a single letter that is not a unit after a number ("J. Smith", but "30 A."
//    ends one) or a list number opening the sentence ("1. Check …"). "30 A", "12 V", "3.5",
//    "v1.2" and URLs hold no boundary at all (no mark is followed by a space inside them). A piece
//    without any letter or digit (a line of dashes, an emoji alone) is no sentence. Sentences are
//    numbered from 0 in the order they appear: that is the index a claim's `span.sentence` names.
// 2. Kinds. Every sentence is exactly one of:
//    - "question": it ends with a question mark (or holds a "¿"), unless it asserts all the same:
//      a tag question ("…, right?", "…, isn't it?"), a rhetorical opener ("Did you know …?"), or,
//      in Latin script and longer than three words, a sentence whose first part does not open
//      with a question word or auxiliary, unless that part is subordinate ("If the pump hums, …",
//      "With the switch ON, …") and the next one does: "The fuse is 30 A?" and "The pump uses a
//      30 A fuse, so can you bypass it?" state something;
//    - "courtesy": nothing but greetings, thanks, acknowledgements of receipt, farewells and set
//      conversational phrases ("Hi", "Thanks!", "You're welcome.", "Got it.", "Here is what I
//      know.", "I hope this helps.", "I don't know."), the offline model's fixed sentences about the
//      conversation ("I have no stored knowledge about this yet."), and its report of a proposal
//      of this same answer ('I proposed saving this as new knowledge for review: "<title>".', the
//      title being one of the answer's cfb_suggestions). Agreement ("Yes", "Sure", "Right",
//      "Correct") is an answer, not courtesy;
//    - "directive" (procedure mode only, given the turn's wording from procedureWording): the
//      sentence only repeats the directive (its words are whole sentences of the directive's
//      texts, option labels, findings and names, joined by procedure-text.ts's fixed framing such
//      as "Back to the step:" or "Cause:"), or only asks the technician the next check (it opens
//      with a check verb or ends with a question mark, and every other word is a function word or
//      a word of the step's question, how-to, location, explanation, options or system name);
//    - "statement": anything else with a letter or digit in it.
// 3. Coverage. A claim that names a sentence by index (and gives no valid character range)
//    answers for the whole sentence. A claim with a valid character range (0 ≤ start_char <
//    end_char ≤ length; it decides over `sentence` when both are given) answers for the clauses
//    it overlaps: a statement is cut into clauses at ";" and at a coordinating conjunction after
//    a comma (", and" ", but" ", or" ", so" ", yet"), or at " and " / " but " before a subject
//    pronoun ("… 30 A fuse and you can bypass it …"). A statement is covered when a claim answers
//    for all of it (every clause that is not itself courtesy or directive wording).

// ---- characters ---------------------------------------------------------------------------------

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const MARK = /\p{M}/u;
const LATIN_LETTER = /\p{Script=Latin}/u;
const LETTER = /\p{L}/u;
const UPPER = /\p{Lu}/u;

const QUESTION_MARKS = new Set(["?", "？", "؟", "‽", "⁇", "⁈", "⁉", "\u037e", "፧", "︖", "﹖", "⸮"]);
const TERMINATORS = new Set([".", "!", "…", "。", "！", "．", "｡", "﹒", "﹗", "։", "።", "।", "॥", ...QUESTION_MARKS]);
/** Marks that end a sentence even with no space after them (Chinese and Japanese text has none). */
const WIDE_TERMINATORS = new Set(["。", "！", "？", "｡", "﹒", "﹗", "︖", "﹖"]);
const CLOSERS = new Set(['"', "'", "”", "’", "»", "›", ")", "]", "}", "）", "」", "』", "】", "〉", "》", "〕"]);
const LINE_BREAKS = new Set(["\n", "\r", "\u2028", "\u2029", "\u0085", "\u000b", "\u000c"]);
const APOSTROPHES = new Set(["'", "’", "ʼ"]);

function isSpace(ch: string | undefined): boolean {
  if (ch === undefined) return false;
  return ch === " " || ch === "\t" || ch === "\u00a0" || ch === "\u3000" || LINE_BREAKS.has(ch) || /\s/u.test(ch);
}
const isWordChar = (ch: string | undefined) => ch !== undefined && (LETTER_OR_DIGIT.test(ch) || MARK.test(ch));

// ---- tokens -------------------------------------------------------------------------------------

export type TToken = { word: string; start: number; end: number };

/**
 * Word tokens of `text` in order, lower-cased and NFKC-normalised ("Ｆuse" → "fuse"), with their
 * offsets. A word is a run of letters, digits and combining marks; an apostrophe between letters
 * stays inside it ("you're", "let's"); anything else separates words ("fresh-water" → fresh, water;
 * "CFB-0001" → cfb, 0001; "3.5" → 3, 5).
 */
export function tokens(text: string, from = 0, to = text.length): TToken[] {
  const out: TToken[] = [];
  let start = -1;
  let i = from;
  while (i < to) {
    const cp = text.codePointAt(i) ?? 0;
    const ch = String.fromCodePoint(cp);
    const next = i + ch.length;
    const inWord = isWordChar(ch) && (start >= 0 || !MARK.test(ch));
    const apostrophe = start >= 0 && APOSTROPHES.has(ch) && next < to && LETTER.test(text.charAt(next));
    if (inWord || apostrophe) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      out.push(token(text, start, i));
      start = -1;
    }
    i = next;
  }
  if (start >= 0) out.push(token(text, start, to));
  return out;
}

function token(text: string, start: number, end: number): TToken {
  let word = text.slice(start, end).normalize("NFKC").toLowerCase();
  if (word.includes("’") || word.includes("ʼ")) word = word.replaceAll("’", "'").replaceAll("ʼ", "'");
  return { word, start, end };
}

const isNumber = (word: string) => {
  for (const ch of word) if (ch < "0" || ch > "9") return false;
  return word.length > 0;
};

// ---- sentences ----------------------------------------------------------------------------------

export type TSentence = { index: number; start: number; end: number; text: string };

/** Abbreviations a "." never ends a sentence after (lower case, without the dot): titles before
 * names, and abbreviations a number or a word always follows ("approx. 30 A", "cf. the manual"). */
const ABBREVIATIONS = new Set(
  "mr mrs ms dr prof st jr sr mme mlle sra vs cf approx appx ca fig figs incl excl resp vol pp ref bzw usw".split(" "),
);
/** Abbreviations that end a sentence only before an upper-case letter or the end ("etc. The pump"). */
const SOFT_ABBREVIATIONS = new Set("etc al inc ltd corp co dept est min max avg ft in lbs oz".split(" "));

/**
 * The word before a "." at `dot` (letters, digits and inner dots: "e.g", "U.S", "Dr", "30"), and
 * the token before that word, if any: what decides whether the dot is an abbreviation's.
 */
function wordBeforeDot(text: string, dot: number, sentenceStart: number): { word: string; start: number } {
  let i = dot;
  while (i > sentenceStart) {
    const ch = text.charAt(i - 1);
    if (ch === "." || isWordChar(ch)) i--;
    else if (/[\uDC00-\uDFFF]/.test(ch) && i - 2 >= sentenceStart && isWordChar(text.slice(i - 2, i))) i -= 2;
    else break;
  }
  return { word: text.slice(i, dot), start: i };
}

/** Single letters joined by dots: "e.g", "i.e", "U.S", "a.m" (the final dot is the one at hand). */
function isInitialism(word: string): boolean {
  if (!word.includes(".")) return false;
  const parts = word.split(".");
  return parts.length >= 2 && parts.every((p) => p.length === 1 && LETTER.test(p));
}

/** The first non-space character at or after `i`. */
function nextVisible(text: string, i: number): string | undefined {
  let j = i;
  while (j < text.length && isSpace(text.charAt(j))) j++;
  return j < text.length ? text.charAt(j) : undefined;
}

/**
 * The word before `at` in the sentence that started at `start` (skipping what is not a word), or
 * null. Scans back only over the gap and that word: each character is looked at by one dot at most.
 */
function previousWord(text: string, at: number, start: number): string | null {
  let end = at;
  while (end > start && !isWordChar(text.charAt(end - 1)) && !/[\uDC00-\uDFFF]/.test(text.charAt(end - 1))) end--;
  if (end <= start) return null;
  let from = end;
  while (from > start && (isWordChar(text.charAt(from - 1)) || /[\uD800-\uDFFF]/.test(text.charAt(from - 1)))) from--;
  return text.slice(from, end);
}

/** Whether a lone "." at `dot` (followed by whitespace) ends the sentence that started at `start`. */
function dotEndsSentence(text: string, dot: number, start: number): boolean {
  const { word, start: wordStart } = wordBeforeDot(text, dot, start);
  if (word === "") return true;
  if (isInitialism(word)) return false;
  const lower = word.toLowerCase();
  const next = nextVisible(text, dot + 1);
  if (lower === "no" || lower === "nr" || lower === "art") return !(next !== undefined && next >= "0" && next <= "9");
  if (ABBREVIATIONS.has(lower)) return false;
  if (SOFT_ABBREVIATIONS.has(lower)) return next === undefined || UPPER.test(next);
  // "1. Check the fuse": a list number opens the sentence.
  if (isNumber(word)) return previousWord(text, wordStart, start) !== null;
  if (word.length === 1 && LETTER.test(word)) {
    // "30 A." is a unit after a number; "J. Smith" an initial.
    return isNumber(previousWord(text, wordStart, start) ?? "");
  }
  return true;
}

/**
 * The sentences of `text`, numbered from 0, with their character offsets (trimmed). Pieces with
 * no letter or digit are left out and get no number.
 */
export function splitSentences(text: string): TSentence[] {
  const out: TSentence[] = [];
  let start = 0;
  const close = (end: number) => {
    let s = start;
    let e = end;
    while (s < e && isSpace(text.charAt(s))) s++;
    while (e > s && isSpace(text.charAt(e - 1))) e--;
    if (s < e && hasWord(text, s, e)) out.push({ index: out.length, start: s, end: e, text: text.slice(s, e) });
  };
  let i = 0;
  while (i < text.length) {
    const ch = text.charAt(i);
    if (LINE_BREAKS.has(ch)) {
      close(i);
      start = i + 1;
      i++;
      continue;
    }
    if (!TERMINATORS.has(ch)) {
      i++;
      continue;
    }
    // A run of marks and closers: `"?".` ends where the run ends.
    let j = i;
    let marks = 0;
    let wide = false;
    while (j < text.length && (TERMINATORS.has(text.charAt(j)) || CLOSERS.has(text.charAt(j)))) {
      if (TERMINATORS.has(text.charAt(j))) marks++;
      if (WIDE_TERMINATORS.has(text.charAt(j))) wide = true;
      j++;
    }
    const atBoundary = wide || j === text.length || isSpace(text.charAt(j));
    const loneDot = ch === "." && marks === 1;
    if (atBoundary && (!loneDot || dotEndsSentence(text, i, start))) {
      close(j);
      start = j;
    }
    i = j;
  }
  close(text.length);
  return out;
}

function hasWord(text: string, from: number, to: number): boolean {
  // By code point: astral letters (surrogate pairs) only match as a whole.
  for (const ch of text.slice(from, to)) if (LETTER_OR_DIGIT.test(ch)) return true;
  return false;
}

// ---- phrase tries ---------------------------------------------------------------------------------

/** "#" in a phrase stands for any number token. */
const NUMBER_SLOT = "#";
type TTrie = { children: Map<string, TTrie>; end: boolean };
const trie = (): TTrie => ({ children: new Map(), end: false });

function addPhrase(root: TTrie, words: readonly string[]): void {
  if (words.length === 0) return;
  let node = root;
  for (const w of words) {
    let child = node.children.get(w);
    if (child === undefined) {
      child = trie();
      node.children.set(w, child);
    }
    node = child;
  }
  node.end = true;
}

function phraseTrie(phrases: readonly string[]): TTrie {
  const root = trie();
  for (const p of phrases) addPhrase(root, p === NUMBER_SLOT ? [NUMBER_SLOT] : phraseWords(p));
  return root;
}

/** A phrase's words: its tokens, with "#" kept as the number slot. */
function phraseWords(phrase: string): string[] {
  const out: string[] = [];
  for (const part of phrase.split(" ")) {
    if (part === NUMBER_SLOT) out.push(NUMBER_SLOT);
    else for (const t of tokens(part)) out.push(t.word);
  }
  return out;
}

/**
 * Whether `words` is a sequence of phrases of `root` (dynamic programming over positions: each
 * position walks the trie once, so the cost is the word count times the longest phrase).
 */
function segmentable(words: readonly string[], root: TTrie, maxWords = Number.POSITIVE_INFINITY): boolean {
  if (words.length === 0 || words.length > maxWords) return false;
  const reachable = new Uint8Array(words.length + 1);
  reachable[0] = 1;
  for (let i = 0; i < words.length; i++) {
    if (reachable[i] === 0) continue;
    let node: TTrie | undefined = root;
    for (let j = i; j < words.length && node !== undefined; j++) {
      const w = words[j] as string;
      node = node.children.get(w) ?? (isNumber(w) ? node.children.get(NUMBER_SLOT) : undefined);
      if (node?.end) reachable[j + 1] = 1;
    }
  }
  return reachable[words.length] === 1;
}

// ---- courtesy -------------------------------------------------------------------------------------

// Whole phrases, never single words that could answer a question: "no" only in "no problem";
// "yes", "sure", "right", "correct", "of course" not at all (they agree with something). A
// sentence is courtesy when its words are a sequence of these phrases ("Hi there! Thanks again.").
const GREETINGS = [
  "hi",
  "hello",
  "hey",
  "hiya",
  "howdy",
  "greetings",
  "good morning",
  "good afternoon",
  "good evening",
  "good day",
  "welcome",
  "welcome back",
  "hola",
  "buenos días",
  "buenos dias",
  "buenas tardes",
  "buenas noches",
  "bonjour",
  "bonsoir",
  "salut",
  "hallo",
  "guten tag",
  "guten morgen",
  "guten abend",
  "servus",
  "ciao",
  "buongiorno",
  "buonasera",
  "olá",
  "ola",
  "bom dia",
  "boa tarde",
  "hej",
  "hoi",
];
const GREETING_TAILS = ["", " there", " again", " everyone", " all"];
const THANKS = ["thanks", "thank you", "many thanks", "thx"];
const THANKS_TAILS = [
  "",
  " again",
  " a lot",
  " so much",
  " very much",
  " for your patience",
  " for asking",
  " for the details",
  " for the information",
  " for reaching out",
  " for your question",
  " for letting me know",
];
const COURTESY_PHRASES = [
  ...GREETINGS.flatMap((g) => GREETING_TAILS.map((t) => g + t)),
  ...THANKS.flatMap((g) => THANKS_TAILS.map((t) => g + t)),
  "much appreciated",
  "appreciated",
  "i appreciate it",
  "cheers",
  "gracias",
  "muchas gracias",
  "merci",
  "merci beaucoup",
  "danke",
  "danke schön",
  "danke schon",
  "danke sehr",
  "vielen dank",
  "grazie",
  "grazie mille",
  "obrigado",
  "obrigada",
  "bedankt",
  "dank je",
  // replies to thanks
  "you're welcome",
  "you are welcome",
  "no problem",
  "no worries",
  "my pleasure",
  "anytime",
  "any time",
  "glad to help",
  "happy to help",
  "glad i could help",
  "happy i could help",
  "always happy to help",
  "de nada",
  "con gusto",
  "de rien",
  "avec plaisir",
  "bitte",
  "bitte schön",
  "gern geschehen",
  "gerne",
  "prego",
  "di nulla",
  // acknowledgements of receipt (not agreement)
  "ok",
  "okay",
  "got it",
  "noted",
  "understood",
  "i see",
  "i understand",
  "alright",
  "all right",
  "sounds good",
  "good to know",
  // conversational set phrases
  "good question",
  "great question",
  "let me help",
  "let me explain",
  "let me check",
  "let me see",
  "let's see",
  "here is what i know",
  "here's what i know",
  "here is what i found",
  "here's what i found",
  "here is what i can tell you",
  "here's what i can tell you",
  "i hope this helps",
  "hope this helps",
  "i hope that helps",
  "hope that helps",
  "let me know",
  "let me know if you have any other questions",
  "let me know if you have any more questions",
  "let me know if you have other questions",
  "let me know if you need anything else",
  "let me know if you need more help",
  "let me know if that helps",
  "if you have any other questions let me know",
  "if you have any more questions let me know",
  "feel free to ask",
  "i'm here to help",
  "i am here to help",
  // honest non-answers: they state nothing about the subject
  "i don't know",
  "i do not know",
  "i'm not sure",
  "i am not sure",
  "i don't have that information",
  "i do not have that information",
  // farewells
  "bye",
  "goodbye",
  "good bye",
  "see you",
  "see you later",
  "take care",
  "have a good day",
  "have a great day",
  "have a nice day",
  "good luck",
  "all the best",
  "best regards",
  "kind regards",
  "regards",
  "adiós",
  "adios",
  "au revoir",
  "tschüss",
  "tschüs",
  "auf wiedersehen",
  "arrivederci",
  "até logo",
  "tchau",
  // the offline model's fixed sentences about the conversation itself (offline-model.ts)
  "i have no stored knowledge about this yet",
  "if you know tell me and i will propose saving it",
  "tell me what you decided or want remembered we decided remember that",
  "and i will propose it for review",
  "i can propose at most # pieces of knowledge per message send the rest separately",
  "i can track at most # open questions per message ask the rest separately",
];
const COURTESY = phraseTrie(COURTESY_PHRASES);
/** Longer than this, a sentence is never courtesy alone (keeps the check short on long text). */
const MAX_COURTESY_WORDS = 40;

const PROPOSAL_CREATE = phraseWords("i proposed saving this as new knowledge for review");
const PROPOSAL_UPDATE_HEAD = phraseWords("i proposed adding this to");
const PROPOSAL_UPDATE_TAIL = phraseWords("for review");

export type TProposalRef = { title: string; target_cfb_id?: string | undefined };

function startsWith(words: readonly string[], head: readonly string[], at = 0): boolean {
  if (words.length - at < head.length) return false;
  for (let i = 0; i < head.length; i++) if (words[at + i] !== head[i]) return false;
  return true;
}

const sameWords = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((w, i) => w === b[i]);

type TProposalWords = { title: string[]; target: string[] | null };

const proposalWords = (proposals: readonly TProposalRef[]): TProposalWords[] =>
  proposals.map((p) => ({
    title: tokens(p.title).map((t) => t.word),
    target: p.target_cfb_id ? tokens(p.target_cfb_id).map((t) => t.word) : null,
  }));

/** 'I proposed saving this … for review: "<title>".' about one of this answer's own suggestions. */
function isProposalReport(words: readonly string[], proposals: readonly TProposalWords[]): boolean {
  for (const { title, target } of proposals) {
    if (title.length === 0) continue;
    if (startsWith(words, PROPOSAL_CREATE) && sameWords(words.slice(PROPOSAL_CREATE.length), title)) return true;
    const at = PROPOSAL_UPDATE_HEAD.length;
    if (
      target !== null &&
      startsWith(words, PROPOSAL_UPDATE_HEAD) &&
      startsWith(words, target, at) &&
      startsWith(words, PROPOSAL_UPDATE_TAIL, at + target.length) &&
      sameWords(words.slice(at + target.length + PROPOSAL_UPDATE_TAIL.length), title)
    )
      return true;
  }
  return false;
}

// ---- questions ------------------------------------------------------------------------------------

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

function endsWithQuestionMark(text: string, start: number, end: number): boolean {
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
function isQuestion(text: string, s: TSentence, words: readonly string[]): boolean {
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

// ---- procedure wording ----------------------------------------------------------------------------

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

type TCompiledWording = { pieces: TTrie; ask: Set<string> };

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

function compileWording(wording: TProcedureWording): TCompiledWording {
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

function isDirectiveWording(
  words: readonly string[],
  questionMark: boolean,
  compiled: TCompiledWording | null,
): boolean {
  // Numbers alone ("30.") are an answer, whatever the framing allows around them.
  if (compiled === null || words.every(isNumber)) return false;
  return segmentable(words, compiled.pieces) || asksTheCheck(words, questionMark, compiled.ask);
}

// ---- classification -------------------------------------------------------------------------------

export type TSentenceKind = "statement" | "question" | "courtesy" | "directive";
export type TClassifiedSentence = TSentence & { kind: TSentenceKind };

export type TStatementContext = {
  /** Procedure mode: this turn's wording (procedureWording); null or absent on a plain turn. */
  procedure?: TProcedureWording | null;
  /** The answer's own cfb_suggestions, which it may report having proposed. */
  proposals?: readonly TProposalRef[];
};

type TPrepared = { proposals: TProposalWords[]; compiled: TCompiledWording | null };

const prepare = (ctx: TStatementContext): TPrepared => ({
  proposals: proposalWords(ctx.proposals ?? []),
  compiled: ctx.procedure ? compileWording(ctx.procedure) : null,
});

function kindOf(text: string, s: TSentence, words: readonly string[], prepared: TPrepared): TSentenceKind {
  if (isQuestion(text, s, words)) return "question";
  if (segmentable(words, COURTESY, MAX_COURTESY_WORDS) || isProposalReport(words, prepared.proposals))
    return "courtesy";
  if (isDirectiveWording(words, endsWithQuestionMark(text, s.start, s.end), prepared.compiled)) return "directive";
  return "statement";
}

function classifyWith(text: string, prepared: TPrepared): TClassifiedSentence[] {
  return splitSentences(text).map((s) => {
    const words = tokens(text, s.start, s.end).map((t) => t.word);
    return { ...s, kind: kindOf(text, s, words, prepared) };
  });
}

/** Every sentence of an answer with its kind (what counts as a statement: the header above). */
export function classifySentences(text: string, ctx: TStatementContext = {}): TClassifiedSentence[] {
  return classifyWith(text, prepare(ctx));
}

/** The kind of one sentence on its own (as if it were a whole answer). */
export function sentenceKind(sentence: string, ctx: TStatementContext = {}): TSentenceKind | null {
  const [first, second] = classifySentences(sentence, ctx);
  return first !== undefined && second === undefined ? first.kind : null;
}

/** The indexes of the sentences that state something. */
export function statementIndexes(text: string, ctx: TStatementContext = {}): number[] {
  return classifySentences(text, ctx)
    .filter((s) => s.kind === "statement")
    .map((s) => s.index);
}

// ---- clauses and coverage -------------------------------------------------------------------------

const CONJUNCTIONS = new Set(["and", "but", "or", "so", "yet"]);
const SUBJECTS = new Set(["i", "you", "we", "they", "he", "she", "it", "there"]);

/** The clauses of a sentence as character ranges (see the header, 3.). */
export function clauseRanges(text: string, s: TSentence): { start: number; end: number }[] {
  const words = tokens(text, s.start, s.end);
  const cuts: number[] = [];
  for (let i = s.start; i < s.end; i++) if (text.charAt(i) === ";" || text.charAt(i) === "；") cuts.push(i);
  for (let k = 0; k < words.length - 1; k++) {
    const w = words[k] as TToken;
    if (!CONJUNCTIONS.has(w.word) || k === 0) continue;
    const between = text.slice((words[k - 1] as TToken).end, w.start);
    const afterComma = between.includes(",") || between.includes("，");
    const beforeSubject = (w.word === "and" || w.word === "but") && SUBJECTS.has((words[k + 1] as TToken).word);
    if (afterComma || beforeSubject) cuts.push(w.start);
  }
  cuts.sort((a, b) => a - b);
  const out: { start: number; end: number }[] = [];
  let from = s.start;
  for (const cut of [...cuts, s.end]) {
    if (cut > from && tokens(text, from, cut).length > 0) out.push({ start: from, end: cut });
    from = cut;
  }
  return out.length > 0 ? out : [{ start: s.start, end: s.end }];
}

type TSpan = TClaimMapEntry["span"];

/** A claim's valid character range, or null (then its sentence index, if any, counts). */
export function claimRange(span: TSpan, textLength: number): { start: number; end: number } | null {
  const { start_char: start, end_char: end } = span;
  if (start === undefined || end === undefined) return null;
  return start >= 0 && start < end && end <= textLength ? { start, end } : null;
}

export type TUncovered = { index: number; partly: boolean };

/**
 * The statements of `text` that the claim map leaves uncovered, in order: each with whether some
 * of it is covered (a character range reached one of its clauses but not all).
 */
export function uncoveredStatements(
  text: string,
  claimMap: readonly Pick<TClaimMapEntry, "span">[],
  ctx: TStatementContext = {},
): TUncovered[] {
  const named = new Set<number>();
  const ranges: { start: number; end: number }[] = [];
  for (const claim of claimMap) {
    const range = claimRange(claim.span, text.length);
    if (range) ranges.push(range);
    else if (claim.span.sentence !== undefined) named.add(claim.span.sentence);
  }
  const prepared = prepare(ctx);
  const overlaps = (from: number, to: number) => ranges.some((r) => r.start < to && from < r.end);
  const out: TUncovered[] = [];
  for (const s of classifyWith(text, prepared)) {
    if (s.kind !== "statement" || named.has(s.index)) continue;
    if (!overlaps(s.start, s.end)) {
      out.push({ index: s.index, partly: false });
      continue;
    }
    const open = clauseRanges(text, s).filter((c) => {
      if (overlaps(c.start, c.end)) return false;
      const words = tokens(text, c.start, c.end).map((t) => t.word);
      return !segmentable(words, COURTESY, MAX_COURTESY_WORDS) && !isDirectiveWording(words, false, prepared.compiled);
    });
    if (open.length > 0) out.push({ index: s.index, partly: true });
  }
  return out;
}
