// The stored side of semantic matching's vector index, the same on every database: CfbEmbedding
// rows (the source of truth) per CFB, model and dimension, which live CFBs still need one, and the
// vectors themselves. Each dialect's store (sqlite/vectors.ts, postgres/vectors.ts) adds its
// nearest-neighbour index on top.
import { Prisma } from "../generated/prisma/client";
import { liveCfbSql } from "../live";
import type { TSql, TSqlDriver } from "../sql";
import type { TEmbeddingWrite, TPendingEmbedding, TVectorStore } from "./vector-store";

export function vectorBytes(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

/** A stored vector as a Float32Array, copied: the driver may reuse its buffer. */
export function vectorOf(value: unknown): Float32Array {
  const bytes = value instanceof Uint8Array ? value : Buffer.from(value as ArrayBuffer);
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}

export function checkDimension(dims: number): void {
  if (!Number.isInteger(dims) || dims < 1 || dims > 8192)
    throw new RangeError(`embedding dimension ${dims} out of range`);
}

/** The store's methods that only read and write CfbEmbedding, for `model` at `dims`. */
export function embeddingRows(
  sql: TSqlDriver,
  model: string,
  dims: number,
): Pick<TVectorStore, "model" | "dims" | "pending" | "counts" | "sample" | "vectors"> & {
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
    async pending(limit) {
      const rows = await sql.query<TPendingEmbedding>(
        Prisma.sql`SELECT c."id" AS "cfbId", c."version" AS "version", c."title" AS "title", c."summary" AS "summary"
          FROM ${pendingFrom} WHERE ${pendingWhere} ORDER BY c."seq" LIMIT ${limit}`,
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
    async vectors(ids) {
      if (ids.length === 0) return new Map();
      const rows = await sql.query<{ cfbId: string; vector: unknown }>(
        Prisma.sql`SELECT "cfbId", "vector" FROM "CfbEmbedding"
          WHERE "model" = ${model} AND "dims" = ${dims} AND "cfbId" IN (${Prisma.join([...new Set(ids)])})`,
      );
      return new Map(rows.map((r) => [r.cfbId, vectorOf(r.vector)] as const));
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

/** A dialect's nearest-neighbour index over the stored vectors, as `ensureVectorIndex` rebuilds it. */
export type TVectorIndexTable = {
  /** Drops the index and creates it empty, for vectors of `dims` numbers. */
  recreate(tx: TSql): Promise<void>;
  /** Indexes one stored vector. */
  add(tx: TSql, cfbId: string, vector: Float32Array): Promise<void>;
};

/**
 * Keeps a dialect's vector index for `model` at `dims`: the "CfbVecState" row says which model
 * and dimension it holds; for another one it is made again, filled from the stored embeddings of
 * the live CFBs (CfbEmbedding is the source of truth), in one transaction.
 */
export async function ensureVectorIndex(
  sql: TSqlDriver,
  model: string,
  dims: number,
  index: TVectorIndexTable,
): Promise<void> {
  await sql.execute(
    Prisma.sql`CREATE TABLE IF NOT EXISTS "CfbVecState" ("id" INTEGER NOT NULL PRIMARY KEY, "model" TEXT NOT NULL, "dims" INTEGER NOT NULL)`,
  );
  const [state] = await sql.query<{ model: string; dims: number }>(
    Prisma.sql`SELECT "model", "dims" FROM "CfbVecState" WHERE "id" = 1`,
  );
  if (state && state.model === model && Number(state.dims) === dims) return;
  await sql.transaction(async (tx) => {
    await index.recreate(tx);
    await tx.execute(Prisma.sql`INSERT INTO "CfbVecState" ("id", "model", "dims") VALUES (1, ${model}, ${dims})
      ON CONFLICT ("id") DO UPDATE SET "model" = excluded."model", "dims" = excluded."dims"`);
    const stored = await tx.query<{ cfbId: string; vector: unknown }>(
      Prisma.sql`SELECT e."cfbId" AS "cfbId", e."vector" AS "vector" FROM "CfbEmbedding" e
        JOIN "Cfb" c ON c."id" = e."cfbId" AND ${liveCfbSql("c")}
        WHERE e."model" = ${model} AND e."dims" = ${dims}`,
    );
    for (const row of stored) await index.add(tx, row.cfbId, vectorOf(row.vector));
  });
}
