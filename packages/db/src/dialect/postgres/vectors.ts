// The vector index of semantic matching on PostgreSQL (dialect/vector-store.ts says what it holds).
// CfbEmbedding is the source of truth, as on SQLite. Nearest neighbours come from:
// - pgvector, when the server has the extension (CREATE EXTENSION vector succeeds): a "CfbVec"
//   table with an HNSW index on cosine distance, rebuilt from CfbEmbedding for another model;
// - otherwise an exact search in this process over the stored vectors, loaded once and then
//   followed by what was written since (a minute of overlap covers transactions that committed
//   late), with the live CFBs checked in SQL on every search. Exact, and fast enough for the
//   knowledge bases one team keeps (docs/performance.md); pgvector is the way past that.
import { Prisma } from "../../generated/prisma/client";
import { liveCfbSql } from "../../live";
import type { TSql, TSqlDriver } from "../../sql";
import type { TConnection } from "../dialect";
import { checkDimension, embeddingRows, ensureVectorIndex, vectorOf } from "../embedding-rows";
import type { TVectorStore } from "../vector-store";

/** pgvector's text form of a vector: '[0.1,0.2,…]'. */
const vectorText = (vector: Float32Array) => `[${Array.from(vector).join(",")}]`;

function norm(vector: Float32Array): number {
  let s = 0;
  for (let i = 0; i < vector.length; i++) s += (vector[i] as number) * (vector[i] as number);
  return Math.sqrt(s);
}

export async function hasPgvector(sql: TSqlDriver): Promise<boolean> {
  try {
    await sql.execute(Prisma.sql`CREATE EXTENSION IF NOT EXISTS vector`);
    return true;
  } catch {
    return false;
  }
}

export async function openPostgresVectors(connection: TConnection, model: string, dims: number): Promise<TVectorStore> {
  checkDimension(dims);
  const sql = connection.driver;
  const nearest = (await hasPgvector(sql)) ? await pgvectorSearch(sql, model, dims) : exactSearch(sql, model, dims);
  return createStore(sql, model, dims, nearest);
}

type TNearest = {
  search(vector: Float32Array, k: number): Promise<{ cfb_id: string; similarity: number }[]>;
  /** After vectors were stored in `tx` (pgvector keeps its own table in step). */
  wrote(tx: TSql, rows: readonly { cfbId: string; vector: Float32Array }[]): Promise<void>;
  prune(): Promise<number>;
};

async function pgvectorSearch(sql: TSqlDriver, model: string, dims: number): Promise<TNearest> {
  const add = (tx: TSql, cfbId: string, vector: Float32Array) =>
    tx
      .execute(Prisma.sql`INSERT INTO "CfbVec" ("cfbId", "embedding") VALUES (${cfbId}, ${vectorText(vector)}::vector)
        ON CONFLICT ("cfbId") DO UPDATE SET "embedding" = EXCLUDED."embedding"`)
      .then(() => {});
  await ensureVectorIndex(sql, model, dims, {
    async recreate(tx) {
      await tx.execute(Prisma.sql`DROP TABLE IF EXISTS "CfbVec"`);
      await tx.execute(
        Prisma.raw(`CREATE TABLE "CfbVec" ("cfbId" TEXT PRIMARY KEY, "embedding" vector(${dims}) NOT NULL)`),
      );
      await tx.execute(
        Prisma.raw(`CREATE INDEX "CfbVec_embedding_idx" ON "CfbVec" USING hnsw ("embedding" vector_cosine_ops)`),
      );
    },
    add,
  });
  return {
    async search(vector, k) {
      const rows = await sql.query<{ id: string; distance: number }>(
        Prisma.sql`SELECT "cfbId" AS "id", "embedding" <=> ${vectorText(vector)}::vector AS "distance"
          FROM "CfbVec" ORDER BY "embedding" <=> ${vectorText(vector)}::vector LIMIT ${k}`,
      );
      return rows.map((r) => ({ cfb_id: r.id, similarity: Math.max(-1, Math.min(1, 1 - Number(r.distance))) }));
    },
    async wrote(tx, rows) {
      for (const r of rows) await add(tx, r.cfbId, r.vector);
    },
    async prune() {
      return sql.execute(Prisma.sql`DELETE FROM "CfbVec" v WHERE NOT EXISTS
        (SELECT 1 FROM "Cfb" c WHERE c."id" = v."cfbId" AND ${liveCfbSql("c")})`);
    },
  };
}

