// The vector index of semantic matching (optional), as the repositories see it: CFB embeddings
// stored per CFB and model with the CFB version they were computed from (a version behind the
// CFB's = pending), and nearest-neighbour search over the live ones. The index itself is a
// dialect's (SQLite: sqlite-vec, dialect/sqlite/vectors.ts).

export type TPendingEmbedding = { cfbId: string; version: number; title: string; summary: string };
export type TEmbeddingWrite = { cfbId: string; version: number; vector: Float32Array };

export type TVectorStore = {
  /** The model whose vectors the index holds, and their dimension. */
  readonly model: string;
  readonly dims: number;
  /** Live CFBs with no vector for this model, or one from an older version. */
  pending(limit: number): Promise<TPendingEmbedding[]>;
  /** How many live CFBs have an up-to-date vector, and how many do not. */
  counts(): Promise<{ embedded: number; pending: number }>;
  /** Stores vectors (each for the version it was computed from) and indexes them, in one transaction. */
  write(rows: readonly TEmbeddingWrite[]): Promise<void>;
  /** Drops merged and deleted CFBs from the index. */
  prune(): Promise<number>;
  nearest(vector: Float32Array, k: number): Promise<{ cfb_id: string; similarity: number }[]>;
  vectors(ids: readonly string[]): Promise<Map<string, Float32Array>>;
  /** Up to `n` stored vectors of live CFBs, the same ones every time (calibration). */
  sample(n: number): Promise<Float32Array[]>;
};
