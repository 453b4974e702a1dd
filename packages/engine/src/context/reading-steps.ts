// Which step a meter reading answers: the step asked, another step whose part the item names, or
// the step a correction re-measures ("actually i measured wrong, its 11.3 under load").

import { namedSpans, namedSteps, namesPart, type TCompiled } from "./catalog-index";
import type { TStep } from "./catalog-schema";
import type { TFound, TMessage } from "./intent";
import { bypassSpans, itemAround, withoutConditions } from "./items";
import { POSITION_STRIDE } from "./match";
import { readingAnswer, readingsOf, type TReading, withPair } from "./readings";
import { recordsFinding } from "./state";
import { type TLexClause, VOCABULARY } from "./vocabulary";

/** The step other than the active one a reading is of, if one is meant beyond doubt. */
function readingStep(m: TMessage, reading: TReading, item: TLexClause | undefined): TStep | undefined {
  const { c, steps, activeStep, state } = m;
  // Another step takes a reading when the clause names its part ("12.4 at the pump plug",
  // "batteries at 12.8"), or, with a unit, when it is the system's only step in that unit.
  const readers = steps.filter(
    (s) => s !== activeStep && s.readings !== undefined && (reading.unit === null || s.readings.unit === reading.unit),
  );
  let named = readers.filter((s) => namesPart(c, s, item));
  // ("put the meter on the pump plug and got 12.5": an item naming no part reads where its
  // clause put the meter before it)
  const whole = m.r.clauses[reading.clause];
  const clause = whole && withoutConditions({ ...whole, tokens: whole.tokens.slice(0, reading.start) });
  if (named.length === 0 && item !== undefined && clause !== undefined && namedSteps(c, item.tokens).size === 0) {
    named = readers.filter((s) => namesPart(c, s, clause));
    if (named.length > 1) return nearestNamed(c, named, clause, reading.start);
    // ("checked the house batteries, they are at 11.8": a clause naming nothing goes on about the
    // one part the clause before it named)
    const before = m.r.clauses[reading.clause - 1];
    const previous = readers.filter((s) => namesPart(c, s, before));
    if (named.length === 0 && namedSteps(c, whole?.tokens ?? []).size === 0 && previous.length === 1) named = previous;
  }
  // (of several steps in that unit, the ones that apply now: the switch output is read only
  // once the pump connector had no voltage)
  const applies = (s: TStep) => s.requires === undefined || recordsFinding(state.evidence, s.requires.finding);
  // (a step that reads a split takes no lone number by its unit: "set it to cool at 20 degrees" is
  // a setpoint, not a temperature drop)
  const inUnit =
    reading.unit === null
      ? []
      : steps.filter((s) => s.readings?.unit === reading.unit && s.readings.pair === undefined && applies(s));
  if (named.length > 1) return nearestNamed(c, named, item, reading.start);
  return named.length === 1 ? named[0] : inUnit.length === 1 ? inUnit[0] : undefined;
}

/**
 * Of several steps the item names, the one whose part stands nearest the number ("12.6 at the
 * pump with the switch on" is the pump's voltage); none when two stand as near.
 */
function nearestNamed(
  c: TCompiled,
  named: readonly TStep[],
  item: TLexClause | undefined,
  at: number,
): TStep | undefined {
  if (item === undefined) return undefined;
  const distances = namedSpans(c, item.tokens)
    .filter((span) => named.includes(span.step))
    .map((span) => ({ step: span.step, distance: Math.abs(span.start - at) }))
    .sort((a, b) => a.distance - b.distance);
  const [first, second] = distances;
  return first !== undefined && (second === undefined || second.distance > first.distance) ? first.step : undefined;
}

/**
 * The completed step last read in the reading's unit, unless the item names another step read in
 * that unit ("had the probe on the wrong pin, pump is getting 12.5" corrects the pump voltage).
 */
function lastReadStep(m: TMessage, reading: TReading, item: TLexClause | undefined): TStep | undefined {
  const { c, steps, state, activeStep } = m;
  for (const id of [...state.completed].reverse()) {
    const step = steps.find((s) => s.id === id);
    if (step === undefined || step === activeStep || step.readings === undefined) continue;
    if (reading.unit !== null && step.readings.unit !== reading.unit) continue;
    const unit = step.readings.unit;
    const other = steps.some((s) => s !== step && s.readings?.unit === unit && namesPart(c, s, item));
    return other && !namesPart(c, step, item) ? undefined : step;
  }
  return undefined;
}

/**
 * The completed step a corrected reading is of: the one the message names ("hold up, that batt
 * reading was with the charger on. charger off its 12.0"), else after a remeasurement or a
 * correction that points back the last one read in the reading's unit.
 */
