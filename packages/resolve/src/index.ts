// @solserver/resolve: Umbra resolve (seed 001 §6) as a pure library. A proposal becomes a
// candidate query; the db's full-text search returns candidates; they are scored on bm25, tag,
// entity and title overlap and decided into update / review / create / merge, with a hysteresis
// buffer against flip-flopping. No I/O, no clock, no randomness: same input, same decision.

export { BANDS, decide, OUTCOME_SCORES } from "./decide";
export { disagreement, formatScore } from "./disagreement";
export { fingerprint } from "./fingerprint";
export { normalizeText } from "./normalize";
export { entityOverlap, jaccard, tagOverlap, titleSimilarity } from "./overlap";
export { buildCandidateQuery, DEFAULT_MAX_TERMS, summaryKeyTerms } from "./query";
export { orderReasonCodes, REASON_THRESHOLDS, RESOLVE_REASON_CODES, type TResolveReasonCode } from "./reason-codes";
export { bm25Norm, compareScored, round4, scoreCandidates, scoreUnits, WEIGHTS } from "./score";
export { STOPWORDS } from "./stopwords";
export { foldText, tokenize } from "./tokenize";
