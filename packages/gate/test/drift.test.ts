import { describe, expect, it } from "vitest";
import { evaluate, evaluateDriftPolicy, parseGateConfig, similarity } from "../src/index";
import { rec } from "./fixtures";

const cfg = parseGateConfig({}).drift;
const text = (n: number) => "x".repeat(n);
const drift = (b: number, c: number, config = cfg) => evaluateDriftPolicy(rec(text(b)), rec(text(c)), config);

describe("length delta (35% WARN, 70% BLOCK)", () => {
  it("exactly 35% WARNs, just under does not", () => {
    expect(drift(100, 135).status).toBe("WARN");
    expect(drift(100, 135).codes).toEqual(["DRIFT_WARN_LENGTH_DELTA"]);
    expect(drift(100, 135).reasons).toEqual(["Output length expanded by 35.00% (>=35%)."]);
    expect(drift(100, 134).status).toBe("ALLOW");
    expect(drift(100, 65).status).toBe("WARN"); // compressed by 35%
    expect(drift(100, 66).status).toBe("ALLOW");
  });

  it("exactly 70% BLOCKs, just under WARNs", () => {
    expect(drift(100, 170).status).toBe("BLOCK");
    expect(drift(100, 170).codes).toEqual(["DRIFT_BLOCK_LENGTH_DELTA"]);
    expect(drift(100, 169).status).toBe("WARN");
    expect(drift(100, 30).status).toBe("BLOCK"); // compressed by 70%
  });

  it("boundaries hold where float division is inexact (20 -> 27 is 35%, 20 -> 34 is 70%)", () => {
    expect(drift(20, 27).status).toBe("WARN");
    expect(drift(20, 34).status).toBe("BLOCK");
  });

  it("explains the direction and shows a signed title", () => {
    const r = drift(140, 38);
    expect(r.reasons[0]).toBe("Output length compressed by 72.86% (>=70%).");
    expect(r.title).toBe("Output drift: Length delta -72.86%.");
    const e = drift(46, 70);
    expect(e.reasons).toEqual(["Output length expanded by 52.17% (>=35%)."]);
    expect(e.title).toBe("Output drift: Length delta +52.17%.");
    expect(e.details.metrics).toEqual({
      baseline_length: 46,
      candidate_length: 70,
      length_delta_pct: 52.17,
      short_ratio: 1.5217,
    });
  });

  it("ALLOW title", () => {
    expect(drift(100, 100).title).toBe("Output drift: No issues.");
  });

  it("lengths are Unicode code points: an emoji counts one character, not two UTF-16 units", () => {
    const r = evaluateDriftPolicy(rec("ab"), rec("a😀"), cfg);
    expect(r.details.metrics).toMatchObject({ baseline_length: 2, candidate_length: 2, length_delta_pct: 0 });
    // 20 emoji against 20 letters is no change (as code units it was +100%: a BLOCK).
    const emoji = evaluateDriftPolicy(rec("a".repeat(20)), rec("😀".repeat(20)), cfg);
    expect(emoji.details.metrics).toMatchObject({ baseline_length: 20, candidate_length: 20 });
    expect(emoji.codes.filter((c) => c.includes("LENGTH"))).toEqual([]);
    // A lone surrogate is one code point, as it is one unit.
    expect(evaluateDriftPolicy(rec("ab"), rec("a\ud83d"), cfg).details.metrics).toMatchObject({ candidate_length: 2 });
  });
});

describe("short ratio (< 0.35 WARNs)", () => {
  // Length-delta thresholds moved out of the way so the ratio is seen on its own.
  const onlyRatio = { ...cfg, warn_length_delta_pct: 1000, block_length_delta_pct: 1000 };

  it("exactly 0.35 does not WARN, below does", () => {
    expect(drift(100, 35, onlyRatio).status).toBe("ALLOW");
    expect(drift(20, 7, onlyRatio).status).toBe("ALLOW"); // 7/20 is 0.35 too
    const r = drift(100, 34, onlyRatio);
    expect(r.status).toBe("WARN");
    expect(r.codes).toEqual(["DRIFT_WARN_SHORT_OUTPUT"]);
    expect(r.details.metrics).toMatchObject({ short_ratio: 0.34 });
  });

  it("only adds a WARN: a BLOCK stays BLOCK", () => {
    const r = drift(100, 20);
    expect(r.status).toBe("BLOCK");
    expect(r.codes).toEqual(["DRIFT_BLOCK_LENGTH_DELTA", "DRIFT_WARN_SHORT_OUTPUT"]);
  });
});

describe("empty outputs", () => {
  it("an empty or whitespace-only candidate BLOCKs", () => {
    for (const out of ["", "   ", "\n\t "]) {
      const r = evaluateDriftPolicy(rec("hello"), rec(out), cfg);
      expect(r.status).toBe("BLOCK");
      expect(r.codes).toEqual(["DRIFT_BLOCK_EMPTY_OUTPUT"]);
      expect(r.reasons).toEqual(["Candidate output is empty."]);
    }
  });

  it("an empty baseline with a non-empty candidate is an unbounded expansion: BLOCK", () => {
    const r = evaluateDriftPolicy(rec(""), rec("hello"), cfg);
    expect(r.status).toBe("BLOCK");
    expect(r.codes).toEqual(["DRIFT_BLOCK_LENGTH_DELTA"]);
    expect(r.title).toBe("Output drift: Length delta +inf%.");
    expect(r.details.metrics).toEqual({ baseline_length: 0, candidate_length: 5 });
  });
});

