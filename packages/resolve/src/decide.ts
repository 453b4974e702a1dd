// The seed's bands (001 §6.3) turned into a decision: update / review / create, a merge
// suggestion for two near-identical CFBs, and a +0.05 buffer against flipping create↔update.
// docs/resolve.md has the rules as a table; test/decide.test.ts checks every edge.
import type { TResolveDecisionKind, TResolveOutcome, TScoredCandidate } from "@solserver/contracts";
import { orderReasonCodes, REASON_THRESHOLDS, type TResolveReasonCode } from "./reason-codes";
import { compareScored, scoreUnits } from "./score";

export const BANDS = { low: 0.55, high: 0.75, mergeGap: 0.06, hysteresis: 0.05 } as const;
/** How many scored candidates an outcome keeps, best first. */
export const OUTCOME_SCORES = 10;

// Every comparison is on integer ten-thousandths of the 4-decimal scores: 0.82 − 0.76 is
// 0.05999999999999994 in floating point, but 8200 − 7600 is exactly the 600 that is not a merge.
const HIGH = scoreUnits(BANDS.high);
const LOW = scoreUnits(BANDS.low);
const MERGE_GAP = scoreUnits(BANDS.mergeGap);
const BUFFER = scoreUnits(BANDS.hysteresis);

function band(s1: number): TResolveReasonCode {
  if (s1 > HIGH) return "SCORE_HIGH";
  return s1 >= LOW ? "SCORE_MID" : "SCORE_LOW";
}

/** What the bands alone say, before the buffer: > high update, ≥ low review, else create. */
function bandDecision(s1: number): "update" | "review" | "create" {
  if (s1 > HIGH) return "update";
  return s1 >= LOW ? "review" : "create";
}

type TDecided = Pick<TResolveOutcome, "decision" | "target_cfb_id" | "merge_cfb_ids" | "hysteresis_applied">;

function decideRanked(
  top: TScoredCandidate | undefined,
  second: TScoredCandidate | undefined,
  previous: TResolveDecisionKind | undefined,
): TDecided {
  if (!top) return { decision: "create", target_cfb_id: null, merge_cfb_ids: [], hysteresis_applied: false };
  const s1 = scoreUnits(top.score);
  const s2 = second ? scoreUnits(second.score) : 0;
  // Merge first: two CFBs both above the high band and this close are one CFB written twice,
  // whatever was decided before (the buffer only guards create↔update).
  if (second && s1 > HIGH && s2 > HIGH && s1 - s2 < MERGE_GAP) {
    return {
      decision: "merge",
      target_cfb_id: top.cfb_id,
      merge_cfb_ids: [top.cfb_id, second.cfb_id],
      hysteresis_applied: false,
    };
  }
  const bands = bandDecision(s1);
  // The buffer: a fingerprint decided "create" last time needs s1 > 0.80 to become an update,
  // one decided "update" needs s1 < 0.50 to become a create. A score wobbling around one edge
  // then does not flip the decision back and forth between runs.
  if (previous === "create" && bands === "update" && s1 <= HIGH + BUFFER)
    return { decision: "create", target_cfb_id: null, merge_cfb_ids: [], hysteresis_applied: true };
  if (previous === "update" && bands === "create" && s1 >= LOW - BUFFER)
    return { decision: "update", target_cfb_id: top.cfb_id, merge_cfb_ids: [], hysteresis_applied: true };
  // review names the best candidate too, for the reviewer to compare with.
  return {
    decision: bands,
    target_cfb_id: bands === "create" ? null : top.cfb_id,
    merge_cfb_ids: [],
    hysteresis_applied: false,
  };
}

function reasonCodes(ranked: readonly TScoredCandidate[], decided: TDecided): TResolveReasonCode[] {
  const [top] = ranked;
  const codes: TResolveReasonCode[] = [band(top ? scoreUnits(top.score) : 0)];
  if (!top) return orderReasonCodes([...codes, "NO_CANDIDATES"]);
  if (decided.decision === "merge") codes.push("NEAR_DUPLICATE_PAIR");
  if (decided.hysteresis_applied) codes.push("HYSTERESIS_HOLD");
  const c = top.components;
  if (c.bm25_norm > 0 && ranked.every((s) => s.components.bm25_norm <= c.bm25_norm)) codes.push("BM25_TOP");
  if (c.tag_overlap >= REASON_THRESHOLDS.overlap && c.entity_overlap >= REASON_THRESHOLDS.overlap)
    codes.push("HIGH_TAG_ENTITY_MATCH");
  if (c.tag_overlap >= REASON_THRESHOLDS.overlap && c.bm25_norm < REASON_THRESHOLDS.lowText)
    codes.push("TAG_ONLY_MATCH");
  if (c.title_similarity >= REASON_THRESHOLDS.title) codes.push("TITLE_MATCH");
  if (c.bm25_norm < REASON_THRESHOLDS.lowText) codes.push("LOW_TEXT_MATCH");
  return orderReasonCodes(codes);
}

/**
 * The decision for a proposal's scored candidates (any order: they are ranked here the way
 * scoreCandidates ranks them). `previous` is the last decision for the same fingerprint, for the
 * hysteresis buffer; none, review and merge add no buffer.
 */
export function decide(
  scores: readonly TScoredCandidate[],
  previous?: { decision: TResolveDecisionKind } | null,
): TResolveOutcome {
  const ranked = [...scores].sort(compareScored);
  const decided = decideRanked(ranked[0], ranked[1], previous?.decision);
  return {
    ...decided,
    scores: ranked
      .slice(0, OUTCOME_SCORES)
      .map((s) => ({ cfb_id: s.cfb_id, score: s.score, components: { ...s.components } })),
    reason_codes: reasonCodes(ranked, decided),
  };
}
