// The seed's bands (001 §6.3) turned into a decision: update / review / create, a merge
// suggestion for two near-identical CFBs, and a +0.05 buffer against flipping create↔update.
// On top of the bands, three things only a person can settle hold an update back to review: a
// proposal that adds facts the CFB lacks (NEW_FACTS), one that says the CFB's practice changed
// (CONTRADICTS, also from below the review band), and a restatement in another language
// (LANGUAGE_DIFFERS). docs/resolve.md has the rules as a table; test/decide.test.ts checks every edge.
import type { TDecisionRule, TResolveDecisionKind, TResolveOutcome, TScoredCandidate } from "@solserver/contracts";
import { DECISION_RULE } from "./decision-rule";
import { orderReasonCodes, REASON_THRESHOLDS, type TResolveReasonCode } from "./reason-codes";
import { compareScored, scoreUnits } from "./score";

/** The shipped rule's bands (decision-rule.json). */
export const BANDS = DECISION_RULE.bands;
/** How many scored candidates an outcome keeps, best first. */
export const OUTCOME_SCORES = 10;

// Every comparison is on integer ten-thousandths of the 4-decimal scores: 0.82 − 0.76 is
// 0.05999999999999994 in floating point, but 8200 − 7600 is exactly the 600 that is not a merge.
type TUnits = { HIGH: number; LOW: number; MERGE_GAP: number; BUFFER: number; CONTRADICTION_FLOOR: number };
function unitsOf(rule: TDecisionRule): TUnits {
  const b = rule.bands;
  return {
    HIGH: scoreUnits(b.high),
    LOW: scoreUnits(b.low),
    MERGE_GAP: scoreUnits(b.mergeGap),
    BUFFER: scoreUnits(b.hysteresis),
    CONTRADICTION_FLOOR: scoreUnits(b.contradiction),
  };
}

export type TDecideOptions = {
  /**
   * Whether two CFBs state the same facts (text/text-match.ts sameFacts): a merge is suggested
   * only for such a pair. Without it, no pair is a merge.
   */
  sameFacts?: (a: string, b: string) => boolean;
  /**
   * How much of the proposal's numbers and names a CFB shares (Dice of specifics): between two
   * close CFBs that state different facts, the proposal restates the one whose facts it names.
   */
  specifics?: (cfbId: string) => number;
  /** The rule to decide with (the shipped, fitted one by default). */
  rule?: TDecisionRule;
};

function band(s1: number, { HIGH, LOW }: TUnits): TResolveReasonCode {
  if (s1 > HIGH) return "SCORE_HIGH";
  return s1 >= LOW ? "SCORE_MID" : "SCORE_LOW";
}

/** What the bands alone say, before the buffer: > high update, ≥ low review, else create. */
function bandDecision(s1: number, { HIGH, LOW }: TUnits): "update" | "review" | "create" {
  if (s1 > HIGH) return "update";
  return s1 >= LOW ? "review" : "create";
}

type TDecided = Pick<TResolveOutcome, "decision" | "target_cfb_id" | "merge_cfb_ids" | "hysteresis_applied"> & {
  codes: TResolveReasonCode[];
};

const create = (codes: TResolveReasonCode[] = [], held = false): TDecided => ({
  decision: "create",
  target_cfb_id: null,
  merge_cfb_ids: [],
  hysteresis_applied: held,
  codes,
});
const toward = (
  decision: "update" | "review",
  top: TScoredCandidate,
  codes: TResolveReasonCode[] = [],
  held = false,
): TDecided => ({ decision, target_cfb_id: top.cfb_id, merge_cfb_ids: [], hysteresis_applied: held, codes });

/** The flags that hold an update (or a merge) back to review, as reason codes. */
const HOLDS = new Set<TResolveReasonCode>([
  "NEW_FACTS",
  "CONTRADICTS",
  "LANGUAGE_DIFFERS",
  "SUBJECT_CLOSE",
  "VALUE_CHANGED",
]);
function holds(top: TScoredCandidate): TResolveReasonCode[] {
  return top.flags.flatMap((f) => (HOLDS.has(f as TResolveReasonCode) ? [f as TResolveReasonCode] : []));
}

/** Flags a person must settle even under the review band: the CFB the proposal is about changed. */
const SETTLE = ["CONTRADICTS", "LANGUAGE_DIFFERS", "VALUE_CHANGED", "SUBJECT_CLOSE"] as const;

function decideRanked(
  all: readonly TScoredCandidate[],
  previous: TResolveDecisionKind | undefined,
  opts: TDecideOptions,
  u: TUnits,
): TDecided {
  const { LOW } = u;
  if (all.length === 0) return create(["NO_CANDIDATES"]);
  // A CFB about another subject is never what the proposal updates, merges or is reviewed
  // against, however alike the words: the decision is taken among the others.
  const ranked = all.filter((s) => !s.flags.includes("SUBJECT_DIFFERS"));
  const excluded: TResolveReasonCode[] =
    (all[0] as TScoredCandidate).flags.includes("SUBJECT_DIFFERS") &&
    scoreUnits((all[0] as TScoredCandidate).score) >= LOW
      ? ["SUBJECT_DIFFERS"]
      : [];
  const [top, second] = ranked;
  if (!top) return create(excluded);
  const decided = decideAmong(top, second, previous, opts, u);
  return { ...decided, codes: [...excluded, ...decided.codes] };
}

