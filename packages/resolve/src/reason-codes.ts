// Why resolve decided what it did, in a fixed order: the band of the top score first, then the
// others as listed here (docs/resolve.md has the table). Stored in the decision's reason_codes.

export const RESOLVE_REASON_CODES = [
  // band of the top score s1 (exactly one of these, always first)
  "SCORE_HIGH", // s1 > the rule's high band
  "SCORE_MID", // low ≤ s1 ≤ high
  "SCORE_LOW", // s1 < low (also when there is no candidate)
  // the decision itself
  "NO_CANDIDATES", // the search returned nothing
  "NEAR_DUPLICATE_PAIR", // merge: the top two are both high, within the merge gap, and the same facts
  "DISTINCT_PAIR", // the top two are both high and close, but state different facts: no merge
  "HYSTERESIS_HOLD", // the buffer kept the previous decision
  "NEW_FACTS", // the proposal adds sentences the top CFB does not support: review, not update
  "CONTRADICTS", // the proposal says the top CFB's practice changed ("no longer", "replaced by"): review
  "LANGUAGE_DIFFERS", // the proposal restates the top CFB in another language: review, not update
  "SUBJECT_DIFFERS", // the best-scoring CFB is about another subject (the same pattern): never its update
  "SUBJECT_CLOSE", // the top CFB is about a close subject (a part and its assembly): review
  "VALUE_CHANGED", // the same subject with another value ("15 A" → "20 A"): review
  "NO_SUBJECT", // the proposal names no subject (only numbers, labels, or a script not analysed): review
  // the top candidate
  "SEMANTIC_MATCH", // its text component came from the embeddings, not the words
  "TEXT_TOP", // it also has the highest text similarity (> 0) of all candidates
  "HIGH_TAG_ENTITY_MATCH", // tag_overlap ≥ 0.5 and entity_overlap ≥ 0.5
  "TAG_ONLY_MATCH", // tag_overlap ≥ 0.5 but text_similarity < 0.3
  "TITLE_MATCH", // title_similarity ≥ 0.8
  "LOW_TEXT_MATCH", // text_similarity < 0.3
] as const;
export type TResolveReasonCode = (typeof RESOLVE_REASON_CODES)[number];

/** Component thresholds of the reason codes above. */
export const REASON_THRESHOLDS = { overlap: 0.5, lowText: 0.3, title: 0.8 } as const;

/** The given codes in the fixed order, each once. */
export function orderReasonCodes(codes: Iterable<TResolveReasonCode>): TResolveReasonCode[] {
  const present = new Set(codes);
  return RESOLVE_REASON_CODES.filter((c) => present.has(c));
}
