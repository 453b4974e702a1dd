// The vector index of semantic matching on SQLite (dialect/vector-store.ts says what it holds): a
// sqlite-vec `vec0` table (a well-kept C extension that ships its Linux binary in the npm package)
// created when semantic matching is first opened, for the model's dimension. CfbEmbedding is the
// source of truth: the vec0 table is rebuilt from it when it is missing or was made for another
// model.
import { createRequire } from "node:module";
import { Prisma } from "../../generated/prisma/client";
import { liveCfbSql } from "../../live";
import type { TSql, TSqlDriver } from "../../sql";
import type { TConnection } from "../dialect";
import type { TPendingEmbedding, TVectorStore } from "../vector-store";

const require = createRequire(import.meta.url);

function blob(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

function floats(value: unknown): Float32Array {
  const bytes = value instanceof Uint8Array ? value : Buffer.from(value as ArrayBuffer);
  // Copied: the driver may reuse the buffer.
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}

/**
 * Opens the vector index for `model` with vectors of `dims` numbers: loads sqlite-vec into the
 * connection, and creates (or re-creates, for another model or dimension) the vec0 table, filled
 * from the stored embeddings of the live CFBs.
 */
export async function openSqliteVectors(connection: TConnection, model: string, dims: number): Promise<TVectorStore> {
  const sql = connection.driver;
  if (!Number.isInteger(dims) || dims < 1 || dims > 8192)
    throw new RangeError(`embedding dimension ${dims} out of range`);
  const sqliteVec = require("sqlite-vec") as { getLoadablePath(): string };
  connection.loadExtension(sqliteVec.getLoadablePath());
  await sql.execute(
    Prisma.sql`CREATE TABLE IF NOT EXISTS "CfbVecState" ("id" INTEGER NOT NULL PRIMARY KEY, "model" TEXT NOT NULL, "dims" INTEGER NOT NULL)`,
  );
  const [state] = await sql.query<{ model: string; dims: number }>(
    Prisma.sql`SELECT "model", "dims" FROM "CfbVecState" WHERE "id" = 1`,
  );
  if (!state || state.model !== model || Number(state.dims) !== dims) {
    await sql.transaction(async (tx) => {
      await tx.execute(Prisma.sql`DROP TABLE IF EXISTS "CfbVec"`);
      await tx.execute(
        Prisma.raw(
          `CREATE VIRTUAL TABLE "CfbVec" USING vec0(cfb_id text primary key, embedding float[${dims}] distance_metric=cosine)`,
        ),
      );
      await tx.execute(
        Prisma.sql`INSERT OR REPLACE INTO "CfbVecState" ("id", "model", "dims") VALUES (1, ${model}, ${dims})`,
      );
      const stored = await tx.query<{ cfbId: string; vector: unknown }>(
        Prisma.sql`SELECT e."cfbId" AS "cfbId", e."vector" AS "vector" FROM "CfbEmbedding" e
          JOIN "Cfb" c ON c."id" = e."cfbId" AND ${liveCfbSql("c")}
          WHERE e."model" = ${model} AND e."dims" = ${dims}`,
      );
      for (const row of stored)
        await tx.execute(
          Prisma.sql`INSERT INTO "CfbVec" (cfb_id, embedding) VALUES (${row.cfbId}, ${blob(floats(row.vector))})`,
        );
    });
  }
  return createStore(sql, model, dims);
}

function createStore(sql: TSqlDriver, model: string, dims: number): TVectorStore {
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
    async write(rows) {
      for (const r of rows)
        if (r.vector.length !== dims)
          throw new Error(`${r.cfbId}: ${r.vector.length} numbers, the model gives ${dims}`);
      if (rows.length === 0) return;
      await sql.transaction(async (tx: TSql) => {
        const now = new Date();
        for (const r of rows) {
          await tx.execute(Prisma.sql`INSERT INTO "CfbEmbedding" ("cfbId", "model", "version", "dims", "vector", "createdAt")
            VALUES (${r.cfbId}, ${model}, ${r.version}, ${dims}, ${blob(r.vector)}, ${now})
            ON CONFLICT ("cfbId", "model") DO UPDATE SET "version" = excluded."version", "dims" = excluded."dims",
              "vector" = excluded."vector", "createdAt" = excluded."createdAt"`);
          await tx.execute(Prisma.sql`DELETE FROM "CfbVec" WHERE cfb_id = ${r.cfbId}`);
          await tx.execute(Prisma.sql`INSERT INTO "CfbVec" (cfb_id, embedding) VALUES (${r.cfbId}, ${blob(r.vector)})`);
        }
      });
    },
    async prune() {
      const gone = await sql.query<{ id: string }>(
        Prisma.sql`SELECT v.cfb_id AS "id" FROM "CfbVec" v LEFT JOIN "Cfb" c ON c."id" = v.cfb_id
          WHERE c."id" IS NULL OR NOT (${liveCfbSql("c")})`,
      );
      for (const g of gone) await sql.execute(Prisma.sql`DELETE FROM "CfbVec" WHERE cfb_id = ${g.id}`);
      return gone.length;
    },
    async nearest(vector, k) {
      if (vector.length !== dims) throw new Error(`query vector has ${vector.length} numbers, the index ${dims}`);
      const rows = await sql.query<{ id: string; distance: number }>(
        Prisma.sql`SELECT cfb_id AS "id", distance FROM "CfbVec" WHERE embedding MATCH ${blob(vector)} AND k = ${k}`,
      );
      // Cosine distance is 1 − cosine similarity.
      return rows.map((r) => ({ cfb_id: r.id, similarity: Math.max(-1, Math.min(1, 1 - Number(r.distance))) }));
    },
    async sample(n) {
      const rows = await sql.query<{ vector: unknown }>(
        Prisma.sql`SELECT e."vector" AS "vector" FROM "CfbEmbedding" e JOIN "Cfb" c ON c."id" = e."cfbId"
          WHERE e."model" = ${model} AND e."dims" = ${dims} AND ${liveCfbSql("c")}
          ORDER BY c."seq" LIMIT ${n}`,
      );
      return rows.map((r) => floats(r.vector));
    },
    async vectors(ids) {
      if (ids.length === 0) return new Map();
      const rows = await sql.query<{ cfbId: string; vector: unknown }>(
        Prisma.sql`SELECT "cfbId", "vector" FROM "CfbEmbedding"
          WHERE "model" = ${model} AND "dims" = ${dims} AND "cfbId" IN (${Prisma.join([...new Set(ids)])})`,
      );
      return new Map(rows.map((r) => [r.cfbId, floats(r.vector)] as const));
    },
  };
}
