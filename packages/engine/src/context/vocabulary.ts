// The engine's word tables, merged from every language pack (languages/*.json) and normalised
// like messages. Matching is language-independent: a message is read against all languages at
// once (technicians mix them: "el fuse esta blown"); the detected language only chooses the
// reply's wording. Yes / no words are folded to one token each ("yep", "sí", "да" → "yes").

import { stem, type TClause, clauses as toClauses } from "@solserver/text";
import de from "../../languages/de.json";
import en from "../../languages/en.json";
import es from "../../languages/es.json";
import ru from "../../languages/ru.json";
import { parseLanguagePack, type TLanguagePack } from "./language-pack";
import type { TTopicKind } from "./state";

export const DEFAULT_LANGUAGE = "en";

const REFERENCE = parseLanguagePack(en);
/** The shipped language packs by code; English is the reference every other pack is checked against. */
export const LANGUAGE_PACKS: ReadonlyMap<string, TLanguagePack> = new Map(
  [REFERENCE, parseLanguagePack(es, REFERENCE), parseLanguagePack(ru, REFERENCE), parseLanguagePack(de, REFERENCE)].map(
    (p) => [p.language, p],
  ),
);

export const NON_ANSWER_REASONS = ["unknown", "no_tool", "not_yet", "no_access"] as const;
export type TNonAnswerReason = (typeof NON_ANSWER_REASONS)[number];

/** A phrase as tokens (after folding and yes / no canonicalisation). */
export type TPhrase = readonly string[];

const YES = "yes";
const NO = "no";

function raw(text: string): string[] {
  return toClauses(text).flatMap((c) => c.tokens.filter((t) => !ARTICLES.has(t)));
}

const packs = [...LANGUAGE_PACKS.values()];
/** Dropped from messages and patterns alike: "12.4 at pump" is "12.4 at the pump". */
const ARTICLES: ReadonlySet<string> = new Set(packs.flatMap((p) => p.articles));
const SHORTHAND: ReadonlyMap<string, string> = new Map(packs.flatMap((p) => Object.entries(p.shorthand)));
const collect = (pick: (p: TLanguagePack) => readonly string[]) => packs.flatMap(pick);
const rawSet = (pick: (p: TLanguagePack) => readonly string[]) => new Set(collect(pick).flatMap(raw));

const yesWords = rawSet((p) => p.yes_words);
const noWords = rawSet((p) => p.no_words);

/** "yep" → "yes", "nope" → "no", "да" → "yes"; any other token as its stem ("calling" → "call"). */
export function canonicalToken(token: string): string {
  if (yesWords.has(token)) return YES;
  if (noWords.has(token)) return NO;
  return stem(token);
}

/** A phrase's tokens as the engine compares them. */
export function phrase(text: string): string[] {
  return raw(text).map(canonicalToken);
}

const openers = (pick: (p: TLanguagePack) => readonly string[]): ReadonlySet<string> =>
  new Set(collect(pick).flatMap((text) => raw(text).slice(0, 1)));

const phrases = (pick: (p: TLanguagePack) => readonly string[]): TPhrase[] => {
  const seen = new Set<string>();
  const out: TPhrase[] = [];
  for (const text of collect(pick)) {
    const tokens = phrase(text);
    const key = tokens.join(" ");
    if (tokens.length === 0 || seen.has(key)) continue;
    seen.add(key);
    out.push(tokens);
  }
  return out;
};
const tokenSet = (pick: (p: TLanguagePack) => readonly string[]) => new Set(collect(pick).flatMap(phrase));

