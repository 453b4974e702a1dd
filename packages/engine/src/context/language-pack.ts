// A language pack: the words a technician uses in one language (yes / no, "no idea", "where is",
// "go ahead", "works now", labor and units) and the reply wording the offline model uses in it.
// Data only (packages/engine/languages/<code>.json): a new language needs a pack and catalog
// translations, no code. Phrases are normalised like messages (text.ts) before use.

import { z } from "zod";

const ZPhrases = z.array(z.string().min(1).max(120));

export const ZLanguagePack = z.strictObject({
  /** ISO 639-1 code ("en", "es", "ru"). */
  language: z.string().regex(/^[a-z]{2}$/),
  /** The language's own name ("Español"), used in "Copy in …". */
  name: z.string().min(1),
  /** Common words that identify the language in a message (function words, yes / no). */
  detect_words: ZPhrases,
  yes_words: ZPhrases,
  no_words: ZPhrases,
  /** One-letter replies ("y" / "n"): yes / no only when they are the whole reply. */
  letter_yes: ZPhrases,
  letter_no: ZPhrases,
  /** Words that say nothing about which step they answer: a pattern made only of these is generic. */
  generic_words: ZPhrases.default([]),
  /** "good", "fine", "checks out": the step's normal answer (its answer marked `normal`), for the part named. */
  healthy_words: ZPhrases.default([]),
  /** Words after a no-word that keep it an answer ("no, it's blown"); any other word makes it "no <noun>". */
  no_continuations: ZPhrases,
  negators: ZPhrases,
  /** Words that split a clause: what follows "but" is a statement of its own. */
  conjunctions: ZPhrases,
  /** Words that join statements in a list ("and"): a generic "good" belongs to the part named in its own item. */
  list_words: ZPhrases.default([]),
  /** "it", "that": an item that starts with one is about the part the item before named. */
  pronouns: ZPhrases.default([]),
  /** "then", "after": of two answers in one clause the one after such a word is the outcome ("lights, then goes out"). */
  sequence_words: ZPhrases.default([]),
  fillers: ZPhrases,
  non_answers: z.strictObject({ unknown: ZPhrases, no_tool: ZPhrases, not_yet: ZPhrases, no_access: ZPhrases }),
  /**
   * Non-answers that are whole only at the end of a clause ("no sé" vs "no se prende", "todavía
   * no" vs "todavía no prende"): followed by another word they are not a non-answer.
   */
  elliptical_non_answers: ZPhrases.default([]),
  /** "no cap tester in the truck", "sin mi multímetro": a lacking word, at most one word, then a tool. */
  missing_tool: z.strictObject({ lacking: ZPhrases, tools: ZPhrases }).default({ lacking: [], tools: [] }),
  hedges: ZPhrases,
  skip: ZPhrases,
  /** "start over", "scrap all that": a fresh diagnosis of the same complaint (as what a clause says first). */
  restart: ZPhrases.default([]),
  /** Announcements that begin a new statement mid-sentence when dictation leaves out the stop ("fuse is good gonna meter the pump"). */
  announcement_breaks: ZPhrases.default([]),
  /**
   * What opens a clause that announces a check instead of reporting one ("let me check", "ill
   * measure it", "waiting the 3 min"): nothing in that clause is an answer (issue 36).
   */
  /** Articles, left out of messages and patterns alike (technicians drop them: "12.4 at pump"). */
  articles: z.array(z.string()).default([]),
  /** Texting shorthand, read as the word it stands for ("gd" → "good", "blwr" → "blower"). */
  shorthand: z.record(z.string().regex(/^[^\s]+$/), z.string().min(1)).default({}),
  announcements: ZPhrases,
  /**
   * Verbs as written that announce work under way when they open a clause ("checking the tank",
   * "pulling the cap now"). As written, because they fold to the stem of the past tense that
   * reports a result ("checked the tank, full").
   */
  announcing_verbs: ZPhrases.default([]),
  /** A verb that reports what a check gave: after an announcing verb, the clause is a result ("pressing it gives 0 V"). */
  result_verbs: ZPhrases.default([]),
  /** Progress that reports no result when it is all a clause says ("ok found it", "got the cover off"). */
  progress_notes: ZPhrases.default([]),
  /** Who is at work, before such a verb or announcement ("he's pressing the switch now", "I am going to"). */
  subjects: ZPhrases.default([]),
  /** A part bypassed ("jumped it straight to 12v"): that is no test of the part in between. */
  bypass: ZPhrases,
  /** Bypass words that are no bypass: a reading that wanders ("jumping around"), a bypass valve. */
  not_bypass: ZPhrases.default([]),
  /** A message that only asks for the report ("START FINAL REPORT", "give me the report"). */
  report_requests: ZPhrases,
  correction_markers: ZPhrases,
  /** The earlier measurement was wrong ("i misread"): a reading then corrects the step read before. */
  remeasured: ZPhrases.default([]),
  /** "wait, that was with the charger on": after a correction marker, points back to the last reading. */
  back_references: ZPhrases.default([]),
  /**
   * "the 12.2 was at the battery": in a correction, a number said in the past tense is the old
   * reading put somewhere else; the one said now stands.
   */
  past_markers: ZPhrases.default([]),
  retractions: ZPhrases,
  clarification: z.strictObject({ locate: ZPhrases, howto: ZPhrases, explain: ZPhrases }),
  question_words: ZPhrases,
  /** Who relays a question opens it ("he wants to know where…", "customer asking if…"): the question follows. */
  relayed_questions: ZPhrases.default([]),
  /**
   * Words of a question about the case itself (time, parts, price) that the catalog's text may not
   * hold: such a question is never off topic.
   */
  case_words: ZPhrases.default([]),
  consent: z.strictObject({
    yes: ZPhrases,
    no: ZPhrases,
    deferral: ZPhrases,
    conditional: ZPhrases,
    cost: ZPhrases,
    plain_extra: ZPhrases,
  }),
  already_told: ZPhrases,
  resolved: z.strictObject({ explicit: ZPhrases, success: ZPhrases, repair_verbs: ZPhrases }),
  acknowledgements: ZPhrases,
  /** "now", "again": with a repair verb, the technician reports a repair that worked ("swapped the cap, blowing cold now"). */
  now_words: ZPhrases.default([]),
  /** "still", "same": the repair did not work ("changed the fuse, still dead"). */
  still_words: ZPhrases.default([]),
  labor: z.strictObject({
    keywords: ZPhrases,
    add: ZPhrases,
    minute_units: ZPhrases,
    hour_units: ZPhrases,
    phrases: z.record(
      z.string(),
      z
        .int()
        .min(1)
        .max(24 * 60),
    ),
  }),
  comparators: z.strictObject({ below: ZPhrases, above: ZPhrases }),
  /** "rated", "rating of": a number next to one is the part's rating, not a reading ("38 on a 45 rated cap"). */
  /** Words only before a rating ("cap reads 28 on a 45"): after a number they are no rating. */
  rating_before: ZPhrases.default([]),
  /** After a number, half a unit more ("12 and a half"). */
  and_a_half: ZPhrases.default([]),
  /** An attempt ("tried to kick in"): the next few words are not said to happen. */
  attempts: ZPhrases.default([]),
  /** A reading of what goes into a part ("12 going in", "input side has 12.6"), not what it puts out. */
  input_words: ZPhrases.default([]),
  /** Units of length: "maybe" before one is an estimate ("moves maybe a foot then stalls"), not a doubt. */
  length_units: ZPhrases.default([]),
  /** What a reading was taken under ("with the switch on", "under load"): not where it was taken. */
  conditions: ZPhrases.default([]),
  /**
   * Opens a clause of time ("after the compressor came on", "en cuanto prendió el compresor"): the
   * part it names sets when something happened, it is not a finding of its own.
   */
  time_clauses: ZPhrases.default([]),
  /** Numbers said in words ("twelve point four", "one eighteen"), as dictation writes them. */
  number_words: z.record(z.string(), z.number().int().min(0).max(90)).default({}),
  point_words: z.array(z.string().regex(/^\p{L}+$/u, "letters only")).default([]),
  /** Digits after a point word as dictation hears them ("twelve point for"): read as digits there only. */
  point_digits: z.record(z.string(), z.number().int().min(0).max(9)).default({}),
  hundred_words: z.array(z.string()).default([]),
  rating_words: ZPhrases.default([]),
  units: z.record(z.string().regex(/^[A-Z]+$/), ZPhrases),
  /** Words after a number that make it a count or a time, not a reading ("checked it 3 times", "20 seconds"). */
  count_words: ZPhrases.default([]),
  /** Words before a number that make it a name, not a reading ("rental #9", "unit 14", "unidad 15"). */
  identifier_words: ZPhrases.default([]),
  replies: z.record(z.string(), z.string()),
});

