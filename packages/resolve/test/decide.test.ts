// The decision rules of seed 001 §6.3 at every edge, the hysteresis buffer both ways, what holds
// an update or a merge back to review (NEW_FACTS, CONTRADICTS, LANGUAGE_DIFFERS, a pair that
// states different facts), and the reason codes. The same rules are in docs/resolve.md.
import {
  type TCandidateFlag,
  type TResolveDecisionKind,
  type TScoredCandidate,
  ZResolveOutcome,
} from "@solserver/contracts";
import { describe, expect, it, vi } from "vitest";
import { BANDS, decide, OUTCOME_SCORES, RESOLVE_REASON_CODES, type TDecideOptions } from "../src/index";
import { DISTINCT_FACTS, SAME_FACTS, scored } from "./fixtures";

vi.mock("../src/decision-rule", async () => ({ DECISION_RULE: (await import("./seed-rule")).SEED_RULE }));

/** A distinct pair where the proposal shares these shares of numbers and names with A and B. */
const naming = (a: number, b: number): TDecideOptions => ({
  sameFacts: () => false,
  specifics: (id) => (id === "A" ? a : id === "B" ? b : 0),
});

type Row = [
  label: string,
  scores: number[],
  previous: TResolveDecisionKind | null,
  decision: TResolveDecisionKind,
  target: string | null,
  merge: string[],
  hysteresis: boolean,
];

/** Candidates A, B, C, … with the given scores (ids in score order so the expected ids are obvious). */
const ranked = (scores: number[]) => scores.map((s, i) => scored(String.fromCharCode(65 + i), s));

// The seed's bands, unchanged by the redesign. Run with every pair stating the same facts, so a
// close high pair is a merge exactly as the seed says; what a distinct pair does is below.
const TABLE: Row[] = [
  // bands
  ["no candidates", [], null, "create", null, [], false],
  ["0.5499 is create", [0.5499], null, "create", null, [], false],
  ["0.55 is review", [0.55], null, "review", "A", [], false],
  ["0.75 is review (not > 0.75)", [0.75], null, "review", "A", [], false],
  ["0.7501 is update", [0.7501], null, "update", "A", [], false],
  ["1 is update", [1], null, "update", "A", [], false],
  ["0 is create", [0], null, "create", null, [], false],
  // merge: both > 0.75 and gap < 0.06
  ["gap 0.0599, both high: merge", [0.81, 0.7501], null, "merge", "A", ["A", "B"], false],
  ["gap 0.06 exactly: not merge", [0.8101, 0.7501], null, "update", "A", [], false],
  ["gap 0.06 that floats as 0.0599999…: not merge", [0.82, 0.76], null, "update", "A", [], false],
  ["gap 0.0599 that floats as 0.0599…: merge", [0.8199, 0.76], null, "merge", "A", ["A", "B"], false],
  ["equal high scores: merge, cfb_id order", [0.9, 0.9], null, "merge", "A", ["A", "B"], false],
  ["s2 = 0.75 is not high: update", [0.78, 0.75], null, "update", "A", [], false],
  ["s2 < 0.75: update", [0.76, 0.74], null, "update", "A", [], false],
  ["the third candidate does not matter", [0.9, 0.8, 0.88], null, "merge", "A", ["A", "C"], false],
  // hysteresis after create: update only above 0.80
  ["prev create, 0.78: held at create", [0.78], "create", "create", null, [], true],
  ["prev create, 0.7501: held at create", [0.7501], "create", "create", null, [], true],
  ["prev create, 0.80: held at create", [0.8], "create", "create", null, [], true],
  ["prev create, 0.8001: flips to update", [0.8001], "create", "update", "A", [], false],
  ["prev create, 0.70: review, no buffer", [0.7], "create", "review", "A", [], false],
  ["prev create, merge pair: merge regardless", [0.79, 0.78], "create", "merge", "A", ["A", "B"], false],
  // hysteresis after update: create only below 0.50
  ["prev update, 0.52: held at update", [0.52], "update", "update", "A", [], true],
  ["prev update, 0.50: held at update", [0.5], "update", "update", "A", [], true],
  ["prev update, 0.5499: held at update", [0.5499], "update", "update", "A", [], true],
  ["prev update, 0.4999: flips to create", [0.4999], "update", "create", null, [], false],
  ["prev update, 0.60: review, no buffer", [0.6], "update", "review", "A", [], false],
  ["prev update, no candidates: create", [], "update", "create", null, [], false],
  // no buffer after review or merge
  ["prev review, 0.78: update", [0.78], "review", "update", "A", [], false],
  ["prev review, 0.52: create", [0.52], "review", "create", null, [], false],
  ["prev merge, 0.78: update", [0.78], "merge", "update", "A", [], false],
  ["prev merge, 0.52: create", [0.52], "merge", "create", null, [], false],
  // float error: compared on the 4-decimal rounded score
  ["0.75000000001 rounds to 0.75: review", [0.75000000001], null, "review", "A", [], false],
  ["0.54999999 rounds to 0.55: review", [0.54999999], null, "review", "A", [], false],
  ["0.75004 rounds to 0.75: review", [0.75004], null, "review", "A", [], false],
];