/** The merged tables (see language-pack.ts for what each one means). */
export const VOCABULARY = {
  letterYes: tokenSet((p) => p.letter_yes),
  letterNo: tokenSet((p) => p.letter_no),
  generic: new Set([...tokenSet((p) => p.generic_words), YES, NO]),
  noContinuations: tokenSet((p) => p.no_continuations),
  negators: new Set([...tokenSet((p) => p.negators), NO]),
  conjunctions: tokenSet((p) => p.conjunctions),
  listWords: tokenSet((p) => p.list_words),
  pronouns: tokenSet((p) => p.pronouns),
  sequence: tokenSet((p) => p.sequence_words),
  fillers: tokenSet((p) => p.fillers),
  nonAnswers: (["unknown", "no_tool", "not_yet", "no_access"] as const).flatMap((reason) =>
    phrases((p) => p.non_answers[reason]).map((tokens) => ({ reason, tokens })),
  ),
  toolLacking: phrases((p) => p.missing_tool.lacking),
  tools: tokenSet((p) => p.missing_tool.tools),
  elliptical: new Set(collect((p) => p.elliptical_non_answers).map((t) => phrase(t).join(" "))),
  hedges: phrases((p) => p.hedges),
  skip: phrases((p) => p.skip),
  restart: phrases((p) => p.restart),
  announcements: phrases((p) => p.announcements),
  announcementBreaks: phrases((p) => p.announcement_breaks),
  relayedQuestions: phrases((p) => p.relayed_questions),
  caseWords: tokenSet((p) => p.case_words),
  announcingVerbs: new Set(collect((p) => p.announcing_verbs).flatMap(raw)),
  progressNotes: new Set(phrases((p) => p.progress_notes).map((p) => p.join(" "))),
  resultVerbs: phrases((p) => p.result_verbs),
  subjects: tokenSet((p) => p.subjects),
  bypass: phrases((p) => p.bypass),
  notBypass: phrases((p) => p.not_bypass),
  reportRequests: phrases((p) => p.report_requests),
  corrections: phrases((p) => p.correction_markers),
  /** The words correction markers and non-answers open with, as written ("hold", "wait", "looked"). */
  correctionOpeners: openers((p) => p.correction_markers),
  nonAnswerOpeners: openers((p) => Object.values(p.non_answers).flat()),
  remeasured: phrases((p) => p.remeasured),
  backReferences: phrases((p) => p.back_references),
  pastMarkers: tokenSet((p) => p.past_markers),
  retractions: phrases((p) => p.retractions),
  clarification: {
    locate: phrases((p) => p.clarification.locate),
    howto: phrases((p) => p.clarification.howto),
    explain: phrases((p) => p.clarification.explain),
  } satisfies Record<TTopicKind, TPhrase[]>,
  questionWords: phrases((p) => p.question_words),
  consent: {
    yes: phrases((p) => p.consent.yes),
    no: phrases((p) => p.consent.no),
    deferral: phrases((p) => p.consent.deferral),
    conditional: phrases((p) => p.consent.conditional),
    cost: phrases((p) => p.consent.cost),
    plainExtra: tokenSet((p) => p.consent.plain_extra),
  },
  alreadyTold: phrases((p) => p.already_told),
  resolved: {
    explicit: phrases((p) => p.resolved.explicit),
    success: phrases((p) => p.resolved.success),
    repairVerbs: phrases((p) => p.resolved.repair_verbs),
  },
  acknowledgements: phrases((p) => p.acknowledgements),
  healthy: phrases((p) => p.healthy_words),
  now: phrases((p) => p.now_words),
  still: phrases((p) => p.still_words),
  labor: {
    keywords: phrases((p) => p.labor.keywords),
    add: phrases((p) => p.labor.add),
    minuteUnits: tokenSet((p) => p.labor.minute_units),
    hourUnits: tokenSet((p) => p.labor.hour_units),
    phrases: packs
      .flatMap((p) => Object.entries(p.labor.phrases))
      .map(([text, minutes]) => ({ tokens: phrase(text), minutes }))
      .sort((a, b) => b.tokens.length - a.tokens.length),
  },
  comparators: { below: phrases((p) => p.comparators.below), above: phrases((p) => p.comparators.above) },
  countWords: tokenSet((p) => p.count_words),
  lengthUnits: tokenSet((p) => p.length_units),
  identifierWords: tokenSet((p) => p.identifier_words),
  ratings: phrases((p) => p.rating_words),
  ratingsBefore: phrases((p) => [...p.rating_words, ...p.rating_before]),
  andAHalf: phrases((p) => p.and_a_half),
  attempts: phrases((p) => p.attempts),
  inputWords: phrases((p) => p.input_words),
  conditions: phrases((p) => p.conditions),
  timeClauses: phrases((p) => p.time_clauses),
  numberWords: new Map(packs.flatMap((p) => Object.entries(p.number_words))),
  pointWords: new Set(collect((p) => p.point_words)),
  pointDigits: new Map(packs.flatMap((p) => Object.entries(p.point_digits))),
  hundredWords: new Set(collect((p) => p.hundred_words)),
  /** Unit token → unit ("volts" → "V"). */
  units: new Map(
    packs.flatMap((p) =>
      Object.entries(p.units).flatMap(([unit, words]) =>
        words.flatMap((w) => phrase(w).map((t) => [t, unit] as const)),
      ),
    ),
  ),
} as const;

