// The vector index of semantic matching (dialect/vector-store.ts): CfbEmbedding rows per CFB and
// model (the source of truth, with the CFB version each vector was computed from) and an index for
// nearest neighbours: on SQLite a sqlite-vec vec0 table, created when the store is first opened
// and rebuilt from the stored rows when it is opened for another model or dimension; on
// PostgreSQL without pgvector an exact search over the stored rows, which checks liveness on every
// search. The store's behaviour is the same on both; the vec0 table's own checks run on SQLite.
// Small, hand-made vectors, so every expected neighbour and similarity is known.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient, createRepositories, type DbClient, type TRepositories, type TVectorStore } from "../src";
import { sqlDriverOf } from "../src/client";
import { Prisma } from "../src/generated/prisma/client";
import { createTestDatabase, type TTestDatabase } from "../src/testing";

let database: TTestDatabase;
let db: DbClient;
let repos: TRepositories;
// Six CFBs, in id order: A..F.
let A: string;
let B: string;
let C: string;
let D: string;
let E: string;
let F: string;
let store: TVectorStore;

const draft = (title: string) => ({
  domain: "ops",
  kind: "authoritative" as const,
  confidence: 0.9,
  title,
  summary: `${title}: the summary.`,
  text: null,
  tags: [],
  entities: [],
  trust_tier: "user_approved" as const,
  source_refs: [],
});
const actor = { actorUserId: null, actorEmail: "test@example.com", via: "system" as const };
const vec = (...xs: number[]) => new Float32Array(xs);

const sqlite = () => database.dialect === "sqlite";

/** The vec0 table's definition, or null when there is none (always, on PostgreSQL). */
async function vecTable(): Promise<string | null> {
  if (!sqlite()) return null;
  const [row] = await sqlDriverOf(db).query<{ sql: string }>(
    Prisma.sql`SELECT "sql" FROM sqlite_master WHERE "name" = 'CfbVec'`,
  );
  return row?.sql ?? null;
}
async function vecState(): Promise<{ model: string; dims: number } | undefined> {
  if (!sqlite()) return undefined;
  const [row] = await sqlDriverOf(db).query<{ model: string; dims: number }>(
    Prisma.sql`SELECT "model", "dims" FROM "CfbVecState" WHERE "id" = 1`,
  );
  return row && { model: row.model, dims: Number(row.dims) };
}
const nearestIds = async (s: TVectorStore, v: Float32Array, k = 10) => (await s.nearest(v, k)).map((n) => n.cfb_id);

beforeAll(async () => {
  database = await createTestDatabase("vector-store");
  db = await createPrismaClient(database.url);
  repos = createRepositories(db);
  [A, B, C, D, E, F] = (await repos.cfbs.import(["A", "B", "C", "D", "E", "F"].map((t) => draft(`Block ${t}`)))) as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
});
afterAll(async () => {
  await db.$disconnect();
  database.cleanup();
});