function decideAmong(
  top: TScoredCandidate,
  second: TScoredCandidate | undefined,
  previous: TResolveDecisionKind | undefined,
  opts: TDecideOptions,
  u: TUnits,
): TDecided {
  const { HIGH, LOW, MERGE_GAP, BUFFER, CONTRADICTION_FLOOR } = u;
  const s1 = scoreUnits(top.score);
  const s2 = second ? scoreUnits(second.score) : 0;
  const held = holds(top);

  // A proposal saying the CFB it is about no longer holds, or restating it in another language,
  // is for a person to settle, even when the changed wording (or the other language, which
  // leaves only labels, numbers and names to compare) keeps its score under the review band.
  if (SETTLE.some((f) => top.flags.includes(f)) && s1 >= CONTRADICTION_FLOOR) return toward("review", top, held);

  // Merge first: two CFBs both above the high band, this close, and stating the same facts are
  // one CFB written twice, whatever was decided before (the buffer only guards create↔update).
  // Two that are close but state different facts (EU vs US region) are two CFBs: no merge.
  const pairClose = second !== undefined && s1 > HIGH && s2 > HIGH && s1 - s2 < MERGE_GAP;
  const pairCodes: TResolveReasonCode[] = [];
  if (pairClose && second) {
    if (opts.sameFacts?.(top.cfb_id, second.cfb_id)) {
      // Facts the proposal adds go into the merged CFB; a contradiction or another language
      // returned to review above already.
      return {
        decision: "merge",
        target_cfb_id: top.cfb_id,
        merge_cfb_ids: [top.cfb_id, second.cfb_id],
        hysteresis_applied: false,
        codes: ["NEAR_DUPLICATE_PAIR"],
      };
    }
    pairCodes.push("DISTINCT_PAIR");
    // Two facts that read alike (EU vs US region): update the one whose numbers and names the
    // proposal repeats; when they do not tell the two apart, a person picks (never a guess).
    const a = opts.specifics?.(top.cfb_id) ?? 0;
    const b = opts.specifics?.(second.cfb_id) ?? 0;
    if (a === b) return toward("review", top, [...pairCodes, ...held]);
    const chosen = a > b ? top : second;
    if (held.length > 0 || holds(chosen).length > 0)
      return toward("review", chosen, [...pairCodes, ...held, ...holds(chosen)]);
    // The buffer holds here too: last time a create, and not clearly above the band.
    if (previous === "create" && s1 <= HIGH + BUFFER) return create(pairCodes, true);
    return toward("update", chosen, pairCodes);
  }

  const bands = bandDecision(s1, u);
  // The buffer: a fingerprint decided "create" last time needs s1 > 0.80 to become an update,
  // one decided "update" needs s1 < 0.50 to become a create. A score wobbling around one edge
  // then does not flip the decision back and forth between runs.
  if (previous === "create" && bands === "update" && s1 <= HIGH + BUFFER) return create(pairCodes, true);
  if (previous === "update" && bands === "create" && s1 >= LOW - BUFFER)
    return held.length > 0 ? toward("review", top, held) : toward("update", top, pairCodes, true);
  if (bands === "update" && held.length > 0) return toward("review", top, [...pairCodes, ...held]);
  // review names the best candidate too, for the reviewer to compare with.
  return bands === "create" ? create(pairCodes) : toward(bands, top, pairCodes);
}

function reasonCodes(ranked: readonly TScoredCandidate[], decided: TDecided, u: TUnits): TResolveReasonCode[] {
  const [top] = ranked;
  const codes: TResolveReasonCode[] = [band(top ? scoreUnits(top.score) : 0, u), ...decided.codes];
  if (!top) return orderReasonCodes(codes);
  if (decided.hysteresis_applied) codes.push("HYSTERESIS_HOLD");
  const c = top.components;
  if (top.flags.includes("SEMANTIC_MATCH")) codes.push("SEMANTIC_MATCH");
  const text = c.text_similarity ?? 0;
  if (text > 0 && ranked.every((s) => (s.components.text_similarity ?? 0) <= text)) codes.push("TEXT_TOP");
  const tag = c.tag_overlap ?? 0;
  const entity = c.entity_overlap ?? 0;
  if (tag >= REASON_THRESHOLDS.overlap && entity >= REASON_THRESHOLDS.overlap) codes.push("HIGH_TAG_ENTITY_MATCH");
  if (tag >= REASON_THRESHOLDS.overlap && text < REASON_THRESHOLDS.lowText) codes.push("TAG_ONLY_MATCH");
  if (c.title_similarity >= REASON_THRESHOLDS.title) codes.push("TITLE_MATCH");
  if (text < REASON_THRESHOLDS.lowText) codes.push("LOW_TEXT_MATCH");
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
  opts: TDecideOptions = {},
): TResolveOutcome {
  const ranked = [...scores].sort(compareScored);
  const u = unitsOf(opts.rule ?? DECISION_RULE);
  const decided = decideRanked(ranked, previous?.decision, opts, u);
  return {
    decision: decided.decision,
    target_cfb_id: decided.target_cfb_id,
    merge_cfb_ids: decided.merge_cfb_ids,
    hysteresis_applied: decided.hysteresis_applied,
    scores: ranked.slice(0, OUTCOME_SCORES).map((s) => ({
      cfb_id: s.cfb_id,
      score: s.score,
      components: { ...s.components },
      flags: [...s.flags],
      ...(s.subject ? { subject: s.subject } : {}),
      ...(s.changes && s.changes.length > 0 ? { changes: s.changes } : {}),
    })),
    reason_codes: reasonCodes(ranked, decided, u),
  };
}
