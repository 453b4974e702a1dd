// How much a proposal's text says what a CFB's text says, independent of the knowledge base's
// size: the measures here look at the two texts only, never at corpus statistics, so the same
// proposal and CFB score the same among 50 CFBs or 100,000.

import { languagesDiffer } from "@solserver/text";
import type { TTextProfile } from "./profile";

/**
 * The Dice coefficient at which two texts count as saying the same thing in other words: text
 * similarity is dice / TEXT_FULL, capped at 1. A restatement rewords a third of its terms or more
 * (synonyms, another word order, inflections the stemmer misses), so identical term sets are not
 * required for a full text match. Calibrated on the tuning half of the evaluation set
 * (docs/resolve.md).
 */
export const TEXT_FULL = 0.6;
/** A proposal sentence is supported by a CFB when the CFB holds at least this share of its terms. */
export const SENTENCE_SUPPORT = 0.3;
/** Across languages, texts are compared on their numbers and names, when each has this many. */
const MIN_SPECIFICS = 2;

export type TTextMatch = {
  /**
   * min(1, dice / TEXT_FULL): the composite's text component. Null when the languages differ and
   * either text has fewer than two numbers or names to compare: nothing to measure.
   */
  text: number | null;
  /** 2|P∩C| / (|P| + |C|) over analysed terms, or over specifics when the languages differ. */
  dice: number;
  /** Share of the proposal's terms in sentences the CFB does not support: facts it adds. */
  newShare: number;
  /** The two texts are in different languages (the overlap was measured on specifics). */
  languageDiffers: boolean;
  /**
   * The proposal uses change language ("no longer", "replaced by") the CFB does not, or says no
   * to a statement the CFB makes (NEGATED_COVER).
   */
  contradicts: boolean;
};

/**
 * A sentence of the proposal that says no contradicts a sentence of the CFB that says yes when
 * the CFB's sentence holds this share of its terms: the same statement, negated ("Do not restart
 * the worker after a deploy" / "Restart the worker after a deploy"). Less is a new condition
 * ("Releases are not built on Sundays" / "Releases are built by Jenkins").
 */
const NEGATED_COVER = 0.8;

function negates(p: TTextProfile, c: TTextProfile): boolean {
  return p.negatedSentences.some(
    (s) => s.size > 0 && c.plainSentences.some((t) => shared(s, t) / s.size >= NEGATED_COVER),
  );
}

function shared(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let n = 0;
  for (const x of a) if (b.has(x)) n += 1;
  return n;
}

export function dice(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  const total = a.size + b.size;
  return total === 0 ? 0 : (2 * shared(a, b)) / total;
}

/** Share of the proposal's sentence terms that sit in sentences the CFB supports less than SENTENCE_SUPPORT. */
function newShareOf(p: TTextProfile, c: TTextProfile): number {
  let all = 0;
  let unsupported = 0;
  for (const sentence of p.sentences) {
    all += sentence.size;
    if (shared(sentence, c.terms) / sentence.size < SENTENCE_SUPPORT) unsupported += sentence.size;
  }
  return all === 0 ? 0 : unsupported / all;
}

/**
 * Across languages words differ, but names, numbers and cognates do not: the better of the
 * specifics' Dice (when each side has MIN_SPECIFICS) and the content words' trigram Dice scaled
 * so that a translation (measured on the tuning half: 0.35–0.55) reads as a restatement. Null
 * when neither can be measured.
 */
export const CROSS_LANGUAGE_TRIGRAMS_FULL = 0.5;
function crossLanguageDice(p: TTextProfile, c: TTextProfile): number | null {
  const specifics =
    p.specifics.size >= MIN_SPECIFICS && c.specifics.size >= MIN_SPECIFICS ? dice(p.specifics, c.specifics) : null;
  const trigrams =
    p.trigrams.size > 0 && c.trigrams.size > 0
      ? Math.min(1, dice(p.trigrams, c.trigrams) / CROSS_LANGUAGE_TRIGRAMS_FULL) * TEXT_FULL
      : null;
  if (specifics === null && trigrams === null) return null;
  return Math.max(specifics ?? 0, trigrams ?? 0);
}

/**
 * The proposal's text against a CFB's. Without `detail`, only what ranks candidates (text,
 * language) is computed; newShare and contradicts are 0 / false (scoreCandidates asks for the
 * detail of the best few only).
 */
export function matchText(p: TTextProfile, c: TTextProfile, detail = true): TTextMatch {
  const languageDiffers = languagesDiffer(p.language, c.language);
  const d = languageDiffers ? crossLanguageDice(p, c) : dice(p.terms, c.terms);
  const comparable = !languageDiffers || d !== null;
  let contradicts = false;
  if (detail) {
    for (const cue of p.cues) if (!c.cues.has(cue)) contradicts = true;
    if (!languageDiffers && negates(p, c)) contradicts = true;
  }
  return {
    text: comparable && d !== null ? Math.min(1, d / TEXT_FULL) : null,
    dice: d ?? 0,
    newShare: languageDiffers || !detail ? 0 : newShareOf(p, c),
    languageDiffers,
    contradicts,
  };
}

/**
 * Two texts name exactly the same numbers and names: the stricter test for "the same knowledge
 * said twice" (twin proposals, a proposal against a CFB approved since). "Timeout 30 s" and
 * "timeout 60 s" are two facts; a text that adds a port to the other says more than it.
 */
export function sameSpecifics(a: TTextProfile, b: TTextProfile): boolean {
  return a.specifics.size === b.specifics.size && [...a.specifics].every((x) => b.specifics.has(x));
}

/**
 * Two CFBs are one CFB written twice (a merge may be suggested) when their texts mostly agree and
 * neither states a number or a name the other lacks while also lacking one of the other's:
 * "eu-central-1 (Frankfurt)" against "us-east-1 (N. Virginia)" are two facts, not one.
 */
export const PAIR_DICE = 0.5;
export function sameFacts(a: TTextProfile, b: TTextProfile): boolean {
  if (dice(a.terms, b.terms) < PAIR_DICE) return false;
  const aOnly = [...a.specifics].some((x) => !b.specifics.has(x));
  const bOnly = [...b.specifics].some((x) => !a.specifics.has(x));
  return !(aOnly && bOnly);
}
