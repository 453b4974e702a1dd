// The stored side of semantic matching, the same on every database: CfbEmbedding rows (the source
// of truth) per CFB, model and dimension, computed from one version of the CFB (a version behind
// the CFB's is pending), and which live CFBs still need one. Nearest neighbours come from the
// candidate index, which holds the live CFBs' vectors in this process (candidates/vector-index.ts)
// and follows what any process writes here.

import type { SqlBool } from "kysely";
import type { TCandidateIndex, TVisibleTo } from "./candidates/candidate-index";
import type { TNeighbour } from "./candidates/vector-index";
import { liveCfbInIdOrderSql, liveCfbSql } from "./live";
import type { TSql, TSqlDriver } from "./sql";
import { fragment, rows, run, typed } from "./typed-sql";

export type TPendingEmbedding = { cfbId: string; version: number; title: string; summary: string };
export type TEmbeddingWrite = { cfbId: string; version: number; vector: Float32Array };

export type TVectorStore = {
  /** The model whose vectors the store holds, and their dimension. */
  readonly model: string;
  readonly dims: number;
  /**
   * Live CFBs with no vector for this model, or one from an older version, in id order from
   * after `afterId`: a backfill walks the table once instead of rescanning what it embedded.
   */
  pending(limit: number, afterId?: string): Promise<TPendingEmbedding[]>;
  /** How many live CFBs have an up-to-date vector, and how many do not. */
  counts(): Promise<{ embedded: number; pending: number }>;
  /** Stores vectors (each for the version it was computed from), in one transaction. */
  write(rows: readonly TEmbeddingWrite[]): Promise<void>;
  /** The k live CFBs in scope nearest `vector`, most similar first. */
  nearest(
    vector: Float32Array,
    k: number,
    opts?: TVisibleTo & { domains?: ReadonlySet<string> | undefined },
  ): Promise<{ cfb_id: string; similarity: number }[]>;
  /** Cosine similarity of `vector` with each listed CFB that has a vector. */
  similarities(vector: Float32Array, ids: readonly string[]): Promise<Map<string, number>>;
  /** Up to `n` stored vectors of live CFBs, the same ones every time (calibration). */
  sample(n: number): Promise<Float32Array[]>;
};

function vectorBytes(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

/** A stored vector as a Float32Array, copied: the driver may reuse its buffer. */
export function vectorOf(value: unknown): Float32Array {
  const bytes = value instanceof Uint8Array ? value : Buffer.from(value as ArrayBuffer);
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}

function checkDimension(dims: number): void {
  if (!Number.isInteger(dims) || dims < 1 || dims > 8192)
    throw new RangeError(`embedding dimension ${dims} out of range`);
}

/** The store's methods that only read and write CfbEmbedding, for `model` at `dims`. */
function embeddingRows(
  sql: TSqlDriver,
  model: string,
  dims: number,
): Pick<TVectorStore, "model" | "dims" | "pending" | "counts" | "sample"> & {
  /** Validates every vector's length (naming the CFB) before anything is written. */
  check(rows: readonly TEmbeddingWrite[]): void;
  /** Stores the vectors in `tx`, each for the version it was computed from. */
  upsert(tx: TSql, rows: readonly TEmbeddingWrite[]): Promise<void>;
} {
  // A vector of another dimension (the same model asked for fewer numbers) is as good as none.
  const withVectors = typed
    .selectFrom("Cfb as c")
    .leftJoin("CfbEmbedding as e", (join) =>
      join.onRef("e.cfbId", "=", "c.id").on("e.model", "=", model).on("e.dims", "=", dims),
    )
    .where((eb) => eb.or([eb("e.cfbId", "is", null), eb("e.version", "<>", eb.ref("c.version"))]));
  return {
    model,
    dims,
    async pending(limit, afterId = "") {
      const found = await rows(
        sql,
        withVectors
          .select(["c.id as cfbId", "c.version", "c.title", "c.summary"])
          .where(fragment<SqlBool>(liveCfbInIdOrderSql(sql.dialect, "c")))
          .where("c.id", ">", afterId)
          .orderBy("c.id")
          .limit(limit),
      );
      return found.map((r) => ({ ...r, version: Number(r.version) }));
    },
    async counts() {
      const [row] = await rows(
        sql,
        typed.selectNoFrom((eb) => [
          eb
            .selectFrom("Cfb")
            .select(eb.fn.countAll<number>().as("n"))
            .where(fragment<SqlBool>(liveCfbSql()))
            .as("live"),
          withVectors
            .select(eb.fn.countAll<number>().as("n"))
            .where(fragment<SqlBool>(liveCfbSql("c")))
            .as("pending"),
        ]),
      );
      const pending = Number(row?.pending ?? 0);
      return { embedded: Number(row?.live ?? 0) - pending, pending };
    },
    async sample(n) {
      const found = await rows(
        sql,
        typed
          .selectFrom("CfbEmbedding as e")
          .innerJoin("Cfb as c", "c.id", "e.cfbId")
          .select("e.vector")
          .where("e.model", "=", model)
          .where("e.dims", "=", dims)
          .where(fragment<SqlBool>(liveCfbSql("c")))
          .orderBy("c.seq")
          .limit(n),
      );
      return found.map((r) => vectorOf(r.vector));
    },
    check(rows) {
      for (const r of rows)
        if (r.vector.length !== dims)
          throw new Error(`${r.cfbId}: ${r.vector.length} numbers, the model gives ${dims}`);
    },
    async upsert(tx, rows) {
      const now = new Date();
      for (const r of rows)
        await run(
          tx,
          typed
            .insertInto("CfbEmbedding")
            .values({ cfbId: r.cfbId, model, version: r.version, dims, vector: vectorBytes(r.vector), createdAt: now })
            .onConflict((oc) =>
              oc.columns(["cfbId", "model"]).doUpdateSet((eb) => ({
                version: eb.ref("excluded.version"),
                dims: eb.ref("excluded.dims"),
                vector: eb.ref("excluded.vector"),
                createdAt: eb.ref("excluded.createdAt"),
              })),
            ),
        );
    },
  };
}

/** The vector store of `model` at `dims`: CfbEmbedding rows, searched through the candidate index. */
export async function openVectorStore(
  sql: TSqlDriver,
  index: TCandidateIndex,
  model: string,
  dims: number,
): Promise<TVectorStore> {
  checkDimension(dims);
  const rows = embeddingRows(sql, model, dims);
  await index.attachVectors(model, dims);
  const asNeighbours = (found: TNeighbour[]) => found.map((n) => ({ cfb_id: n.id, similarity: n.similarity }));
  return {
    ...rows,
    async write(written) {
      rows.check(written);
      if (written.length === 0) return;
      await sql.transaction((tx) => rows.upsert(tx, written));
      index.putVectors(written);
    },
    async nearest(vector, k, opts = {}) {
      if (vector.length !== dims) throw new Error(`query vector has ${vector.length} numbers, the index ${dims}`);
      return asNeighbours(await index.nearest(vector, k, opts));
    },
    async similarities(vector, ids) {
      await index.sync();
      return index.similarities(vector, ids);
    },
  };
}
