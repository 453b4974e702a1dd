// The composite score's components and their weighted sum (seed 001 §6.2).
import { ZScoredCandidate } from "@solserver/contracts";
import { describe, expect, it } from "vitest";
import { bm25Norm, entityOverlap, round4, scoreCandidates, tagOverlap, titleSimilarity, WEIGHTS } from "../src/index";
import { candidate, proposal } from "./fixtures";

describe("bm25Norm", () => {
  it.each([
    [4, 8, 0.5],
    [8, 8, 1],
    [12, 8, 1],
    [0, 8, 0],
    [-3, 8, 0],
    [4, 0, 0],
    [4, -1, 0],
    [4, Number.NaN, 0],
    [4, Number.POSITIVE_INFINITY, 0],
    [Number.NaN, 8, 0],
    [Number.POSITIVE_INFINITY, 8, 1],
  ])("bm25 %d against reference %d is %d", (bm25, reference, expected) => {
    expect(bm25Norm(bm25, reference)).toBe(expected);
  });
});

describe("tagOverlap / entityOverlap", () => {
  it("is the Jaccard index of the normalized sets", () => {
    expect(tagOverlap(["db", "ops"], ["db", "ops"])).toBe(1);
    expect(tagOverlap(["db", "ops"], ["db"])).toBe(0.5);
    expect(tagOverlap(["a", "b", "c"], ["b", "c", "d"])).toBe(0.5);
    expect(tagOverlap(["a"], ["b"])).toBe(0);
    expect(tagOverlap([" DB ", "Ops"], ["db", "ops", "ops"])).toBe(1);
    expect(entityOverlap(["Postgre  SQL", "Stripe API"], ["postgre sql", "stripe\tapi"])).toBe(1);
    expect(entityOverlap(["Stripe"], ["Stripe API"])).toBe(0);
  });

  it("is 0 when both are empty or one is", () => {
    expect(tagOverlap([], [])).toBe(0);
    expect(tagOverlap(["db"], [])).toBe(0);
    expect(entityOverlap([], [])).toBe(0);
    expect(entityOverlap(["  "], [""])).toBe(0);
  });
});

describe("titleSimilarity", () => {
  it("compares content words, ignoring order, case, diacritics and stopwords", () => {
    expect(titleSimilarity("Reset the password", "PASSWORD reset")).toBe(1);
    expect(titleSimilarity("Crème brûlée recipe", "creme brulee recipe")).toBe(1);
    expect(titleSimilarity("Reset the Postgres password", "Reset the MySQL password")).toBe(0.5);
    expect(titleSimilarity("Billing", "Shipping")).toBe(0);
  });

  it("is 0 for titles of stopwords only or empty titles", () => {
    expect(titleSimilarity("The and", "the AND")).toBe(0);
    expect(titleSimilarity("", "")).toBe(0);
  });
});

describe("scoreCandidates", () => {
  it("weights the components 0.50 / 0.25 / 0.20 / 0.05", () => {
    expect(WEIGHTS).toEqual({ bm25: 0.5, tag: 0.25, entity: 0.2, title: 0.05 });
    const [s] = scoreCandidates(
      proposal({ title: "Reset Postgres password", tags: ["db", "ops"], entities: ["PostgreSQL", "PgBouncer"] }),
      [
        candidate("CFB-1", {
          title: "Reset MySQL password",
          tags: ["db"],
          entities: ["PostgreSQL"],
          bm25: 6,
          bm25_reference: 8,
        }),
      ],
    );
    // 0.5·0.75 + 0.25·0.5 + 0.2·0.5 + 0.05·0.5 = 0.625
    expect(s).toEqual({
      cfb_id: "CFB-1",
      score: 0.625,
      components: { bm25_norm: 0.75, tag_overlap: 0.5, entity_overlap: 0.5, title_similarity: 0.5 },
    });
    expect(ZScoredCandidate.parse(s)).toEqual(s);
  });

  it("rounds the score to 4 decimals and keeps the components unrounded", () => {
    const [s] = scoreCandidates(proposal({ tags: ["a", "b", "c"], entities: [] }), [
      candidate("CFB-1", { tags: ["a"], entities: [], bm25: 1, bm25_reference: 3, title: "unrelated" }),
    ]);
    expect(s?.components.bm25_norm).toBe(1 / 3);
    expect(s?.components.tag_overlap).toBe(1 / 3);
    // 0.5/3 + 0.25/3 = 0.25
    expect(s?.score).toBe(0.25);
    const [t] = scoreCandidates(proposal({ tags: [], entities: [] }), [
      candidate("CFB-2", { tags: [], entities: [], bm25: 2, bm25_reference: 7, title: "unrelated" }),
    ]);
    expect(t?.score).toBe(0.1429); // 0.5 · 2/7 = 0.142857…
    expect(round4(0.12345)).toBe(0.1235);
  });

  it("sorts by score descending, then cfb_id ascending", () => {
    const p = proposal();
    const out = scoreCandidates(p, [
      candidate("CFB-3", { bm25: 1 }),
      candidate("CFB-2", { bm25: 8 }),
      candidate("CFB-1", { bm25: 1 }),
    ]);
    expect(out.map((s) => s.cfb_id)).toEqual(["CFB-2", "CFB-1", "CFB-3"]);
  });

  it("counts a CFB returned twice once, with its best score", () => {
    const out = scoreCandidates(proposal(), [candidate("CFB-1", { bm25: 1 }), candidate("CFB-1", { bm25: 8 })]);
    expect(out).toHaveLength(1);
    expect(out[0]?.components.bm25_norm).toBe(1);
  });

  it("is empty for no candidates and does not modify its input", () => {
    expect(scoreCandidates(proposal(), [])).toEqual([]);
    const input = Object.freeze([candidate("CFB-2"), candidate("CFB-1")]);
    scoreCandidates(proposal(), input);
    expect(input.map((c) => c.cfb_id)).toEqual(["CFB-2", "CFB-1"]);
  });

  it("scores a perfect match 1", () => {
    const p = proposal();
    const [s] = scoreCandidates(p, [
      candidate("CFB-1", { title: p.title, tags: p.tags, entities: p.entities, bm25: 9, bm25_reference: 8 }),
    ]);
    expect(s?.score).toBe(1);
  });
});