export type TLanguagePack = z.output<typeof ZLanguagePack>;

/** The placeholders of a reply template ("{minutes}" → "minutes"), in order. */
function placeholdersOf(template: string): string[] {
  const names: string[] = [];
  let at = template.indexOf("{");
  while (at >= 0) {
    const end = template.indexOf("}", at);
    if (end < 0) break;
    names.push(template.slice(at + 1, end));
    at = template.indexOf("{", end);
  }
  return names;
}

/**
 * Validates a pack against the reference pack: every reply the reference has, with the same
 * placeholders (a translation that drops "{minutes}" would print a wrong report).
 */
export function parseLanguagePack(input: unknown, reference?: TLanguagePack): TLanguagePack {
  const pack = ZLanguagePack.parse(input);
  if (reference === undefined) return pack;
  const problems: string[] = [];
  for (const [key, template] of Object.entries(reference.replies)) {
    const own = pack.replies[key];
    if (own === undefined) problems.push(`replies.${key}: missing`);
    else if (placeholdersOf(own).sort().join() !== placeholdersOf(template).sort().join())
      problems.push(`replies.${key}: must use the placeholders ${placeholdersOf(template).join(", ") || "(none)"}`);
  }
  for (const key of Object.keys(pack.replies))
    if (!Object.hasOwn(reference.replies, key)) problems.push(`replies.${key}: unknown reply`);
  if (problems.length > 0) throw new Error(`language pack ${pack.language}: ${problems.join("; ")}`);
  return pack;
}

/** Fills a template's placeholders; a missing value leaves the placeholder's name visible. */
export function fillTemplate(template: string, values: Readonly<Record<string, string | number>>): string {
  let out = "";
  let from = 0;
  let at = template.indexOf("{");
  while (at >= 0) {
    const end = template.indexOf("}", at);
    if (end < 0) break;
    const name = template.slice(at + 1, end);
    out += template.slice(from, at) + (Object.hasOwn(values, name) ? String(values[name]) : name);
    from = end + 1;
    at = template.indexOf("{", from);
  }
  return out + template.slice(from);
}