describe("decide", () => {
  it("uses the seed's bands, plus the contradiction floor", () => {
    expect(BANDS).toEqual({ low: 0.55, high: 0.75, mergeGap: 0.06, hysteresis: 0.05, contradiction: 0.45 });
    expect(OUTCOME_SCORES).toBe(10);
  });

  it.each(TABLE)("%s", (_, scores, previous, decision, target, merge, hysteresis) => {
    const outcome = decide(ranked(scores), previous ? { decision: previous } : null, SAME_FACTS);
    expect(ZResolveOutcome.parse(outcome)).toEqual(outcome);
    expect(outcome.decision).toBe(decision);
    expect(outcome.target_cfb_id).toBe(target);
    expect(outcome.merge_cfb_ids).toEqual(merge);
    expect(outcome.hysteresis_applied).toBe(hysteresis);
    expect(outcome.reason_codes.includes("HYSTERESIS_HOLD")).toBe(hysteresis);
    expect(outcome.reason_codes.includes("NEAR_DUPLICATE_PAIR")).toBe(decision === "merge");
    expect(outcome.reason_codes.includes("DISTINCT_PAIR")).toBe(false);
  });

  it("reads no previous decision the same as null", () => {
    expect(decide(ranked([0.78]))).toEqual(decide(ranked([0.78]), null));
  });

  it("ranks the scores itself (order of input irrelevant) and keeps the best OUTCOME_SCORES", () => {
    const many = Array.from({ length: 14 }, (_, i) => scored(`CFB-${String(i).padStart(2, "0")}`, (i % 7) / 10));
    const outcome = decide(many.toReversed());
    expect(outcome.scores).toHaveLength(OUTCOME_SCORES);
    expect(outcome.scores.map((s) => s.cfb_id).slice(0, 4)).toEqual(["CFB-06", "CFB-13", "CFB-05", "CFB-12"]);
    expect(outcome).toEqual(decide(many));
  });

  it("ranks cfb ids in numeric order on equal scores", () => {
    // "CFB-10" sorts before "CFB-9" as a string; the ids are numbered, so 9 comes first.
    const outcome = decide([scored("CFB-10", 0.6), scored("CFB-9", 0.6)]);
    expect(outcome.target_cfb_id).toBe("CFB-9");
  });

  it("keeps each score's components and flags, as copies", () => {
    const input = [scored("A", 0.9, { text_similarity: null, new_share: 0.25 }, ["NEW_FACTS", "SEMANTIC_MATCH"])];
    const outcome = decide(input);
    expect(outcome.scores).toEqual(input);
    expect(outcome.scores[0]?.flags).not.toBe(input[0]?.flags);
    expect(outcome.scores[0]?.components).not.toBe(input[0]?.components);
  });

  it("does not modify its input", () => {
    const input = Object.freeze([scored("B", 0.6), scored("A", 0.9)]);
    decide(input);
    expect(input.map((s) => s.cfb_id)).toEqual(["B", "A"]);
  });
});

type FlagRow = [
  label: string,
  scores: TScoredCandidate[],
  previous: TResolveDecisionKind | null,
  opts: TDecideOptions,
  decision: TResolveDecisionKind,
  target: string | null,
  merge: string[],
  hysteresis: boolean,
  codes: string[],
];

/** A candidate with flags (text 0.5 for all, so the top always also has TEXT_TOP). */
const f = (id: string, score: number, ...flags: TCandidateFlag[]) => scored(id, score, {}, flags);

