// @solserver/resolve: Umbra resolve (seed 001 §6) as a pure library. A proposal becomes a
// candidate query; the db's candidate index returns the CFBs sharing the most terms with it; each
// is scored on text, tag, entity and title overlap (and embeddings, when semantic matching is on)
// and decided into update / review / create / merge, with a hysteresis buffer against
// flip-flopping. No I/O, no clock, no randomness: same input, same decision.

export { BANDS, decide, OUTCOME_SCORES, type TDecideOptions } from "./decide";
export { DECISION_RULE } from "./decision-rule";
export { disagreement, formatScore } from "./disagreement";
export { fingerprint } from "./fingerprint";
export { normalizeText } from "./normalize";
export { jaccard, labelOverlap, titleSimilarity } from "./overlap";
export { buildCandidateQuery, MAX_QUERY_TERMS, summaryKeyTerms } from "./query";
export { orderReasonCodes, REASON_THRESHOLDS, RESOLVE_REASON_CODES, type TResolveReasonCode } from "./reason-codes";
export { decideOptions, redecide, resolveOutcome, scoreCandidates } from "./resolve-outcome";
export {
  compareScored,
  compositeScore,
  NEW_FACTS_SHARE,
  round4,
  SEMANTIC_SCALE,
  scoreCandidate,
  scoreUnits,
  semanticComponent,
  type TSemanticScale,
  WEIGHTS,
} from "./score";
export { CHANGE_CUES, changeCues, type TChangeCue } from "./text/change-cues";
export { cachedTextProfile, type TTextProfile, textProfile } from "./text/profile";
export {
  dice,
  matchText,
  PAIR_DICE,
  SENTENCE_SUPPORT,
  sameFacts,
  sameSpecifics,
  TEXT_FULL,
  type TTextMatch,
} from "./text/text-match";