/** A clause of a message, tokens canonicalised, with the segment (between conjunctions) of each token. */
/** A clause of canonical tokens, with the words as written (`words`, same positions) and its segments at "but". */
export type TLexClause = TClause & { words: string[]; segments: number[] };

/**
 * A message as the engine reads it: clauses of canonical tokens; a lone "y" / "n" reply is yes /
 * no. `correct` mends a folded word before it is read (spelling.ts).
 */
export function lex(text: string, correct: (word: string) => string = (w) => w): TLexClause[] {
  const clauses = withLabels(toClauses(withWords(withoutEnumerators(text)))).map((c) => {
    const words = c.tokens.filter((t) => !ARTICLES.has(t));
    return { ...c, words, tokens: words.map((t) => canonicalToken(correct(SHORTHAND.get(t) ?? t))) };
  });
  const only = clauses.length === 1 && clauses[0]?.tokens.length === 1 ? clauses[0] : undefined;
  if (only !== undefined) {
    const t = only.tokens[0] ?? "";
    if (VOCABULARY.letterYes.has(t)) only.tokens = [YES];
    else if (VOCABULARY.letterNo.has(t)) only.tokens = [NO];
  }
  return clauses.map((c) => {
    let segment = 0;
    const segments = c.tokens.map((t) => (VOCABULARY.conjunctions.has(t) ? ++segment : segment));
    return { ...c, segments };
  });
}

/** Symbols typed for words: a check mark is "ok", a cross "no" (each ends an item), an arrow "then" ("fuse ✓", "→ lockout"). */
const SYMBOLS: readonly (readonly [string, string])[] = [
  ["✓", "ok,"],
  ["✔", "ok,"],
  ["☑", "ok,"],
  ["✅", "ok,"],
  ["✗", "no,"],
  ["✘", "no,"],
  ["❌", "no,"],
  ["→", "then"],
  ["->", "then"],
];

/** "12v6", "11v1": volts written with the unit for the decimal point. */
const UNIT_AS_POINT = /(\d{1,3})[vV](\d{1,2})(?!\d)/g;

/**
 * "12 point 4", "12 coma 6", "12 . 5" (a phone's spacing): digits with the decimal point said as a
 * word or set apart (point words are letters only).
 */
const SPOKEN_POINT = new RegExp(
  `(?<![\\d.,])(\\d{1,3}) (?:${[...VOCABULARY.pointWords].join("|")}|\\.) (\\d{1,2})(?![\\d.,])`,
  "giu",
);

function withWords(text: string): string {
  let out = text.replace(UNIT_AS_POINT, "$1.$2 v").replace(SPOKEN_POINT, "$1.$2");
  for (const [symbol, word] of SYMBOLS) if (out.includes(symbol)) out = out.replaceAll(symbol, ` ${word} `);
  return out;
}

/** A list number ("1)", "2.") before a space: the opening of a numbered list's item. */
const ENUMERATOR = /(^|\s)(\d{1,2})[.)](?=\s)/g;

/**
 * "1) fuse ok 2) 12.4v at pump", "5. filters clean": the numbers of a numbered list are no
 * readings; each item becomes a clause. A run counts from 1, or from the number the message opens
 * with; a lone number is cut only there ("the battery reads 12. fuse ok" keeps its 12).
 */
function withoutEnumerators(text: string): string {
  const found = [...text.matchAll(ENUMERATOR)];
  const opens = found[0] !== undefined && text.slice(0, found[0].index).trim() === "";
  let next = opens ? Number(found[0]?.[2]) : 1;
  const cut: RegExpExecArray[] = [];
  for (const m of found)
    if (Number(m[2]) === next) {
      cut.push(m);
      next++;
    }
  if (cut.length < (opens ? 1 : 2)) return text;
  let out = "";
  let at = 0;
  for (const m of cut) {
    const start = m.index + (m[1]?.length ?? 0);
    out += `${text.slice(at, start)}, `;
    at = start + (m[2]?.length ?? 0) + 1;
  }
  return out + text.slice(at);
}

/** Words before a colon that label what follows: "motor: nothing", "batt: 12.6" are one clause each. */
const MAX_LABEL_WORDS = 3;

