// Numbers in a technician's message: meter readings ("12.6V", "12,6 v", "under 11 volts") read
// against a step's ranges, and durations ("45 min", "an hour and a half", "1h30") for labor.

import { isNumber as isNumberToken, type TClause } from "@solserver/text";
import type { TAnswer, TStep } from "./catalog-schema";
import { indexOf, PhraseIndex } from "./phrases";
import { phrase, type TLexClause, VOCABULARY } from "./vocabulary";

/**
 * A number in a clause with the unit after it (null: none); `below` / `above` from a comparator
 * before it; `rating` the part's rating the message states beside it (null: none).
 */
export type TReading = { value: number; unit: string | null; clause: number; start: number; rating: number | null };

/** How far under or over a bound a comparator puts a reading ("under 11.5" reads as just below 11.5). */
const COMPARATOR_STEP = 0.001;

function endsAt(tokens: readonly string[], end: number, table: ReturnType<typeof indexOf>): boolean {
  return table.in(tokens.slice(Math.max(0, end - 4), end)).some((s) => s.start + s.length === Math.min(end, 4));
}

/**
 * Whether the number at `i` is a rating: a rating word right before it, or right after it (and
 * its unit) with no number after that ("45 rated", but in "44.1 rated 45" the 45 is the rating).
 */
function isRating(tokens: readonly string[], i: number): boolean {
  const after = VOCABULARY.units.has(tokens[i + 1] ?? "") ? i + 2 : i + 1;
  return (
    endsAt(tokens, i, indexOf(VOCABULARY.ratingsBefore)) ||
    indexOf(VOCABULARY.ratings)
      .in(tokens.slice(after, after + 4))
      .some((s) => s.start === 0 && !isNumberToken(tokens[after + s.length] ?? ""))
  );
}

/**
 * Numbers said in words, as dictation writes them: "twelve point four" (12.4), "twelve five"
 * (12.5: a volt and its tenths), "one eighteen" (118), "a hundred and eighteen", "hundred twenty", "twenty one".
 * By start position: the value and how many words it takes.
 */
export function spelledNumbers(words: readonly string[]): Map<number, { value: number; length: number }> {
  const n = VOCABULARY.numberWords;
  const out = new Map<number, { value: number; length: number }>();
  // a whole number from `i`: "eighteen", "twenty one", "a hundred and eighteen"
  const whole = (i: number): { value: number; length: number } | null => {
    let at = i;
    let value = 0;
    // ("a hundred and eighteen", "one hundred", "hundred twenty")
    const hundred = (words[at] === "a" || n.get(words[at] ?? "") === 1 ? 1 : 0) + at;
    if (VOCABULARY.hundredWords.has(words[hundred] ?? "")) {
      value = 100;
      at = hundred + 1;
      if (VOCABULARY.listWords.has(words[at] ?? "") && n.has(words[at + 1] ?? "")) at++;
    }
    const first = n.get(words[at] ?? "");
    if (first === undefined) return value > 0 ? { value, length: at - i } : null;
    value += first;
    at++;
    const unit = n.get(words[at] ?? "");
    if (first >= 20 && first % 10 === 0 && unit !== undefined && unit < 10) {
      value += unit;
      at++;
    }
    return { value, length: at - i };
  };
  for (let i = 0; i < words.length; i++) {
    const head = whole(i);
    if (head === null) continue;
    let { value, length } = head;
    const next = i + length;
    if (VOCABULARY.pointWords.has(words[next] ?? "")) {
      // "twelve point four five"
      let scale = 0.1;
      let at = next + 1;
      const digit = (w: string) => n.get(w) ?? VOCABULARY.pointDigits.get(w);
      for (let d = digit(words[at] ?? ""); d !== undefined && d < 10; d = digit(words[at] ?? "")) {
        value += d * scale;
        scale /= 10;
        at++;
      }
      length = at - i;
    } else {
      const tail = whole(next);
      // "one eighteen" is 118; "twelve five" is 12.5
      if (tail !== null && head.value === 1 && tail.value >= 10 && tail.value < 100) value = 100 + tail.value;
      else if (tail !== null && head.value >= 10 && tail.value < 10) value += tail.value / 10;
      if (tail !== null && (value !== head.value || head.value === 1)) length += tail.length;
    }
    out.set(i, { value: Math.round(value * 1000) / 1000, length });
    i += length - 1;
  }
  return out;
}

