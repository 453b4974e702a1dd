// The semantic side of hybrid matching: an embeddings provider plus the CFBs' stored vectors. Resolve and retrieval take their lexical
// candidates from the candidate index and, when this is on, fuse them with the nearest neighbours
// (reciprocal rank fusion) and hand resolve each candidate's cosine similarity.

import type { TVisibleTo } from "@solserver/db";
import type { TSemanticScale } from "@solserver/resolve";

/** A text's embedding, and its neighbours among the CFBs (cosine similarity, best first). */
export type TSemanticSearch = {
  /** Which embeddings model (stored vectors are per model). */
  model: string;
  /** Where this model's cosines mean "unrelated" and "the same" (calibrated on the knowledge base). */
  scale(): TSemanticScale;
  embed(text: string): Promise<Float32Array>;
  /** Many texts' embeddings, behind any turn's (background work: the router's examples). */
  embedMany(texts: readonly string[]): Promise<Float32Array[]>;
  /**
   * The k nearest among the shared CFBs and those private to `visibleTo` (null or absent: shared
   * only), of `domains` when given.
   */
  nearest(
    vector: Float32Array,
    k: number,
    opts?: TVisibleTo & { domains?: ReadonlySet<string> | undefined },
  ): Promise<{ cfb_id: string; similarity: number }[]>;
  /** Cosine similarity of `vector` with each listed CFB that has a stored embedding. */
  similarities(vector: Float32Array, ids: readonly string[]): Promise<Map<string, number>>;
};

/** Reciprocal rank fusion's constant: ranks beyond the first few matter little. */
export const RRF_K = 60;

/** Ids of several best-first lists fused by reciprocal rank (Σ 1 / (RRF_K + rank)); ties by first appearance. */
export function reciprocalRankFusion(lists: readonly (readonly string[])[], limit: number): string[] {
  const score = new Map<string, number>();
  const order: string[] = [];
  for (const list of lists) {
    list.forEach((id, rank) => {
      if (!score.has(id)) order.push(id);
      score.set(id, (score.get(id) ?? 0) + 1 / (RRF_K + rank + 1));
    });
  }
  return order
    .map((id, i) => ({ id, s: score.get(id) ?? 0, i }))
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .slice(0, limit)
    .map((x) => x.id);
}