function withLabels(clauses: readonly TClause[]): TClause[] {
  const out: TClause[] = [];
  for (let i = 0; i < clauses.length; i++) {
    const clause = clauses[i] as TClause;
    const next = clauses[i + 1];
    if (clause.labelled === true && clause.tokens.length <= MAX_LABEL_WORDS && next !== undefined) {
      out.push({ tokens: [...clause.tokens, ...next.tokens], question: next.question });
      i++;
    } else out.push(clause);
  }
  return out;
}

// ---- language detection ---------------------------------------------------------------------------

/**
 * Every folded word of the language packs' tables: a word a technician may write on purpose, so
 * spelling never mends it into a catalog word ("dueño" is not "bueno", "medido" is not "medida").
 */
export const PACK_WORDS: ReadonlySet<string> = new Set(
  packs.flatMap((p) =>
    [
      ...p.detect_words,
      ...p.yes_words,
      ...p.no_words,
      ...p.generic_words,
      ...p.healthy_words,
      ...p.no_continuations,
      ...p.negators,
      ...p.conjunctions,
      ...p.list_words,
      ...p.pronouns,
      ...p.sequence_words,
      ...p.fillers,
      ...Object.values(p.non_answers).flat(),
      ...p.elliptical_non_answers,
      ...p.hedges,
      ...p.skip,
      ...p.restart,
      ...p.correction_markers,
      ...p.remeasured,
      ...p.back_references,
      ...p.retractions,
      ...Object.values(p.clarification).flat(),
      ...p.question_words,
      ...p.case_words,
      ...Object.values(p.consent).flat(),
      ...p.already_told,
      ...Object.values(p.resolved).flat(),
      ...p.acknowledgements,
      ...p.now_words,
      ...p.still_words,
      ...p.labor.keywords,
      ...p.labor.add,
      ...Object.keys(p.labor.phrases),
      ...p.comparators.below,
      ...p.comparators.above,
      ...p.rating_words,
      ...p.rating_before,
      ...p.and_a_half,
      ...p.attempts,
      ...p.input_words,
      ...p.conditions,
      ...p.time_clauses,
      ...p.length_units,
    ].flatMap(raw),
  ),
);

/** Per language: the words only it uses (its detect words and yes / no words, minus any other pack's). */
const DETECT: ReadonlyMap<string, ReadonlySet<string>> = (() => {
  const own = new Map(
    packs.map((p) => [p.language, new Set([...p.detect_words, ...p.yes_words, ...p.no_words].flatMap(raw))]),
  );
  const count = new Map<string, number>();
  for (const words of own.values()) for (const w of words) count.set(w, (count.get(w) ?? 0) + 1);
  return new Map(
    [...own].map(([language, words]) => [language, new Set([...words].filter((w) => count.get(w) === 1))]),
  );
})();

function isCyrillic(c: number): boolean {
  return c >= 0x400 && c <= 0x4ff;
}

/**
 * The language a message is written in, or null when it does not say (a number, "ok", a mix).
 * Cyrillic letters are Russian; otherwise the language with the most words of its own wins,
 * by at least one word, and needs two of them unless the message is that short.
 */
export function detectLanguage(
  text: string,
  extra: ReadonlyMap<string, ReadonlySet<string>> = new Map(),
): string | null {
  // Single letters ("y", "a", "и") say nothing about a language.
  const tokens = raw(text).filter((t) => t.length > 1);
  let cyrillic = 0;
  let latin = 0;
  for (const t of tokens)
    for (let i = 0; i < t.length; i++) {
      const c = t.charCodeAt(i);
      if (isCyrillic(c)) cyrillic++;
      else if (c >= 0x61 && c <= 0x7a) latin++;
    }
  if (cyrillic > latin && LANGUAGE_PACKS.has("ru")) return "ru";
  const scores = [...DETECT].map(([language, words]) => {
    const more = extra.get(language);
    return { language, score: tokens.filter((t) => words.has(t) || more?.has(t) === true).length };
  });
  scores.sort((a, b) => b.score - a.score);
  const [best, second] = scores;
  if (best === undefined || best.score === 0 || best.score === (second?.score ?? 0)) return null;
  // Two words of its own, or one when no other language has any ("el slide no quiere entrar").
  return best.score >= 2 || (second?.score ?? 0) === 0 ? best.language : null;
}
