// What two texts about the same subject can disagree on: their values (numbers with units,
// weekdays, months) and whether one of them says no. A proposal that restates a CFB with another
// value ("15 A" → "20 A", "Monday" → "Wednesday", "30 days" → "14 days") changes a fact: a person
// decides (VALUE_CHANGED); one that negates what the CFB asserts contradicts it (CONTRADICTS).
import { isUnit, quantities, quantityKey, stem, tokens } from "@solserver/text";

const WEEKDAYS: Readonly<Record<string, string>> = Object.fromEntries(
  [
    ["monday", "mon montag lundi lunes lunedi segunda maandag"],
    ["tuesday", "tue tues dienstag mardi martes martedi terca dinsdag"],
    ["wednesday", "wed mittwoch mercredi miercoles mercoledi quarta woensdag"],
    ["thursday", "thu thurs donnerstag jeudi jueves giovedi quinta donderdag"],
    ["friday", "fri freitag vendredi viernes venerdi sexta vrijdag"],
    ["saturday", "sat samstag samedi sabado sabato zaterdag"],
    ["sunday", "sun sonntag dimanche domingo domenica zondag"],
  ].flatMap(([day, names]) => [day as string, ...(names as string).split(" ")].map((n) => [n, day as string])),
);
const FREQUENCY_WORDS = "hourly daily nightly weekly biweekly fortnightly monthly quarterly yearly annually".split(" ");
const NUMBER_WORD_LIST =
  "zero one two three four five six seven eight nine ten eleven twelve first second third fourth fifth last".split(" ");
const MONTHS: Readonly<Record<string, string>> = Object.fromEntries(
  "january february march april may june july august september october november december".split(" ").map((m) => [m, m]),
);
/** Weekday and month names as analysed terms (stemmed as English), whatever the language they are in. */
const VALUE_WORDS: ReadonlySet<string> = new Set(
  [...Object.keys(WEEKDAYS), ...Object.keys(MONTHS), ...FREQUENCY_WORDS, ...NUMBER_WORD_LIST].map((w) => stem(w)),
);

/** Whether an analysed term names a value (a weekday or a month, in any supported language). */
export function isValueWord(term: string): boolean {
  return VALUE_WORDS.has(term);
}

/** Words that make a sentence say no, in the supported languages (folded as tokens are). */
const NEGATIONS = new Set(
  "not no never none nothing nobody dont doesnt didnt wont cant cannot isnt arent wasnt shouldnt mustnt nicht kein keine keinen nie niemals pas jamais ne nunca jamas nao niet geen nooit non mai".split(
    " ",
  ),
);

/** Numbers written as words, and how often something happens. */
const NUMBER_WORDS: Readonly<Record<string, string>> = Object.fromEntries(
  NUMBER_WORD_LIST.slice(0, 13).map((w, i) => [w, String(i)]),
);
const FREQUENCIES = new Set(FREQUENCY_WORDS);
const DIGITS = /^\d+(\.\d+)?$/;

/**
 * The text's values as comparable keys: "15 A", "90 day", "02:00 UTC", "$12 USD", "day:monday",
 * "month:june", "freq:weekly", and a count of a thing ("2 approv" for "two approvals" and "2
 * approvals": a number without a unit, before a word, counts that word).
 */
export function valueKeys(text: string): string[] {
  const keys = quantities(text)
    .filter((q) => q.unit !== null)
    .map(quantityKey);
  const words = tokens(text);
  words.forEach((token, i) => {
    const day = WEEKDAYS[token];
    if (day) keys.push(`day:${day}`);
    const month = MONTHS[token];
    if (month) keys.push(`month:${month}`);
    if (FREQUENCIES.has(token)) keys.push(`freq:${token}`);
    const count = NUMBER_WORDS[token] ?? (DIGITS.test(token) ? token : undefined);
    const next = words[i + 1];
    if (count !== undefined && next !== undefined && !isUnit(next) && !DIGITS.test(next) && next.length > 2)
      keys.push(`${count} ${stem(next)}`);
  });
  return [...new Set(keys)];
}

/** Whether any token negates. */
export function negatedTokens(folded: readonly string[]): boolean {
  return folded.some((t) => NEGATIONS.has(t));
}

/** The kind a value key compares within: its unit ("day" for "90 day"), "weekday", "month", "freq", or "number". */
function kindOf(key: string): string {
  if (key.startsWith("day:")) return "weekday";
  if (key.startsWith("month:")) return "month";
  if (key.startsWith("freq:")) return "freq";
  const space = key.indexOf(" ");
  return space < 0 ? "number" : key.slice(space + 1);
}

/** A value key as a reviewer reads it: "day:monday" → "monday", "15 A" as is. */
function shown(key: string): string {
  const colon = key.indexOf(":");
  return colon > 0 && /^[a-z]+$/.test(key.slice(0, colon)) ? key.slice(colon + 1) : key;
}

/**
 * The values the proposal changes: for each kind both texts name (a unit, weekdays, months), what
 * the CFB says that the proposal does not, against what the proposal says instead. A value the
 * proposal only adds (a kind the CFB does not name) is a new detail, not a change.
 */
export function changedValues(proposal: readonly string[], cfb: readonly string[]): { old: string; new: string }[] {
  const p = new Set(proposal);
  const c = new Set(cfb);
  const out: { old: string; new: string }[] = [];
  const kinds = new Set([...p].map(kindOf));
  for (const kind of kinds) {
    if (kind === "number") continue;
    const was = [...c].filter((k) => kindOf(k) === kind && !p.has(k));
    const now = [...p].filter((k) => kindOf(k) === kind && !c.has(k));
    if (was.length > 0 && now.length > 0) out.push({ old: was.map(shown).join(", "), new: now.map(shown).join(", ") });
  }
  return out;
}