function correctedStep(m: TMessage, reading: TReading, item: TLexClause | undefined): TStep | undefined {
  const { c, r, steps, state, activeStep } = m;
  if (!r.correction || (activeStep !== undefined && namesPart(c, activeStep, item))) return undefined;
  const named = steps.filter(
    (s) =>
      s !== activeStep &&
      state.completed.includes(s.id) &&
      s.readings !== undefined &&
      (reading.unit === null || s.readings.unit === reading.unit) &&
      r.clauses.some((clause) => namesPart(c, s, clause)),
  );
  if (named.length === 1) return named[0];
  // "no wait that was the fan side, the herm side reads 31 on a 45": a reading against a rating
  // corrects the step read against one
  const rated = steps.filter(
    (s) => s !== activeStep && state.completed.includes(s.id) && s.readings?.of_rating === true,
  );
  // (and only such a step: "so 40 on a 40" is no voltage, whatever was read last)
  if (reading.rating !== null) return rated.length === 1 ? rated[0] : undefined;
  // ("wait that was with the converter charging, its 12.1": a correction that points back, too)
  return r.remeasured || r.pointsBack ? lastReadStep(m, reading, item) : undefined;
}

/** Meter readings answer a step by its ranges, not by its patterns. */
export function withReadings(m: TMessage, before: TFound): TFound {
  const { c, r, steps, activeStep } = m;
  const found: TFound = { ...before, stated: [...before.stated], hitClauses: new Set(before.hitClauses) };
  const saidNow = new Set<TStep>();
  const inWords = new Set(before.stated.map((s) => s.step));
  // Readings: the active step takes a number in its unit or with no unit; another step only
  // one with its unit, when no other step of the system reads that unit.
  for (const reading of withPair(activeStep, readingsOf(r.clauses, r.masks.blocked, c.names), r.clauses)) {
    // "motor direct 12v off batt runs strong": the supply a bypass names is not a measurement
    const clause = r.clauses[reading.clause];
    if (
      clause !== undefined &&
      bypassSpans(clause).some((s) => reading.start >= s.start && reading.start < s.start + s.length)
    )
      continue;
    const position = reading.clause * POSITION_STRIDE + reading.start;
    found.hitClauses.add(reading.clause);
    // a reading the item says is of another step's part ("12 volts at the pump" while the switch
    // is asked) is that step's, not the step asked
    const item = withoutConditions(itemAround(r.clauses[reading.clause], reading.start));
    const elsewhere =
      activeStep !== undefined &&
      !namesPart(c, activeStep, item) &&
      steps.some((s) => s !== activeStep && s.readings !== undefined && namesPart(c, s, item));
    // "actually i measured wrong, its 11.3 under load": a remeasurement that names no part
    // corrects the last step read in that unit, not the step asked (issue 36)
    const corrected = elsewhere && !r.correction ? undefined : correctedStep(m, reading, item);
    if (corrected !== undefined) {
      const answer = readingAnswer(corrected, reading);
      // (of the readings of a correction the one said now stands, not the old one put elsewhere:
      // "119 was at the pedestal, at the ac its 104", "its 10.9, the 12.2 was at the battery";
      // nor over what its words say: "the switch isnt putting anything out, the 12v I saw was on
      // its input side")
      const now = !(item?.tokens.some((t) => VOCABULARY.pastMarkers.has(t)) ?? false);
      if (answer !== null && (now || (!saidNow.has(corrected) && !inWords.has(corrected)))) {
        if (now) saidNow.add(corrected);
        found.stated = found.stated.filter((s) => s.step !== corrected);
        found.stated.push({ step: corrected, index: steps.indexOf(corrected), answer });
      }
      continue;
    }
    const own = activeStep === undefined || elsewhere ? null : readingAnswer(activeStep, reading);
    if (own !== null) {
      if (found.answer === null || found.weak || position > found.at || !r.correction) {
        const conflict = found.answer !== null && found.answer !== own && !r.correction && found.at >= 0 && !found.weak;
        // "breaker is on, only 98 at the unit", "12 in but nothing out": of a reading and words
        // that disagree, the one that finds a fault says more than the one that finds none
        const fault =
          conflict && Boolean(found.answer?.normal) !== Boolean(own.normal) ? (own.normal ? found.answer : own) : null;
        // (two faults: the words name the cause, the reading only measures it: "return 80 supply
        // 71, filters full of dog hair" is the dirty filter)
        if (conflict && found.answer?.normal !== true && own.normal !== true) continue;
        if (conflict && fault === null && found.answer !== null) {
          found.ambiguous = [found.answer.id, own.id];
          found.answer = null;
        } else if (fault === null || fault === own) {
          found.answer = own;
          found.at = position;
          found.weak = false;
          found.ambiguous = [];
        }
      }
      continue;
    }
    const step = readingStep(m, reading, item);
    if (step === undefined || step === activeStep) continue;
    const stepAnswer = readingAnswer(step, reading);
    if (stepAnswer === null) continue;
    const said = found.stated.findIndex((s) => s.step === step);
    // (as at the step asked, a reading that finds a fault says more than words that find none:
    // "marca 31,5 y es de 35, no está inflado" is a weak capacitor)
    if (said < 0) found.stated.push({ step, index: steps.indexOf(step), answer: stepAnswer });
    else if (found.stated[said]?.answer.normal === true && stepAnswer.normal !== true)
      found.stated[said] = { step, index: steps.indexOf(step), answer: stepAnswer };
  }
  return found;
}
