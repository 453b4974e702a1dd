// Courtesy sentences: greetings, thanks, set phrases and the answer's report of its own proposal
// (claim-statements.ts, step 2).
import { phraseTrie, phraseWords, sameWords, startsWith } from "./phrase-trie";
import { tokens } from "./sentences";

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
export const COURTESY = phraseTrie(COURTESY_PHRASES);
/** Longer than this, a sentence is never courtesy alone (keeps the check short on long text). */
export const MAX_COURTESY_WORDS = 40;

const PROPOSAL_CREATE = phraseWords("i proposed saving this as new knowledge for review");
const PROPOSAL_UPDATE_HEAD = phraseWords("i proposed adding this to");
const PROPOSAL_UPDATE_TAIL = phraseWords("for review");

export type TProposalRef = { title: string; target_cfb_id?: string | undefined };

export type TProposalWords = { title: string[]; target: string[] | null };

export const proposalWords = (proposals: readonly TProposalRef[]): TProposalWords[] =>
  proposals.map((p) => ({
    title: tokens(p.title).map((t) => t.word),
    target: p.target_cfb_id ? tokens(p.target_cfb_id).map((t) => t.word) : null,
  }));

/** 'I proposed saving this … for review: "<title>".' about one of this answer's own suggestions. */
export function isProposalReport(words: readonly string[], proposals: readonly TProposalWords[]): boolean {
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
