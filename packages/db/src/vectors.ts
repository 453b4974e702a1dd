// The stored side of semantic matching, the same on every database: CfbEmbedding rows (the source
// of truth) per CFB, model and dimension, computed from one version of the CFB (a version behind
// the CFB's is pending), and which live CFBs still need one. Nearest neighbours come from the
// candidate index, which holds the live CFBs' vectors in this process (candidates/vector-index.ts)
// and follows what any process writes here.
import type { TCandidateIndex, TVisibleTo } from "./candidates/candidate-index";
import type { TNeighbour } from "./candidates/vector-index";
import { Prisma } from "./generated/prisma/client";
import { liveCfbInIdOrderSql, liveCfbSql } from "./live";
import type { TSql, TSqlDriver } from "./sql";

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
  const pendingWhere = Prisma.sql`${liveCfbSql("c")} AND (e."cfbId" IS NULL OR e."version" <> c."version")`;
  // A vector of another dimension (the same model asked for fewer numbers) is as good as none.
  const pendingFrom = Prisma.sql`"Cfb" c LEFT JOIN "CfbEmbedding" e
    ON e."cfbId" = c."id" AND e."model" = ${model} AND e."dims" = ${dims}`;
  return {
    model,
    dims,
    async pending(limit, afterId = "") {
      const rows = await sql.query<TPendingEmbedding>(
        Prisma.sql`SELECT c."id" AS "cfbId", c."version" AS "version", c."title" AS "title", c."summary" AS "summary"
          FROM ${pendingFrom} WHERE ${liveCfbInIdOrderSql(sql.dialect, "c")} AND (e."cfbId" IS NULL OR e."version" <> c."version")
          AND c."id" > ${afterId} ORDER BY c."id" LIMIT ${limit}`,
      );
      return rows.map((r) => ({ ...r, version: Number(r.version) }));
    },
    async counts() {
      const [row] = await sql.query<{ live: number; pending: number }>(
        Prisma.sql`SELECT (SELECT COUNT(*) FROM "Cfb" WHERE ${liveCfbSql()}) AS "live",
          (SELECT COUNT(*) FROM ${pendingFrom} WHERE ${pendingWhere}) AS "pending"`,
      );
      const pending = Number(row?.pending ?? 0);
      return { embedded: Number(row?.live ?? 0) - pending, pending };
    },
    async sample(n) {
      const rows = await sql.query<{ vector: unknown }>(
        Prisma.sql`SELECT e."vector" AS "vector" FROM "CfbEmbedding" e JOIN "Cfb" c ON c."id" = e."cfbId"
          WHERE e."model" = ${model} AND e."dims" = ${dims} AND ${liveCfbSql("c")}
          ORDER BY c."seq" LIMIT ${n}`,
      );
      return rows.map((r) => vectorOf(r.vector));
    },
    check(rows) {
      for (const r of rows)
        if (r.vector.length !== dims)
          throw new Error(`${r.cfbId}: ${r.vector.length} numbers, the model gives ${dims}`);
    },
    async upsert(tx, rows) {
      const now = new Date();
      for (const r of rows)
        await tx.execute(Prisma.sql`INSERT INTO "CfbEmbedding" ("cfbId", "model", "version", "dims", "vector", "createdAt")
          VALUES (${r.cfbId}, ${model}, ${r.version}, ${dims}, ${vectorBytes(r.vector)}, ${now})
          ON CONFLICT ("cfbId", "model") DO UPDATE SET "version" = excluded."version", "dims" = excluded."dims",
            "vector" = excluded."vector", "createdAt" = excluded."createdAt"`);
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