/** The readings of the clauses, skipping blocked tokens and numbers that are durations. */
export function readingsOf(
  clauses: readonly TLexClause[],
  blocked: readonly (readonly boolean[])[],
  /** Words right after which a number is a specification, not a measurement ("12v water pump"). */
  names: ReadonlySet<string> = new Set(),
): TReading[] {
  const below = indexOf(VOCABULARY.comparators.below);
  const above = indexOf(VOCABULARY.comparators.above);
  const out: TReading[] = [];
  // "cap reads 38 on a 45 rated cap": the rated number is what the reading is measured against;
  // a dual capacitor has two ("rated 45/5", "35+5 uf rated"), and a reading goes with the nearer
  let ratings: number[] = [];
  clauses.forEach((clause) => {
    // ("rated forty five": a rating said in words)
    for (const [i, { value }] of spelledNumbers(clause.words))
      if (ratings.length === 0 && isRating(clause.tokens, i)) ratings = [value];
    clause.tokens.forEach((token, i) => {
      if (ratings.length > 0 || !isNumberToken(token) || !isRating(clause.tokens, i)) return;
      const before = clause.tokens[i - 1] ?? "";
      const after = clause.tokens[i + 1] ?? "";
      ratings = [Number(token)];
      if (isNumberToken(before)) ratings.unshift(Number(before));
      else if (isNumberToken(after)) ratings.push(Number(after));
    });
  });
  const ratingOf = (value: number): number | null =>
    ratings.reduce<number | null>(
      (best, r) => (best === null || Math.abs(Math.log(value / r)) < Math.abs(Math.log(value / best)) ? r : best),
      null,
    );
  clauses.forEach((clause, k) => {
    const spelled = spelledNumbers(clause.words);
    const inside = new Set(
      [...spelled].flatMap(([s, { length }]) => Array.from({ length: length - 1 }, (_, j) => s + j + 1)),
    );
    const input = indexOf(VOCABULARY.inputWords).in(clause.tokens);
    clause.tokens.forEach((token, i) => {
      const said = spelled.get(i);
      if ((!isNumberToken(token) && said === undefined) || inside.has(i)) return;
      if (blocked[k]?.[i] === true || isRating(clause.tokens, i)) return;
      // "10.2-10.6": a range reads as its middle, once
      const previous = clause.tokens[i - 1] ?? "";
      if (isNumberToken(previous) && blocked[k]?.[i - 1] !== true) return;
      // ("rental #9", "unit 14": a name, not a reading)
      if (VOCABULARY.identifierWords.has(previous)) return;
      const here = i + (said?.length ?? 1) - 1;
      const first = said?.value ?? Number(token);
      const second = said === undefined ? Number(clause.tokens[here + 1] ?? Number.NaN) : Number.NaN;
      // "reading 34.2 / 4.8" against a dual rating: each side of the capacitor, not a range
      if (ratings.length === 2 && second < first && second > 0 && blocked[k]?.[here + 1] !== true) {
        for (const [value, start] of [
          [first, i],
          [second, here + 1],
        ] as const)
          out.push({
            value,
            unit: VOCABULARY.units.get(clause.tokens[here + 2] ?? "") ?? null,
            clause: k,
            start,
            rating: ratingOf(value),
          });
        return;
      }
      const end = Number.isFinite(second) ? here + 1 : here;
      // "about 12 and a half"
      const half = indexOf(VOCABULARY.andAHalf)
        .in(clause.tokens.slice(end + 1, end + 5))
        .find((s) => s.start === 0);
      const last = end + (half?.length ?? 0);
      const next = clause.tokens[last + 1] ?? "";
      if (VOCABULARY.labor.minuteUnits.has(next) || VOCABULARY.labor.hourUnits.has(next)) return;
      if (VOCABULARY.countWords.has(next)) return;
      let value = (first + (end === here ? first : Number(clause.tokens[end]))) / 2 + (half === undefined ? 0 : 0.5);
      if (!Number.isFinite(value)) return;
      const unit = VOCABULARY.units.get(next);
      // "the one by the door", "thirty feet of tape": one number word is a reading only with its unit
      if (said !== undefined && said.length === 1 && unit === undefined) return;
      if (unit !== undefined && names.has(clause.tokens[last + 2] ?? "")) return;
      // "12 going in, nothing coming out", "input side has 12.6": what goes into a part is not
      // what it puts out (the switch steps ask for the output)
      // (…within the number's item: "12.48 V on the input and 0.00 V on the output" reads the 0.00)
      const apart = (from: number, to: number) =>
        clause.tokens.slice(from, to).some((t) => VOCABULARY.listWords.has(t) || VOCABULARY.conjunctions.has(t));
      if (
        input.some(
          (s) =>
            (s.start > last && s.start <= last + 3 && !apart(last + 1, s.start)) ||
            // ("12 going in but 0 coming out": "in but" marks the number before it, not the one after)
            (s.start + s.length <= i && s.start + s.length >= i - 3 && !apart(s.start + s.length - 1, i)),
        )
      )
        return;
      // "no 12v at the switch output": the voltage named is absent; "98, not 118": not a reading
      // ("nunca hay 12 V a la salida", "never got 12 out of it": absent too)
      const twoBack = clause.tokens[i - 2] ?? "";
      if (previous === "no" || (VOCABULARY.negators.has(twoBack) && !isNumberToken(previous))) value = 0;
      else if (VOCABULARY.negators.has(previous)) return;
      else if (endsAt(clause.tokens, i, below)) value -= COMPARATOR_STEP;
      else if (endsAt(clause.tokens, i, above)) value += COMPARATOR_STEP;
      out.push({ value, unit: unit ?? null, clause: k, start: i, rating: ratingOf(value) });
    });
  });
  return out;
}

/** Words as short as "at", "en", "am": where a reading was taken ("71 at the return"). */
const PREPOSITION_LENGTH = 2;