// On top of the bands: a close high pair is a merge only when it states the same facts; when it
// states different facts, the proposal updates the one whose numbers and names it repeats, and a
// person picks when those do not tell the two apart. NEW_FACTS holds an update (not a merge) back
// to review; CONTRADICTS and LANGUAGE_DIFFERS send everything from 0.45 up to review. Only the
// flags of the top candidate (and of the one a distinct pair chose) count. The codes are the
// whole reason_codes list.
const FLAG_TABLE: FlagRow[] = [
  // merge needs sameFacts
  [
    "no sameFacts: a close high pair is no merge; nothing tells the two apart, so review",
    [f("A", 0.81), f("B", 0.78)],
    null,
    {},
    "review",
    "A",
    [],
    false,
    ["SCORE_HIGH", "DISTINCT_PAIR", "TEXT_TOP"],
  ],
  [
    "sameFacts false, no specifics: the same",
    [f("A", 0.81), f("B", 0.78)],
    null,
    DISTINCT_FACTS,
    "review",
    "A",
    [],
    false,
    ["SCORE_HIGH", "DISTINCT_PAIR", "TEXT_TOP"],
  ],
  [
    "distinct pair, the proposal names A's facts: update A",
    [f("A", 0.81), f("B", 0.78)],
    null,
    naming(0.8, 0.4),
    "update",
    "A",
    [],
    false,
    ["SCORE_HIGH", "DISTINCT_PAIR", "TEXT_TOP"],
  ],
  [
    "distinct pair, the proposal names B's facts: update B, though A scores higher",
    [f("A", 0.81), f("B", 0.78)],
    null,
    naming(0.4, 0.8),
    "update",
    "B",
    [],
    false,
    ["SCORE_HIGH", "DISTINCT_PAIR", "TEXT_TOP"],
  ],
  [
    "distinct pair, both named alike: review",
    [f("A", 0.81), f("B", 0.78)],
    null,
    naming(0.5, 0.5),
    "review",
    "A",
    [],
    false,
    ["SCORE_HIGH", "DISTINCT_PAIR", "TEXT_TOP"],
  ],
  [
    "distinct pair, B chosen but B adds facts: review B",
    [f("A", 0.81), f("B", 0.78, "NEW_FACTS")],
    null,
    naming(0.4, 0.8),
    "review",
    "B",
    [],
    false,
    ["SCORE_HIGH", "DISTINCT_PAIR", "NEW_FACTS", "TEXT_TOP"],
  ],
  [
    "distinct pair, A chosen and A adds facts: review A",
    [f("A", 0.81, "NEW_FACTS"), f("B", 0.78)],
    null,
    naming(0.8, 0.4),
    "review",
    "A",
    [],
    false,
    ["SCORE_HIGH", "DISTINCT_PAIR", "NEW_FACTS", "TEXT_TOP"],
  ],
  [
    "distinct pair, specifics asked only of a close pair: gap 0.06 is an update of the top",
    [f("A", 0.8101), f("B", 0.7501)],
    null,
    naming(0, 1),
    "update",
    "A",
    [],
    false,
    ["SCORE_HIGH", "TEXT_TOP"],
  ],
  [
    "sameFacts true: merge",
    [f("A", 0.81), f("B", 0.78)],
    null,
    SAME_FACTS,
    "merge",
    "A",
    ["A", "B"],
    false,
    ["SCORE_HIGH", "NEAR_DUPLICATE_PAIR", "TEXT_TOP"],
  ],
  [
    "gap 0.06 is not close: no DISTINCT_PAIR",
    [f("A", 0.8101), f("B", 0.7501)],
    null,
    {},
    "update",
    "A",
    [],
    false,
    ["SCORE_HIGH", "TEXT_TOP"],
  ],
  [
    "s2 = 0.75 is not high: no DISTINCT_PAIR",
    [f("A", 0.78), f("B", 0.75)],
    null,
    {},
    "update",
    "A",
    [],
    false,
    ["SCORE_HIGH", "TEXT_TOP"],
  ],
  // NEW_FACTS
  [
    "NEW_FACTS holds an update back to review",
    [f("A", 0.9, "NEW_FACTS")],
    null,
    {},
    "review",
    "A",
    [],
    false,
    ["SCORE_HIGH", "NEW_FACTS", "TEXT_TOP"],
  ],
  [
    "NEW_FACTS does not hold a merge back (the facts go into the merged CFB)",
    [f("A", 0.9, "NEW_FACTS"), f("B", 0.88)],
    null,
    SAME_FACTS,
    "merge",
    "A",
    ["A", "B"],
    false,
    ["SCORE_HIGH", "NEAR_DUPLICATE_PAIR", "TEXT_TOP"],
  ],
  [
    "NEW_FACTS on top of a distinct pair: review, both codes",
    [f("A", 0.9, "NEW_FACTS"), f("B", 0.88)],
    null,
    DISTINCT_FACTS,
    "review",
    "A",
    [],
    false,
    ["SCORE_HIGH", "DISTINCT_PAIR", "NEW_FACTS", "TEXT_TOP"],
  ],
  [
    "NEW_FACTS in the review band: review, nothing held",
    [f("A", 0.7, "NEW_FACTS")],
    null,
    {},
    "review",
    "A",
    [],
    false,
    ["SCORE_MID", "TEXT_TOP"],
  ],
  [
    "NEW_FACTS below the review band: create",
    [f("A", 0.5, "NEW_FACTS")],
    null,
    {},
    "create",
    null,
    [],
    false,
    ["SCORE_LOW", "TEXT_TOP"],
  ],
  [
    "NEW_FACTS on the second candidate only: update",
    [f("A", 0.9), f("B", 0.6, "NEW_FACTS")],
    null,
    {},
    "update",
    "A",
    [],
    false,
    ["SCORE_HIGH", "TEXT_TOP"],
  ],
  // CONTRADICTS
  [
    "CONTRADICTS at 0.45: review below the review band",
    [f("A", 0.45, "CONTRADICTS")],
    null,
    {},
    "review",
    "A",
    [],
    false,
    ["SCORE_LOW", "CONTRADICTS", "TEXT_TOP"],
  ],
  [
    "CONTRADICTS at 0.4499: create",
    [f("A", 0.4499, "CONTRADICTS")],
    null,
    {},
    "create",
    null,
    [],
    false,
    ["SCORE_LOW", "TEXT_TOP"],
  ],
  [
    "CONTRADICTS at 0.44995 rounds to 0.45: review",
    [f("A", 0.44995, "CONTRADICTS")],
    null,
    {},
    "review",
    "A",
    [],
    false,
    ["SCORE_LOW", "CONTRADICTS", "TEXT_TOP"],
  ],
  [
    "CONTRADICTS in the review band: review with the code",
    [f("A", 0.6, "CONTRADICTS")],
    null,
    {},
    "review",
    "A",
    [],
    false,
    ["SCORE_MID", "CONTRADICTS", "TEXT_TOP"],
  ],
  [
    "CONTRADICTS holds an update back",
    [f("A", 0.9, "CONTRADICTS")],
    null,
    {},
    "review",
    "A",
    [],
    false,
    ["SCORE_HIGH", "CONTRADICTS", "TEXT_TOP"],
  ],
  [
    "CONTRADICTS holds a merge back",
    [f("A", 0.9, "CONTRADICTS"), f("B", 0.88)],
    null,
    SAME_FACTS,
    "review",
    "A",
    [],
    false,
    ["SCORE_HIGH", "CONTRADICTS", "TEXT_TOP"],
  ],
  [
    "CONTRADICTS and NEW_FACTS: review, both codes",
    [f("A", 0.9, "NEW_FACTS", "CONTRADICTS")],
    null,
    {},
    "review",
    "A",
    [],
    false,
    ["SCORE_HIGH", "NEW_FACTS", "CONTRADICTS", "TEXT_TOP"],
  ],
  [
    "CONTRADICTS after an update at 0.52: review, not held at update",
    [f("A", 0.52, "CONTRADICTS")],
    "update",
    {},
    "review",
    "A",
    [],
    false,
    ["SCORE_LOW", "CONTRADICTS", "TEXT_TOP"],
  ],
  [
    "CONTRADICTS after a create at 0.78: review, not held at create",
    [f("A", 0.78, "CONTRADICTS")],
    "create",
    {},
    "review",
    "A",
    [],
    false,
    ["SCORE_HIGH", "CONTRADICTS", "TEXT_TOP"],
  ],
  [
    "CONTRADICTS on the second candidate only: update",
    [f("A", 0.9), f("B", 0.5, "CONTRADICTS")],
    null,
    {},
    "update",
    "A",
    [],
    false,
    ["SCORE_HIGH", "TEXT_TOP"],
  ],
  // LANGUAGE_DIFFERS
  [
    "LANGUAGE_DIFFERS holds an update back",
    [f("A", 0.9, "LANGUAGE_DIFFERS")],
    null,
    {},
    "review",
    "A",
    [],
    false,
    ["SCORE_HIGH", "LANGUAGE_DIFFERS", "TEXT_TOP"],
  ],
  [
    "LANGUAGE_DIFFERS holds a merge back",
    [f("A", 0.9, "LANGUAGE_DIFFERS"), f("B", 0.88)],
    null,
    SAME_FACTS,
    "review",
    "A",
    [],
    false,
    ["SCORE_HIGH", "LANGUAGE_DIFFERS", "TEXT_TOP"],
  ],
  [
    "LANGUAGE_DIFFERS and NEW_FACTS on a same-facts pair: review, both named",
    [f("A", 0.9, "NEW_FACTS", "LANGUAGE_DIFFERS"), f("B", 0.88)],
    null,
    SAME_FACTS,
    "review",
    "A",
    [],
    false,
    ["SCORE_HIGH", "NEW_FACTS", "LANGUAGE_DIFFERS", "TEXT_TOP"],
  ],
  [
    "LANGUAGE_DIFFERS at 0.45: review below the review band (little but labels to compare)",
    [f("A", 0.45, "LANGUAGE_DIFFERS")],
    null,
    {},
    "review",
    "A",
    [],
    false,
    ["SCORE_LOW", "LANGUAGE_DIFFERS", "TEXT_TOP"],
  ],
  [
    "LANGUAGE_DIFFERS at 0.4499: create",
    [f("A", 0.4499, "LANGUAGE_DIFFERS")],
    null,
    {},
    "create",
    null,
    [],
    false,
    ["SCORE_LOW", "TEXT_TOP"],
  ],
  [
    "LANGUAGE_DIFFERS on a distinct pair: review the top, before any pair rule",
    [f("A", 0.81, "LANGUAGE_DIFFERS"), f("B", 0.78)],
    null,
    naming(0, 1),
    "review",
    "A",
    [],
    false,
    ["SCORE_HIGH", "LANGUAGE_DIFFERS", "TEXT_TOP"],
  ],
  // SEMANTIC_MATCH holds nothing
  [
    "SEMANTIC_MATCH alone: update",
    [f("A", 0.9, "SEMANTIC_MATCH")],
    null,
    {},
    "update",
    "A",
    [],
    false,
    ["SCORE_HIGH", "SEMANTIC_MATCH", "TEXT_TOP"],
  ],
  [
    "SEMANTIC_MATCH on a same-facts pair: merge",
    [f("A", 0.9, "SEMANTIC_MATCH"), f("B", 0.88)],
    null,
    SAME_FACTS,
    "merge",
    "A",
    ["A", "B"],
    false,
    ["SCORE_HIGH", "NEAR_DUPLICATE_PAIR", "SEMANTIC_MATCH", "TEXT_TOP"],
  ],
  // with the hysteresis buffer
  [
    "prev update, 0.52, NEW_FACTS: review, not held at update",
    [f("A", 0.52, "NEW_FACTS")],
    "update",
    {},
    "review",
    "A",
    [],
    false,
    ["SCORE_LOW", "NEW_FACTS", "TEXT_TOP"],
  ],
  [
    "prev update, 0.50, LANGUAGE_DIFFERS: review",
    [f("A", 0.5, "LANGUAGE_DIFFERS")],
    "update",
    {},
    "review",
    "A",
    [],
    false,
    ["SCORE_LOW", "LANGUAGE_DIFFERS", "TEXT_TOP"],
  ],
  [
    "prev update, 0.4999, NEW_FACTS: create, the buffer ends at 0.50",
    [f("A", 0.4999, "NEW_FACTS")],
    "update",
    {},
    "create",
    null,
    [],
    false,
    ["SCORE_LOW", "TEXT_TOP"],
  ],
  [
    "prev update, 0.52, SEMANTIC_MATCH: held at update",
    [f("A", 0.52, "SEMANTIC_MATCH")],
    "update",
    {},
    "update",
    "A",
    [],
    true,
    ["SCORE_LOW", "HYSTERESIS_HOLD", "SEMANTIC_MATCH", "TEXT_TOP"],
  ],
  [
    "prev create, 0.78, NEW_FACTS: held at create",
    [f("A", 0.78, "NEW_FACTS")],
    "create",
    {},
    "create",
    null,
    [],
    true,
    ["SCORE_HIGH", "HYSTERESIS_HOLD", "TEXT_TOP"],
  ],
  [
    "prev create, 0.8001, NEW_FACTS: review",
    [f("A", 0.8001, "NEW_FACTS")],
    "create",
    {},
    "review",
    "A",
    [],
    false,
    ["SCORE_HIGH", "NEW_FACTS", "TEXT_TOP"],
  ],
  [
    "prev create, distinct close pair at 0.79 / 0.78, nothing tells them apart: review",
    [f("A", 0.79), f("B", 0.78)],
    "create",
    DISTINCT_FACTS,
    "review",
    "A",
    [],
    false,
    ["SCORE_HIGH", "DISTINCT_PAIR", "TEXT_TOP"],
  ],
  [
    "prev create, distinct close pair at 0.85 / 0.82, A named: update",
    [f("A", 0.85), f("B", 0.82)],
    "create",
    naming(1, 0),
    "update",
    "A",
    [],
    false,
    ["SCORE_HIGH", "DISTINCT_PAIR", "TEXT_TOP"],
  ],
];

