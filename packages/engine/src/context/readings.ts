// Numbers in a technician's message: meter readings ("12.6V", "12,6 v", "under 11 volts") read
// against a step's ranges, and durations ("45 min", "an hour and a half", "1h30") for labor.

import { isNumber as isNumberToken, type TClause } from "@solserver/text";
import type { TAnswer, TStep } from "./catalog-schema";
import { indexOf, PhraseIndex } from "./phrases";
import { VOCABULARY } from "./vocabulary";

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

/** Whether the number at `i` is a rating: a rating word right before it or right after it (and its unit). */
function isRating(tokens: readonly string[], i: number): boolean {
  const after = VOCABULARY.units.has(tokens[i + 1] ?? "") ? i + 2 : i + 1;
  return (
    endsAt(tokens, i, indexOf(VOCABULARY.ratingsBefore)) ||
    indexOf(VOCABULARY.ratings)
      .in(tokens.slice(after, after + 4))
      .some((s) => s.start === 0)
  );
}

/** The readings of the clauses, skipping blocked tokens and numbers that are durations. */
export function readingsOf(
  clauses: readonly TClause[],
  blocked: readonly (readonly boolean[])[],
  /** Words right after which a number is a specification, not a measurement ("12v water pump"). */
  names: ReadonlySet<string> = new Set(),
): TReading[] {
  const below = indexOf(VOCABULARY.comparators.below);
  const above = indexOf(VOCABULARY.comparators.above);
  const out: TReading[] = [];
  // "cap reads 38 on a 45 rated cap": the rated number is what the reading is measured against
  let rating: number | null = null;
  clauses.forEach((clause) => {
    clause.tokens.forEach((token, i) => {
      if (rating === null && isNumberToken(token) && isRating(clause.tokens, i)) rating = Number(token);
    });
  });
  clauses.forEach((clause, k) => {
    clause.tokens.forEach((token, i) => {
      if (!isNumberToken(token) || blocked[k]?.[i] === true || isRating(clause.tokens, i)) return;
      // "10.2-10.6": a range reads as its middle, once
      const previous = clause.tokens[i - 1] ?? "";
      if (isNumberToken(previous) && blocked[k]?.[i - 1] !== true) return;
      const end = isNumberToken(clause.tokens[i + 1] ?? "") ? i + 1 : i;
      // "about 12 and a half"
      const half = indexOf(VOCABULARY.andAHalf)
        .in(clause.tokens.slice(end + 1, end + 5))
        .find((s) => s.start === 0);
      const last = end + (half?.length ?? 0);
      const next = clause.tokens[last + 1] ?? "";
      if (VOCABULARY.labor.minuteUnits.has(next) || VOCABULARY.labor.hourUnits.has(next)) return;
      let value = (Number(token) + Number(clause.tokens[end])) / 2 + (half === undefined ? 0 : 0.5);
      if (!Number.isFinite(value)) return;
      const unit = VOCABULARY.units.get(next);
      if (unit !== undefined && names.has(clause.tokens[last + 2] ?? "")) return;
      // "no 12v at the switch output": the voltage named is absent; "98, not 118": not a reading
      if (previous === "no") value = 0;
      else if (VOCABULARY.negators.has(previous)) return;
      else if (endsAt(clause.tokens, i, below)) value -= COMPARATOR_STEP;
      else if (endsAt(clause.tokens, i, above)) value += COMPARATOR_STEP;
      out.push({ value, unit: unit ?? null, clause: k, start: i, rating });
    });
  });
  return out;
}

/** The answer a reading gives at a step with `readings`, or null (no readings, another unit). */
export function readingAnswer(step: TStep, reading: TReading): TAnswer | null {
  const spec = step.readings;
  if (spec === undefined || (reading.unit !== null && reading.unit !== spec.unit)) return null;
  // a step read against a rating takes a reading only with its rating, as a share of it
  if (spec.of_rating === true && (reading.rating === null || reading.rating <= 0)) return null;
  const value = spec.of_rating === true && reading.rating !== null ? reading.value / reading.rating : reading.value;
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
