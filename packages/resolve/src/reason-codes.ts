// Why resolve decided what it did, in a fixed order: the band of the top score first, then the
// others as listed here (docs/resolve.md has the table). Stored in the decision's reason_codes.

export const RESOLVE_REASON_CODES = [
  // band of the top score s1 (exactly one of these, always first)
  "SCORE_HIGH", // s1 > 0.75
  "SCORE_MID", // 0.55 ≤ s1 ≤ 0.75
  "SCORE_LOW", // s1 < 0.55 (also when there is no candidate)
  // the decision itself
  "NO_CANDIDATES", // the search returned nothing
  "NEAR_DUPLICATE_PAIR", // merge: the top two are both high, within the merge gap, and the same facts
  "DISTINCT_PAIR", // the top two are both high and close, but state different facts: no merge
  "HYSTERESIS_HOLD", // the +0.05 buffer kept the previous decision
  "NEW_FACTS", // the proposal adds sentences the top CFB does not support: review, not update
  "CONTRADICTS", // the proposal says the top CFB's practice changed ("no longer", "replaced by"): review
  "LANGUAGE_DIFFERS", // the proposal restates the top CFB in another language: review, not update
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