describe("decide: what holds an update or a merge back", () => {
  it.each(FLAG_TABLE)("%s", (_, scores, previous, opts, decision, target, merge, hysteresis, codes) => {
    const outcome = decide(scores, previous ? { decision: previous } : null, opts);
    expect(ZResolveOutcome.parse(outcome)).toEqual(outcome);
    expect(outcome.decision).toBe(decision);
    expect(outcome.target_cfb_id).toBe(target);
    expect(outcome.merge_cfb_ids).toEqual(merge);
    expect(outcome.hysteresis_applied).toBe(hysteresis);
    expect(outcome.reason_codes).toEqual(codes);
  });

  it("asks sameFacts about the top two only, and only for a close high pair", () => {
    const asked: [string, string][] = [];
    const opts = {
      sameFacts: (a: string, b: string) => {
        asked.push([a, b]);
        return true;
      },
    };
    decide([scored("A", 0.9)], null, opts);
    decide([scored("A", 0.9), scored("B", 0.8)], null, opts); // gap 0.10
    decide([scored("A", 0.7), scored("B", 0.69)], null, opts); // both in the review band
    expect(asked).toEqual([]);
    // C outranks B; the order of the input does not matter.
    decide([scored("B", 0.8), scored("C", 0.88), scored("A", 0.9)], null, opts);
    expect(asked).toEqual([["A", "C"]]);
  });

  it("asks specifics about the top two only, and only for a close high pair of different facts", () => {
    const asked: string[] = [];
    const specifics = (id: string) => {
      asked.push(id);
      return id === "C" ? 1 : 0;
    };
    decide([scored("A", 0.9), scored("B", 0.8)], null, { sameFacts: () => false, specifics }); // gap 0.10
    decide([scored("A", 0.9), scored("B", 0.88)], null, { sameFacts: () => true, specifics }); // a merge
    expect(asked).toEqual([]);
    const outcome = decide([scored("B", 0.8), scored("C", 0.88), scored("A", 0.9)], null, {
      sameFacts: () => false,
      specifics,
    });
    expect(asked.toSorted()).toEqual(["A", "C"]);
    expect(outcome).toMatchObject({ decision: "update", target_cfb_id: "C" });
  });

  it("uses the top's flags even when another candidate carries the same flag", () => {
    // A contradicting second candidate never turns an update of the top into a review.
    const outcome = decide([scored("A", 0.9), scored("B", 0.7, {}, ["CONTRADICTS", "LANGUAGE_DIFFERS"])], null, {});
    expect(outcome.decision).toBe("update");
    expect(outcome.reason_codes).not.toContain("CONTRADICTS");
  });
});

