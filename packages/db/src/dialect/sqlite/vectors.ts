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
import { checkDimension, embeddingRows, ensureVectorIndex, vectorBytes } from "../embedding-rows";
import type { TVectorStore } from "../vector-store";

const require = createRequire(import.meta.url);

/**
 * Opens the vector index for `model` with vectors of `dims` numbers: loads sqlite-vec into the
 * connection, and creates (or re-creates, for another model or dimension) the vec0 table, filled
 * from the stored embeddings of the live CFBs.
 */
export async function openSqliteVectors(connection: TConnection, model: string, dims: number): Promise<TVectorStore> {
  const sql = connection.driver;
  checkDimension(dims);
  const sqliteVec = require("sqlite-vec") as { getLoadablePath(): string };
  connection.loadExtension(sqliteVec.getLoadablePath());
  await ensureVectorIndex(sql, model, dims, {
    async recreate(tx) {
      await tx.execute(Prisma.sql`DROP TABLE IF EXISTS "CfbVec"`);
      await tx.execute(
        Prisma.raw(
          `CREATE VIRTUAL TABLE "CfbVec" USING vec0(cfb_id text primary key, embedding float[${dims}] distance_metric=cosine)`,
        ),
      );
    },
    add: (tx, cfbId, vector) =>
      tx
        .execute(Prisma.sql`INSERT INTO "CfbVec" (cfb_id, embedding) VALUES (${cfbId}, ${vectorBytes(vector)})`)
        .then(() => {}),
  });
  return createStore(sql, model, dims);
}

function createStore(sql: TSqlDriver, model: string, dims: number): TVectorStore {
  const rows = embeddingRows(sql, model, dims);
  return {
    ...rows,
    async write(written) {
      rows.check(written);
      if (written.length === 0) return;
      await sql.transaction(async (tx: TSql) => {
        await rows.upsert(tx, written);
        for (const r of written) {
          await tx.execute(Prisma.sql`DELETE FROM "CfbVec" WHERE cfb_id = ${r.cfbId}`);
          await tx.execute(
            Prisma.sql`INSERT INTO "CfbVec" (cfb_id, embedding) VALUES (${r.cfbId}, ${vectorBytes(r.vector)})`,
          );
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
        Prisma.sql`SELECT cfb_id AS "id", distance FROM "CfbVec" WHERE embedding MATCH ${vectorBytes(vector)} AND k = ${k}`,
      );
      // Cosine distance is 1 − cosine similarity.
      return rows.map((r) => ({ cfb_id: r.id, similarity: Math.max(-1, Math.min(1, 1 - Number(r.distance))) }));
    },
  };
}