// The tests build on each other: one store, written, edited, pruned, then reopened.
describe("a vector store", () => {
  it("is created by openVectors: a vec0 table for the dimension, and the model recorded", async () => {
    expect(await vecTable()).toBeNull();
    store = await repos.cfbs.openVectors("model-a", 4);
    expect(store).toMatchObject({ model: "model-a", dims: 4 });
    const sql = await vecTable();
    if (sqlite()) {
      expect(sql).toMatch(/USING vec0/i);
      expect(sql).toContain("float[4]");
      expect(await vecState()).toEqual({ model: "model-a", dims: 4 });
    }
  });

  it("rejects a dimension out of range", async () => {
    for (const dims of [0, -3, 1.5, 8193])
      await expect(repos.cfbs.openVectors("model-a", dims)).rejects.toThrow(RangeError);
    // Nothing was touched by the refusals.
    if (sqlite()) expect(await vecState()).toEqual({ model: "model-a", dims: 4 });
  });

  it("lists every live CFB as pending before any vector is written, in id order", async () => {
    const pending = await store.pending(100);
    expect(pending).toEqual(
      [A, B, C, D, E, F].map((id, i) => ({
        cfbId: id,
        version: 1,
        title: `Block ${"ABCDEF"[i]}`,
        summary: `Block ${"ABCDEF"[i]}: the summary.`,
      })),
    );
    expect((await store.pending(2)).map((p) => p.cfbId)).toEqual([A, B]);
    expect(await store.counts()).toEqual({ embedded: 0, pending: 6 });
    expect(await store.nearest(vec(1, 0, 0, 0), 5)).toEqual([]);
  });

  it("stores and indexes written vectors: nearest first, similarity in [-1, 1]", async () => {
    await store.write([
      { cfbId: A, version: 1, vector: vec(1, 0, 0, 0) },
      { cfbId: B, version: 1, vector: vec(0, 1, 0, 0) },
      { cfbId: C, version: 1, vector: vec(0.8, 0.6, 0, 0) },
      { cfbId: D, version: 1, vector: vec(-2, 0, 0, 0) },
    ]);
    const hits = await store.nearest(vec(3, 0, 0, 0), 10);
    expect(hits.map((h) => h.cfb_id)).toEqual([A, C, B, D]);
    const similarities = hits.map((h) => h.similarity);
    expect(similarities[0]).toBeCloseTo(1, 5);
    expect(similarities[1]).toBeCloseTo(0.8, 5);
    expect(similarities[2]).toBeCloseTo(0, 5);
    expect(similarities[3]).toBeCloseTo(-1, 5);
    for (const s of similarities) {
      expect(s).toBeGreaterThanOrEqual(-1);
      expect(s).toBeLessThanOrEqual(1);
    }
    // k bounds the answer; another query another order.
    expect(await nearestIds(store, vec(0, 1, 0, 0), 2)).toEqual([B, C]);

    expect(await store.counts()).toEqual({ embedded: 4, pending: 2 });
    expect((await store.pending(100)).map((p) => p.cfbId)).toEqual([E, F]);
  });

  it("returns the stored vectors as Float32Arrays (unknown and unembedded ids left out)", async () => {
    const stored = await store.vectors([C, A, "CFB-999999", E, A]);
    expect([...stored.keys()].sort()).toEqual([A, C].sort());
    expect(stored.get(A)).toBeInstanceOf(Float32Array);
    expect(stored.get(A)).toEqual(vec(1, 0, 0, 0));
    // Exactly the float32 values written (0.8 and 0.6 are not exact in float32).
    expect(stored.get(C)).toEqual(vec(0.8, 0.6, 0, 0));
    expect(await store.vectors([])).toEqual(new Map());
  });

  it("lists a CFB whose version moved as pending until its vector is rewritten", async () => {
    await repos.cfbs.update(A, 1, draft("Block A, edited"), actor);
    expect(await store.pending(100)).toEqual([
      { cfbId: A, version: 2, title: "Block A, edited", summary: "Block A, edited: the summary." },
      expect.objectContaining({ cfbId: E }),
      expect.objectContaining({ cfbId: F }),
    ]);
    expect(await store.counts()).toEqual({ embedded: 3, pending: 3 });

    await store.write([{ cfbId: A, version: 2, vector: vec(0, 0, 1, 0) }]);
    expect((await store.pending(100)).map((p) => p.cfbId)).toEqual([E, F]);
    expect(await store.counts()).toEqual({ embedded: 4, pending: 2 });
    // The index holds the new vector only (one entry per CFB).
    expect(await nearestIds(store, vec(0, 0, 1, 0), 1)).toEqual([A]);
    expect((await store.nearest(vec(1, 0, 0, 0), 10)).filter((h) => h.cfb_id === A)).toEqual([
      { cfb_id: A, similarity: expect.closeTo(0, 5) },
    ]);
  });

  it("rejects a vector of the wrong length, naming the CFB, and writes nothing of the batch", async () => {
    await expect(
      store.write([
        { cfbId: E, version: 1, vector: vec(1, 1, 1, 1) },
        { cfbId: F, version: 1, vector: vec(1, 1, 1) },
      ]),
    ).rejects.toThrow(F);
    expect(await store.vectors([E, F])).toEqual(new Map());
    expect(await store.counts()).toEqual({ embedded: 4, pending: 2 });
    await expect(store.nearest(vec(1, 0, 0), 3)).rejects.toThrow(/3 numbers/);
  });

  it("prunes merged and deleted CFBs from the index; they are neither pending nor counted", async () => {
    await db.cfb.update({ where: { id: B }, data: { mergedIntoId: C } });
    await db.cfb.update({ where: { id: F }, data: { mergedIntoId: C } }); // merged before it had a vector
    await db.cfb.delete({ where: { id: D } });
    expect((await store.pending(100)).map((p) => p.cfbId)).toEqual([E]);
    // Live: A, C (embedded) and E (pending).
    expect(await store.counts()).toEqual({ embedded: 2, pending: 1 });

    if (sqlite()) {
      // vec0 holds them until pruned.
      expect(await nearestIds(store, vec(0, 1, 0, 0))).toContain(B);
      expect(await store.prune()).toBe(2);
    } else {
      // The exact search checks liveness on every search and drops them as it goes.
      expect(await nearestIds(store, vec(0, 1, 0, 0))).not.toContain(B);
      expect(await store.prune()).toBe(0);
    }
    expect(await nearestIds(store, vec(0, 1, 0, 0))).toEqual([C, A]);
    expect(await nearestIds(store, vec(-1, 0, 0, 0))).not.toContain(D);
    expect(await store.prune()).toBe(0);
  });

  it("samples the same live vectors every time, in id order", async () => {
    await store.write([{ cfbId: E, version: 1, vector: vec(0, 0, 0, 1) }]);
    const sample = await store.sample(10);
    expect(sample).toEqual([vec(0, 0, 1, 0), vec(0.8, 0.6, 0, 0), vec(0, 0, 0, 1)]); // A, C, E; not merged B
    expect(await store.sample(2)).toEqual(sample.slice(0, 2));
    expect(await store.counts()).toEqual({ embedded: 3, pending: 0 });
  });

  it("keeps the index when reopened for the same model and dimension", async () => {
    if (!sqlite()) {
      // Nothing kept to lose: a reopened store answers from the stored vectors at once.
      const before = await nearestIds(store, vec(1, 1, 0.5, 0.1));
      store = await repos.cfbs.openVectors("model-a", 4);
      expect(await nearestIds(store, vec(1, 1, 0.5, 0.1))).toEqual(before);
      return;
    }
    // A row only the index has (no CfbEmbedding behind it): a rebuild would drop it.
    await sqlDriverOf(db).execute(
      Prisma.sql`INSERT INTO "CfbVec" (cfb_id, embedding) VALUES ('CFB-ghost', ${Buffer.from(vec(1, 1, 0, 0).buffer)})`,
    );
    store = await repos.cfbs.openVectors("model-a", 4);
    expect(await nearestIds(store, vec(1, 1, 0, 0), 1)).toEqual(["CFB-ghost"]);
  });

  it("rebuilds for another model: the new dimension works, the old model's vectors are not used", async () => {
    const b = await repos.cfbs.openVectors("model-b", 3);
    if (sqlite()) {
      expect(await vecState()).toEqual({ model: "model-b", dims: 3 });
      expect(await vecTable()).toContain("float[3]");
    }
    expect(await b.nearest(vec(1, 0, 0), 10)).toEqual([]);
    expect((await b.pending(100)).map((p) => p.cfbId)).toEqual([A, C, E]);
    expect(await b.counts()).toEqual({ embedded: 0, pending: 3 });
    expect(await b.vectors([A])).toEqual(new Map());
    expect(await b.sample(10)).toEqual([]);

    await b.write([
      { cfbId: A, version: 2, vector: vec(0, 0, 1) },
      { cfbId: C, version: 1, vector: vec(0, 1, 0) },
    ]);
    expect(await nearestIds(b, vec(0, 0.1, 1))).toEqual([A, C]);
    expect(await b.counts()).toEqual({ embedded: 2, pending: 1 });
    expect((await b.vectors([A])).get(A)).toEqual(vec(0, 0, 1));
    await expect(b.write([{ cfbId: E, version: 1, vector: vec(0, 0, 0, 1) }])).rejects.toThrow(E);

    // Back to model-a: rebuilt from its stored vectors of the live CFBs (not the ghost, not B).
    const a = await repos.cfbs.openVectors("model-a", 4);
    if (sqlite()) expect(await vecState()).toEqual({ model: "model-a", dims: 4 });
    expect(await nearestIds(a, vec(1, 1, 0.5, 0.1))).toEqual([C, A, E]);
    expect(await a.counts()).toEqual({ embedded: 3, pending: 0 });
  });

  it("rebuilds for another dimension of the same model, without the vectors of the old one", async () => {
    const wide = await repos.cfbs.openVectors("model-a", 6);
    if (sqlite()) {
      expect(await vecState()).toEqual({ model: "model-a", dims: 6 });
      expect(await vecTable()).toContain("float[6]");
    }
    expect(await wide.nearest(vec(1, 0, 0, 0, 0, 0), 10)).toEqual([]);
    await wide.write([{ cfbId: C, version: 1, vector: vec(0, 0, 0, 0, 0, 1) }]);
    expect(await nearestIds(wide, vec(0, 0, 0, 0, 1, 1))).toEqual([C]);
    // A vector of the old dimension is as good as none: pending again, never handed out.
    const pendingIds = (await wide.pending(100)).map((p) => p.cfbId);
    expect(pendingIds).not.toContain(C);
    expect(pendingIds.length).toBe((await wide.counts()).pending);
    const stored = await wide.vectors(pendingIds);
    expect([...stored.values()].every((v) => v.length === 6)).toBe(true);
    expect((await wide.sample(100)).every((v) => v.length === 6)).toBe(true);
  });
});
