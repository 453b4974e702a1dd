// The in-process vector index (candidates/vector-index.ts): sign bits prefilter, int8 numbers
// rescore. Checked against an exact search on random and clustered vectors, so its answers are the
// exact search's answers, not merely plausible ones.
import { describe, expect, it } from "vitest";
import { VectorIndex } from "../src/candidates/vector-index";

/** A small deterministic generator (mulberry32), so every run sees the same vectors. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DIMS = 512;
function unit(v: Float32Array): Float32Array {
  const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return v.map((x) => x / n);
}
function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += (a[i] as number) * (b[i] as number);
  return dot;
}

/** Vectors around 50 centres, as sentence vectors of a knowledge base cluster by topic. */
function clustered(n: number, rand: () => number): Float32Array[] {
  const centres = Array.from({ length: 50 }, () => unit(Float32Array.from({ length: DIMS }, () => rand() - 0.5)));
  return Array.from({ length: n }, (_, i) => {
    const c = centres[i % centres.length] as Float32Array;
    return unit(c.map((x) => x + (rand() - 0.5) * 0.08));
  });
}

describe("VectorIndex", () => {
  const rand = random(7);
  const vectors = clustered(4000, rand);
  const index = new VectorIndex(DIMS);
  for (const [i, v] of vectors.entries()) index.upsert(`CFB-${i}`, v);

  it("finds the exact search's nearest neighbours", () => {
    let found = 0;
    let asked = 0;
    for (let q = 0; q < 40; q++) {
      const query = unit(
        Float32Array.from({ length: DIMS }, (_, i) => (vectors[q * 97]?.[i] ?? 0) + (rand() - 0.5) * 0.05),
      );
      const exact = vectors
        .map((v, i) => ({ id: `CFB-${i}`, s: cosine(v, query) }))
        .sort((a, b) => b.s - a.s)
        .slice(0, 8)
        .map((x) => x.id);
      const got = new Set(index.nearest(query, 8).map((n) => n.id));
      found += exact.filter((id) => got.has(id)).length;
      asked += 8;
    }
    expect(found / asked).toBeGreaterThanOrEqual(0.99);
  });

  it("scores within a hundredth of the exact cosine", () => {
    const query = vectors[5] as Float32Array;
    for (const n of index.nearest(query, 20)) {
      const i = Number(n.id.slice(4));
      expect(Math.abs(n.similarity - cosine(vectors[i] as Float32Array, query))).toBeLessThan(0.01);
    }
  });

  it("widens the search until enough accepted neighbours are found", () => {
    const query = vectors[0] as Float32Array;
    // Only the CFBs of another cluster are accepted: none of them is near the query.
    const accepted = (id: string) => Number(id.slice(4)) % 50 === 25;
    const hits = index.nearest(query, 10, accepted);
    expect(hits).toHaveLength(10);
    for (const h of hits) expect(accepted(h.id)).toBe(true);
  });

  it("replaces and removes vectors, and ignores zero vectors", () => {
    const small = new VectorIndex(4);
    small.upsert("CFB-1", new Float32Array([1, 0, 0, 0]));
    small.upsert("CFB-2", new Float32Array([0, 1, 0, 0]));
    small.upsert("CFB-1", new Float32Array([0, 0, 1, 0]));
    expect(small.nearest(new Float32Array([0, 0, 1, 0]), 1)).toEqual([{ id: "CFB-1", similarity: 1 }]);
    small.remove("CFB-1");
    expect(small.nearest(new Float32Array([0, 0, 1, 0]), 5).map((n) => n.id)).toEqual(["CFB-2"]);
    small.upsert("CFB-3", new Float32Array([0, 0, 0, 0]));
    expect(small.has("CFB-3")).toBe(false);
    expect(small.size).toBe(1);
    expect(() => small.upsert("CFB-4", new Float32Array([1, 0]))).toThrow(/CFB-4: 2 numbers/);
    expect(() => small.nearest(new Float32Array([1, 0]), 1)).toThrow(/2 numbers/);
  });
});