const OVERLAP_MS = 60_000;

function exactSearch(sql: TSqlDriver, model: string, dims: number): TNearest {
  const loaded = new Map<string, { vector: Float32Array; norm: number; writtenAt: string }>();
  // CFBs found merged, retired or deleted, with the write of the vector that was dropped: the
  // overlap reads that row again, and it stays out until a new vector is written for the CFB.
  const dropped = new Map<string, string>();
  let since: Date | null = null;
  const follow = async () => {
    const from = since ? new Date(since.getTime() - OVERLAP_MS) : new Date(0);
    const rows = await sql.query<{ cfbId: string; vector: unknown; createdAt: string }>(
      Prisma.sql`SELECT "cfbId", "vector", "createdAt" FROM "CfbEmbedding"
        WHERE "model" = ${model} AND "dims" = ${dims} AND "createdAt" >= ${from}`,
    );
    for (const r of rows) {
      const at = new Date(r.createdAt);
      if (!since || at > since) since = at;
      if (dropped.get(r.cfbId) === r.createdAt) continue;
      dropped.delete(r.cfbId);
      const vector = vectorOf(r.vector);
      loaded.set(r.cfbId, { vector, norm: norm(vector), writtenAt: r.createdAt });
    }
    since ??= new Date(0);
  };
  const drop = (id: string) => {
    const entry = loaded.get(id);
    if (entry) dropped.set(id, entry.writtenAt);
    loaded.delete(id);
  };
  return {
    async search(vector, k) {
      await follow();
      const qn = norm(vector);
      if (qn === 0 || loaded.size === 0) return [];
      const scored: { id: string; similarity: number }[] = [];
      for (const [id, v] of loaded) {
        let dot = 0;
        for (let i = 0; i < dims; i++) dot += (vector[i] as number) * (v.vector[i] as number);
        scored.push({ id, similarity: v.norm === 0 ? 0 : dot / (qn * v.norm) });
      }
      scored.sort((a, b) => b.similarity - a.similarity);
      // Merged, retired and deleted CFBs leave the answer: checked in SQL for the best few at a time.
      const out: { cfb_id: string; similarity: number }[] = [];
      for (let from = 0; from < scored.length && out.length < k; from += k * 2) {
        const slice = scored.slice(from, from + k * 2);
        const live = new Set(
          (
            await sql.query<{ id: string }>(
              Prisma.sql`SELECT "id" FROM "Cfb" WHERE "id" IN (${Prisma.join(slice.map((s) => s.id))}) AND ${liveCfbSql()}`,
            )
          ).map((r) => r.id),
        );
        for (const s of slice) {
          if (!live.has(s.id)) drop(s.id);
          else if (out.length < k) out.push({ cfb_id: s.id, similarity: Math.max(-1, Math.min(1, s.similarity)) });
        }
      }
      return out;
    },
    async wrote() {},
    async prune() {
      await follow();
      const ids = [...loaded.keys()];
      let count = 0;
      for (let from = 0; from < ids.length; from += 500) {
        const slice = ids.slice(from, from + 500);
        const live = new Set(
          (
            await sql.query<{ id: string }>(
              Prisma.sql`SELECT "id" FROM "Cfb" WHERE "id" IN (${Prisma.join(slice)}) AND ${liveCfbSql()}`,
            )
          ).map((r) => r.id),
        );
        for (const id of slice)
          if (!live.has(id)) {
            drop(id);
            count++;
          }
      }
      return count;
    },
  };
}

function createStore(sql: TSqlDriver, model: string, dims: number, index: TNearest): TVectorStore {
  const rows = embeddingRows(sql, model, dims);
  return {
    ...rows,
    async write(written) {
      rows.check(written);
      if (written.length === 0) return;
      await sql.transaction(async (tx) => {
        await rows.upsert(tx, written);
        await index.wrote(tx, written);
      });
    },
    prune: () => index.prune(),
    async nearest(vector, k) {
      if (vector.length !== dims) throw new Error(`query vector has ${vector.length} numbers, the index ${dims}`);
      return index.search(vector, k);
    },
  };
}