/**
 * The word of a pair right before the reading ("return 80"), or right after it and its unit, past
 * a short preposition ("80 return", "71 at the return").
 */
function pairWord(clause: TLexClause | undefined, at: number, before: boolean): string {
  if (clause === undefined) return "";
  if (before) return clause.tokens[at - 1] ?? "";
  let after = VOCABULARY.units.has(clause.tokens[at + 1] ?? "") ? at + 2 : at + 1;
  if ((clause.tokens[after]?.length ?? 0) <= PREPOSITION_LENGTH) after++;
  return clause.tokens[after] ?? "";
}

/** A split in °C, in °F (a difference: no offset). */
const CELSIUS_DEGREE_IN_F = 1.8;

/**
 * The step's paired reading: the number the message names by a `from` word less the one it names
 * by a `to` word ("return 80 supply 71", "70 return 52 supply": words all before or all after
 * their numbers), in place of the two; the readings as they are when the step pairs none or the
 * message does not name exactly one of each.
 */
export function withPair(step: TStep | undefined, readings: TReading[], clauses: readonly TLexClause[]): TReading[] {
  const pair = step?.readings?.pair;
  if (pair === undefined) return readings;
  const words = (list: readonly string[]) => new Set(list.flatMap((w) => phrase(w)));
  const [from, to] = [words(pair.from), words(pair.to)];
  for (const before of [true, false]) {
    const named = (side: ReadonlySet<string>) =>
      readings.filter((r) => side.has(pairWord(clauses[r.clause], r.start, before)));
    const [froms, tos] = [named(from), named(to)];
    const [a] = froms;
    const [b] = tos;
    if (froms.length !== 1 || tos.length !== 1 || a === undefined || b === undefined) continue;
    const unit = a.unit ?? b.unit;
    // ("return 25C, supply 15C": a split of 10 °C is one of 18 °F)
    const celsius = unit === "C" && step?.readings?.unit === "F";
    const paired = {
      ...a,
      value: (a.value - b.value) * (celsius ? CELSIUS_DEGREE_IN_F : 1),
      unit: celsius ? "F" : unit,
      start: Math.max(a.start, b.start),
    };
    return [...readings.filter((r) => r !== a && r !== b), paired];
  }
  return readings;
}

/** The answer a reading gives at a step with `readings`, or null (no readings, another unit). */
export function readingAnswer(step: TStep, reading: TReading): TAnswer | null {
  const spec = step.readings;
  if (spec === undefined || (reading.unit !== null && reading.unit !== spec.unit)) return null;
  // a step read against a rating takes a reading only with its rating, as a share of it
  if (spec.of_rating === true && (reading.rating === null || reading.rating <= 0)) return null;
  const value = spec.of_rating === true && reading.rating !== null ? reading.value / reading.rating : reading.value;
  if (spec.at_most !== undefined && value > spec.at_most) return null;
  const range = spec.ranges.find((r) => r.below === undefined || value < r.below);
  return step.answers.find((a) => a.id === range?.answer) ?? null;
}

const DURATION_PHRASES = new PhraseIndex(VOCABULARY.labor.phrases.map((p) => p.tokens));

/** Whether `tokens` end with a duration ("… the 3 min", "… half an hour"): a wait, not a reading. */
export function endsWithDuration(tokens: readonly string[]): boolean {
  const n = tokens.length;
  const unit = tokens[n - 1] ?? "";
  if (
    (VOCABULARY.labor.minuteUnits.has(unit) || VOCABULARY.labor.hourUnits.has(unit)) &&
    isNumberToken(tokens[n - 2] ?? "")
  )
    return true;
  return DURATION_PHRASES.in(tokens).some((span) => span.start + span.length === n);
}

/** Minutes stated in the clauses: "45 min", "1.5 hours", "1h30", "an hour and a half" (summed). */
export function durationOf(clauses: readonly TClause[]): number | null {
  const phrases = DURATION_PHRASES;
  let total = 0;
  let found = false;
  for (const clause of clauses) {
    const used = new Array<boolean>(clause.tokens.length).fill(false);
    for (const span of phrases.in(clause.tokens)) {
      if (used.slice(span.start, span.start + span.length).some(Boolean)) continue;
      for (let i = span.start; i < span.start + span.length; i++) used[i] = true;
      total += VOCABULARY.labor.phrases[span.phrase]?.minutes ?? 0;
      found = true;
    }
    clause.tokens.forEach((token, i) => {
      if (used[i] || !isNumberToken(token)) return;
      const unit = clause.tokens[i + 1] ?? "";
      const value = Number(token);
      if (VOCABULARY.labor.hourUnits.has(unit)) {
        total += value * 60;
        found = true;
        // "1h30": minutes right after the hour, with or without their unit
        const more = clause.tokens[i + 2] ?? "";
        if (isNumberToken(more) && !VOCABULARY.labor.hourUnits.has(clause.tokens[i + 3] ?? "")) {
          total += Number(more);
          used[i + 2] = true;
        }
      } else if (VOCABULARY.labor.minuteUnits.has(unit)) {
        total += value;
        found = true;
      }
    });
  }
  return found ? Math.round(total) : null;
}