describe("reason codes", () => {
  const codes = (scores: TScoredCandidate[], previous: TResolveDecisionKind | null = null, opts: TDecideOptions = {}) =>
    decide(scores, previous ? { decision: previous } : null, opts).reason_codes;

  it("are documented in this order", () => {
    expect(RESOLVE_REASON_CODES).toEqual([
      "SCORE_HIGH",
      "SCORE_MID",
      "SCORE_LOW",
      "NO_CANDIDATES",
      "NEAR_DUPLICATE_PAIR",
      "DISTINCT_PAIR",
      "HYSTERESIS_HOLD",
      "NEW_FACTS",
      "CONTRADICTS",
      "LANGUAGE_DIFFERS",
      "SUBJECT_DIFFERS",
      "SUBJECT_CLOSE",
      "VALUE_CHANGED",
      "NO_SUBJECT",
      "SEMANTIC_MATCH",
      "TEXT_TOP",
      "HIGH_TAG_ENTITY_MATCH",
      "TAG_ONLY_MATCH",
      "TITLE_MATCH",
      "LOW_TEXT_MATCH",
    ]);
  });

  it("start with the band of the top score", () => {
    expect(codes([scored("A", 0.7501)])[0]).toBe("SCORE_HIGH");
    expect(codes([scored("A", 0.75)])[0]).toBe("SCORE_MID");
    expect(codes([scored("A", 0.55)])[0]).toBe("SCORE_MID");
    expect(codes([scored("A", 0.5499)])[0]).toBe("SCORE_LOW");
    expect(codes([scored("A", 0.78)], "create")[0]).toBe("SCORE_HIGH"); // the band, not the held decision
    expect(codes([scored("A", 0.45, {}, ["CONTRADICTS"])])[0]).toBe("SCORE_LOW"); // the band, not the review
  });

  it("SUBJECT_DIFFERS: a CFB about another subject is never updated, whatever its score", () => {
    const other = scored("A", 0.95, {}, ["SUBJECT_DIFFERS"]);
    expect(decide([other], null)).toMatchObject({ decision: "create", target_cfb_id: null });
    expect(decide([other], null).reason_codes).toContain("SUBJECT_DIFFERS");
    // The decision is taken among the others: the same subject's CFB, lower, is the one updated.
    expect(decide([other, scored("B", 0.8)], null)).toMatchObject({ decision: "update", target_cfb_id: "B" });
  });

  it("SUBJECT_CLOSE and VALUE_CHANGED hold an update back to review, even under the review band", () => {
    for (const flag of ["SUBJECT_CLOSE", "VALUE_CHANGED"] as const) {
      expect(decide([scored("A", 0.9, {}, [flag])], null)).toMatchObject({ decision: "review", target_cfb_id: "A" });
      expect(decide([scored("A", 0.5, {}, [flag])], null)).toMatchObject({ decision: "review", target_cfb_id: "A" });
      expect(decide([scored("A", 0.5, {}, [flag])], null).reason_codes).toContain(flag);
    }
  });

  it("NO_CANDIDATES for an empty list", () => {
    expect(codes([])).toEqual(["SCORE_LOW", "NO_CANDIDATES"]);
  });

  it("TEXT_TOP when the top also has the highest text similarity (> 0)", () => {
    const s = (id: string, score: number, text: number | null) => scored(id, score, { text_similarity: text });
    expect(codes([s("A", 0.6, 0.9), s("B", 0.5, 0.8)])).toContain("TEXT_TOP");
    expect(codes([s("A", 0.6, 0.8), s("B", 0.5, 0.8)])).toContain("TEXT_TOP"); // a tie is still the top
    expect(codes([s("A", 0.6, 0.5), s("B", 0.5, 0.9)])).not.toContain("TEXT_TOP");
    expect(codes([s("A", 0.3, 0)])).not.toContain("TEXT_TOP");
    // null text counts as 0: never TEXT_TOP itself, and no rival to a top with some text
    expect(codes([s("A", 0.6, null)])).not.toContain("TEXT_TOP");
    expect(codes([s("A", 0.6, 0.1), s("B", 0.5, null)])).toContain("TEXT_TOP");
    // every candidate counts, also those past the first OUTCOME_SCORES
    const many = [s("A", 0.9, 0.5), ...Array.from({ length: 12 }, (_, i) => s(`Z${i}`, 0.1, i === 11 ? 0.6 : 0.1))];
    expect(codes(many)).not.toContain("TEXT_TOP");
  });

  it("HIGH_TAG_ENTITY_MATCH, TAG_ONLY_MATCH, TITLE_MATCH, LOW_TEXT_MATCH from the top's components", () => {
    expect(codes([scored("A", 0.8, { text_similarity: 0.6, tag_overlap: 0.5, entity_overlap: 0.5 })])).toEqual([
      "SCORE_HIGH",
      "TEXT_TOP",
      "HIGH_TAG_ENTITY_MATCH",
    ]);
    expect(codes([scored("A", 0.8, { text_similarity: 0.6, tag_overlap: 0.5, entity_overlap: 0.4999 })])).toEqual([
      "SCORE_HIGH",
      "TEXT_TOP",
    ]);
    expect(codes([scored("A", 0.4, { text_similarity: 0.2999, tag_overlap: 1 })])).toEqual([
      "SCORE_LOW",
      "TEXT_TOP",
      "TAG_ONLY_MATCH",
      "LOW_TEXT_MATCH",
    ]);
    expect(codes([scored("A", 0.4, { text_similarity: 0.3, tag_overlap: 1, title_similarity: 0.8 })])).toEqual([
      "SCORE_LOW",
      "TEXT_TOP",
      "TITLE_MATCH",
    ]);
    expect(codes([scored("A", 0.4, { text_similarity: 0.5, title_similarity: 0.7999 })])).toEqual([
      "SCORE_LOW",
      "TEXT_TOP",
    ]);
  });

  it("count a null component as 0", () => {
    // No text to compare (another language, too few specifics): a low text match, tags alone.
    expect(codes([scored("A", 0.9, { text_similarity: null, tag_overlap: 1, entity_overlap: null })])).toEqual([
      "SCORE_HIGH",
      "TAG_ONLY_MATCH",
      "LOW_TEXT_MATCH",
    ]);
    // A label missing on either side is no label match.
    expect(codes([scored("A", 0.9, { text_similarity: 0.9, tag_overlap: null, entity_overlap: 1 })])).toEqual([
      "SCORE_HIGH",
      "TEXT_TOP",
    ]);
  });

  it("SEMANTIC_MATCH from the top's flag only", () => {
    expect(codes([scored("A", 0.9, {}, ["SEMANTIC_MATCH"])])).toContain("SEMANTIC_MATCH");
    expect(codes([scored("A", 0.9), scored("B", 0.5, {}, ["SEMANTIC_MATCH"])])).not.toContain("SEMANTIC_MATCH");
  });

  it("NEAR_DUPLICATE_PAIR on merge, HYSTERESIS_HOLD when the buffer held", () => {
    expect(
      codes(
        [scored("A", 0.8, { text_similarity: 0.9 }), scored("B", 0.79, { text_similarity: 0.9 })],
        null,
        SAME_FACTS,
      ),
    ).toEqual(["SCORE_HIGH", "NEAR_DUPLICATE_PAIR", "TEXT_TOP"]);
    expect(codes([scored("A", 0.52, { text_similarity: 0.1 })], "update")).toEqual([
      "SCORE_LOW",
      "HYSTERESIS_HOLD",
      "TEXT_TOP",
      "LOW_TEXT_MATCH",
    ]);
  });

  it("always come in the documented order, each once", () => {
    const top = scored("A", 0.79, { text_similarity: 0.1, tag_overlap: 1, entity_overlap: 1, title_similarity: 1 }, [
      "SEMANTIC_MATCH",
      "NEW_FACTS",
    ]);
    const held = codes([top], "create");
    expect(held).toEqual([
      "SCORE_HIGH",
      "HYSTERESIS_HOLD",
      "SEMANTIC_MATCH",
      "TEXT_TOP",
      "HIGH_TAG_ENTITY_MATCH",
      "TAG_ONLY_MATCH",
      "TITLE_MATCH",
      "LOW_TEXT_MATCH",
    ]);
    // The top's NEW_FACTS named twice over (it holds the top back, and the chosen one is the top).
    const pair = codes([top, scored("B", 0.78, { text_similarity: 0.05 })], null, naming(1, 0));
    expect(pair).toEqual([
      "SCORE_HIGH",
      "DISTINCT_PAIR",
      "NEW_FACTS",
      "SEMANTIC_MATCH",
      "TEXT_TOP",
      "HIGH_TAG_ENTITY_MATCH",
      "TAG_ONLY_MATCH",
      "TITLE_MATCH",
      "LOW_TEXT_MATCH",
    ]);
    for (const all of [held, pair]) {
      expect(all).toEqual(RESOLVE_REASON_CODES.filter((c) => all.includes(c)));
      expect(new Set(all).size).toBe(all.length);
    }
  });
});