describe("similarity (full mode)", () => {
  it("token Jaccard over lower-cased word tokens", () => {
    expect(similarity("The cat sat", "the CAT sat", "token_jaccard")).toBe(1);
    expect(similarity("a b c d", "a b x y", "token_jaccard")).toBeCloseTo(2 / 6, 12);
    expect(similarity("", "", "token_jaccard")).toBe(1);
    expect(similarity("abc", "", "token_jaccard")).toBe(0);
  });

  it("char n-gram Jaccard", () => {
    expect(similarity("abcd", "abcd", "char_ngram_jaccard", 3)).toBe(1);
    expect(similarity("abcd", "abce", "char_ngram_jaccard", 3)).toBeCloseTo(1 / 3, 12); // {abc,bcd} vs {abc,bce}
    expect(similarity("a  b", "a b", "char_ngram_jaccard", 2)).toBe(1); // whitespace runs collapse
    expect(similarity("ab", "ab", "char_ngram_jaccard", 5)).toBe(1); // shorter than n
  });

  // 20 distinct baseline tokens; a candidate sharing k of them and adding m new ones has
  // Jaccard k / (20 + m). 3 shared + 0 new -> 3/20 = 0.15 exactly.
  const words = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`).join(" ");
  const base = words("w", 20);

  it("exactly 0.15 does not WARN, below does (full mode only)", () => {
    const at = evaluateDriftPolicy(
      rec(base),
      rec(words("w", 3)),
      { ...cfg, warn_length_delta_pct: 1000, block_length_delta_pct: 1000, warn_short_ratio: 0 },
      "full",
    );
    expect(at.details.metrics).toMatchObject({ similarity: 0.15 });
    expect(at.status).toBe("ALLOW");
    const below = evaluateDriftPolicy(
      rec(base),
      rec(`${words("w", 3)} extra`),
      { ...cfg, warn_length_delta_pct: 1000, block_length_delta_pct: 1000, warn_short_ratio: 0 },
      "full",
    );
    expect(below.status).toBe("WARN");
    expect(below.codes).toEqual(["DRIFT_WARN_LOW_SIMILARITY"]);
    expect(below.reasons[0]).toMatch(/^Output similarity 0\.14 is below 0\.15 \(token_jaccard\)\.$/);
    expect(below.title).toBe("Output drift: Similarity 0.14.");
  });

  it("lite mode does not compute similarity", () => {
    const r = evaluateDriftPolicy(rec("alpha beta"), rec("gamma delta"), cfg, "lite");
    expect(r.status).toBe("ALLOW");
    expect(r.details.metrics).not.toHaveProperty("similarity");
  });

  it("evaluate(full) reports the similarity metric, with the configured kind", () => {
    const d = evaluate({
      baseline: rec("the quick brown fox"),
      candidate: rec("the quick brown cat"),
      mode: "full",
      config: { drift: { similarity: "char_ngram_jaccard", ngram: 2 } },
    });
    expect(d.metrics.similarity).toBeGreaterThan(0.5);
    expect(d.policies.find((p) => p.policy === "drift")?.details.similarity_kind).toBe("char_ngram_jaccard");
  });
});

describe("separate expansion and compression thresholds", () => {
  const split = parseGateConfig({
    drift: { warn_expansion_pct: 100, block_expansion_pct: 200, warn_compression_pct: 20, block_compression_pct: 40 },
  }).drift;

  // baseline length, candidate length, status under the split thresholds
  it.each([
    [100, 199, "ALLOW"], // +99% < 100% expansion WARN
    [100, 200, "WARN"], // +100%
    [100, 300, "BLOCK"], // +200%
    [100, 81, "ALLOW"], // -19% < 20% compression WARN
    [100, 80, "WARN"], // -20%
    [100, 60, "BLOCK"], // -40%
  ])("%i -> %i chars is %s", (b, c, status) => {
    expect(drift(b, c, split).status).toBe(status);
  });

  it("a direction without its own thresholds falls back to the length delta (35 / 70)", () => {
    const onlyExpansion = parseGateConfig({ drift: { warn_expansion_pct: 100, block_expansion_pct: 200 } }).drift;
    expect(drift(100, 150, onlyExpansion).status).toBe("ALLOW");
    expect(drift(100, 65, onlyExpansion).status).toBe("WARN");
    expect(drift(100, 30, onlyExpansion).status).toBe("BLOCK");
    expect(drift(100, 30, onlyExpansion).reasons[0]).toBe("Output length compressed by 70.00% (>=70%).");
    expect(drift(100, 300, onlyExpansion).reasons[0]).toBe("Output length expanded by 200.00% (>=200%).");
  });
});
