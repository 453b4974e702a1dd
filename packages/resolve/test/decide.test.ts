// The decision rules of seed 001 §6.3 at every edge, the hysteresis buffer both ways, and the
// reason codes. The same table is in docs/resolve.md.
import { type TResolveDecisionKind, type TScoredCandidate, ZResolveOutcome } from "@solserver/contracts";
import { describe, expect, it } from "vitest";
import { BANDS, decide, RESOLVE_REASON_CODES } from "../src/index";
import { scored } from "./fixtures";

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
  it("uses the seed's bands", () => {
    expect(BANDS).toEqual({ low: 0.55, high: 0.75, mergeGap: 0.06, hysteresis: 0.05 });
  });

  it.each(TABLE)("%s", (_, scores, previous, decision, target, merge, hysteresis) => {
    const outcome = decide(ranked(scores), previous ? { decision: previous } : null);
    expect(ZResolveOutcome.parse(outcome)).toEqual(outcome);
    expect(outcome.decision).toBe(decision);
    expect(outcome.target_cfb_id).toBe(target);
    expect(outcome.merge_cfb_ids).toEqual(merge);
    expect(outcome.hysteresis_applied).toBe(hysteresis);
    expect(outcome.reason_codes.includes("HYSTERESIS_HOLD")).toBe(hysteresis);
    expect(outcome.reason_codes.includes("NEAR_DUPLICATE_PAIR")).toBe(decision === "merge");
  });

  it("reads no previous decision the same as null", () => {
    expect(decide(ranked([0.78]))).toEqual(decide(ranked([0.78]), null));
  });

  it("ranks the scores itself (order of input irrelevant) and keeps the best 10", () => {
    const many = Array.from({ length: 14 }, (_, i) => scored(`CFB-${String(i).padStart(2, "0")}`, (i % 7) / 10));
    const outcome = decide(many.toReversed());
    expect(outcome.scores).toHaveLength(10);
    expect(outcome.scores.map((s) => s.cfb_id).slice(0, 4)).toEqual(["CFB-06", "CFB-13", "CFB-05", "CFB-12"]);
    expect(outcome).toEqual(decide(many));
  });

  it("does not modify its input", () => {
    const input = Object.freeze([scored("B", 0.6), scored("A", 0.9)]);
    decide(input);
    expect(input.map((s) => s.cfb_id)).toEqual(["B", "A"]);
  });
});

describe("reason codes", () => {
  const codes = (scores: TScoredCandidate[], previous: TResolveDecisionKind | null = null) =>
    decide(scores, previous ? { decision: previous } : null).reason_codes;

  it("starts with the band of the top score", () => {
    expect(codes([scored("A", 0.7501)])[0]).toBe("SCORE_HIGH");
    expect(codes([scored("A", 0.75)])[0]).toBe("SCORE_MID");
    expect(codes([scored("A", 0.55)])[0]).toBe("SCORE_MID");
    expect(codes([scored("A", 0.5499)])[0]).toBe("SCORE_LOW");
    expect(codes([scored("A", 0.78)], "create")[0]).toBe("SCORE_HIGH"); // the band, not the held decision
  });

  it("NO_CANDIDATES for an empty list", () => {
    expect(codes([])).toEqual(["SCORE_LOW", "NO_CANDIDATES"]);
  });

  it("BM25_TOP when the top also has the highest bm25_norm (> 0)", () => {
    expect(codes([scored("A", 0.6, { bm25_norm: 0.9 }), scored("B", 0.5, { bm25_norm: 0.8 })])).toContain("BM25_TOP");
    expect(codes([scored("A", 0.6, { bm25_norm: 0.8 }), scored("B", 0.5, { bm25_norm: 0.8 })])).toContain("BM25_TOP");
    expect(codes([scored("A", 0.6, { bm25_norm: 0.5 }), scored("B", 0.5, { bm25_norm: 0.9 })])).not.toContain(
      "BM25_TOP",
    );
    expect(codes([scored("A", 0.3, { bm25_norm: 0 })])).not.toContain("BM25_TOP");
  });

  it("HIGH_TAG_ENTITY_MATCH, TAG_ONLY_MATCH, TITLE_MATCH, LOW_TEXT_MATCH from the top's components", () => {
    expect(codes([scored("A", 0.8, { bm25_norm: 0.6, tag_overlap: 0.5, entity_overlap: 0.5 })])).toEqual([
      "SCORE_HIGH",
      "BM25_TOP",
      "HIGH_TAG_ENTITY_MATCH",
    ]);
    expect(codes([scored("A", 0.8, { bm25_norm: 0.6, tag_overlap: 0.5, entity_overlap: 0.4999 })])).toEqual([
      "SCORE_HIGH",
      "BM25_TOP",
    ]);
    expect(codes([scored("A", 0.4, { bm25_norm: 0.2999, tag_overlap: 1 })])).toEqual([
      "SCORE_LOW",
      "BM25_TOP",
      "TAG_ONLY_MATCH",
      "LOW_TEXT_MATCH",
    ]);
    expect(codes([scored("A", 0.4, { bm25_norm: 0.3, tag_overlap: 1, title_similarity: 0.8 })])).toEqual([
      "SCORE_LOW",
      "BM25_TOP",
      "TITLE_MATCH",
    ]);
    expect(codes([scored("A", 0.4, { bm25_norm: 0.5, title_similarity: 0.7999 })])).toEqual(["SCORE_LOW", "BM25_TOP"]);
  });

  it("NEAR_DUPLICATE_PAIR on merge, HYSTERESIS_HOLD when the buffer held", () => {
    expect(codes([scored("A", 0.8, { bm25_norm: 0.9 }), scored("B", 0.79, { bm25_norm: 0.9 })])).toEqual([
      "SCORE_HIGH",
      "NEAR_DUPLICATE_PAIR",
      "BM25_TOP",
    ]);
    expect(codes([scored("A", 0.52, { bm25_norm: 0.1 })], "update")).toEqual([
      "SCORE_LOW",
      "HYSTERESIS_HOLD",
      "BM25_TOP",
      "LOW_TEXT_MATCH",
    ]);
  });

  it("always come in the documented order, each once", () => {
    const all = codes(
      [
        scored("A", 0.79, { bm25_norm: 0.1, tag_overlap: 1, entity_overlap: 1, title_similarity: 1 }),
        scored("B", 0.78),
      ],
      "create",
    );
    expect(all).toEqual(RESOLVE_REASON_CODES.filter((c) => all.includes(c)));
    expect(new Set(all).size).toBe(all.length);
  });
});
