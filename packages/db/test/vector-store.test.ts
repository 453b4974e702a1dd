// The vector store of semantic matching (src/vectors.ts): CfbEmbedding rows per CFB and model (the
// source of truth, with the CFB version each vector was computed from), searched through the
// candidate index, which holds the live CFBs' vectors in the process and follows what any process
// writes. The same on every database. Small, hand-made vectors, so every expected neighbour and
// similarity is known.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient, createRepositories, type DbClient, type TRepositories, type TVectorStore } from "../src";
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
  it("is opened by openVectors for a model and dimension", async () => {
    store = await repos.cfbs.openVectors("model-a", 4);
    expect(store).toMatchObject({ model: "model-a", dims: 4 });
  });

  it("rejects a dimension out of range", async () => {
    for (const dims of [0, -3, 1.5, 8193])
      await expect(repos.cfbs.openVectors("model-a", dims)).rejects.toThrow(RangeError);
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
    // A backfill's next batch starts after the last id it embedded.
    expect((await store.pending(2, B)).map((p) => p.cfbId)).toEqual([C, D]);
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
    expect(similarities[1]).toBeCloseTo(0.8, 2); // int8 numbers: within a few thousandths
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

  it("gives the similarity of listed CFBs that have a vector (others left out)", async () => {
    const similar = await store.similarities(vec(1, 0, 0, 0), [C, A, "CFB-999999", E, A]);
    expect([...similar.keys()].sort()).toEqual([A, C].sort());
    expect(similar.get(A)).toBeCloseTo(1, 5);
    expect(similar.get(C)).toBeCloseTo(0.8, 2);
    expect(await store.similarities(vec(1, 0, 0, 0), [])).toEqual(new Map());
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
    expect(await store.similarities(vec(1, 1, 1, 1), [E, F])).toEqual(new Map());
    expect(await store.counts()).toEqual({ embedded: 4, pending: 2 });
    await expect(store.nearest(vec(1, 0, 0), 3)).rejects.toThrow(/3 numbers/);
  });

  it("never returns merged, retired or deleted CFBs; they are neither pending nor counted", async () => {
    await db.cfb.update({ where: { id: B }, data: { mergedIntoId: C } });
    await db.cfb.update({ where: { id: F }, data: { mergedIntoId: C } }); // merged before it had a vector
    await db.cfb.delete({ where: { id: D } });
    // A change the candidate index reads from its log (written by the triggers above).
    expect((await store.pending(100)).map((p) => p.cfbId)).toEqual([E]);
    // Live: A, C (embedded) and E (pending).
    expect(await store.counts()).toEqual({ embedded: 2, pending: 1 });
    expect(await nearestIds(store, vec(0, 1, 0, 0))).toEqual([C, A]);
    expect(await nearestIds(store, vec(-1, 0, 0, 0))).not.toContain(D);
  });

  it("samples the same live vectors every time, in id order", async () => {
    await store.write([{ cfbId: E, version: 1, vector: vec(0, 0, 0, 1) }]);
    const sample = await store.sample(10);
    expect(sample).toEqual([vec(0, 0, 1, 0), vec(0.8, 0.6, 0, 0), vec(0, 0, 0, 1)]); // A, C, E; not merged B
    expect(await store.sample(2)).toEqual(sample.slice(0, 2));
    expect(await store.counts()).toEqual({ embedded: 3, pending: 0 });
  });

  it("finds what another process wrote, at its next search", async () => {
    const other = await createPrismaClient(database.url);
    try {
      const theirs = await createRepositories(other).cfbs.openVectors("model-a", 4);
      await theirs.write([{ cfbId: E, version: 1, vector: vec(0, 0, 0.1, 1) }]);
      expect(await nearestIds(store, vec(0, 0, 0, 1), 1)).toEqual([E]);
      // Rewritten a millisecond later (within the window read again), the new vector replaces it.
      const written = Date.now();
      while (Date.now() === written) await Promise.resolve();
      await theirs.write([{ cfbId: E, version: 1, vector: vec(0, -1, 0, 0) }]);
      expect(await nearestIds(store, vec(0, -1, 0, 0), 1)).toEqual([E]);
    } finally {
      await other.$disconnect();
    }
  });

  it("holds another model's vectors when opened for it; the old model's are not used", async () => {
    const b = await repos.cfbs.openVectors("model-b", 3);
    expect(await b.nearest(vec(1, 0, 0), 10)).toEqual([]);
    expect((await b.pending(100)).map((p) => p.cfbId)).toEqual([A, C, E]);
    expect(await b.counts()).toEqual({ embedded: 0, pending: 3 });
    expect(await b.similarities(vec(1, 0, 0), [A])).toEqual(new Map());
    expect(await b.sample(10)).toEqual([]);

    await b.write([
      { cfbId: A, version: 2, vector: vec(0, 0, 1) },
      { cfbId: C, version: 1, vector: vec(0, 1, 0) },
    ]);
    expect(await nearestIds(b, vec(0, 0.1, 1))).toEqual([A, C]);
    expect(await b.counts()).toEqual({ embedded: 2, pending: 1 });
    expect((await b.similarities(vec(0, 0, 1), [A])).get(A)).toBeCloseTo(1, 5);
    await expect(b.write([{ cfbId: E, version: 1, vector: vec(0, 0, 0, 1) }])).rejects.toThrow(E);

    // Back to model-a: read again from its stored vectors of the live CFBs (not B).
    const a = await repos.cfbs.openVectors("model-a", 4);
    expect(await nearestIds(a, vec(1, 1, 0.5, 0.1))).toEqual([C, A, E]);
    expect(await a.counts()).toEqual({ embedded: 3, pending: 0 });
  });

  it("holds another dimension of the same model without the vectors of the old one", async () => {
    const wide = await repos.cfbs.openVectors("model-a", 6);
    expect(await wide.nearest(vec(1, 0, 0, 0, 0, 0), 10)).toEqual([]);
    await wide.write([{ cfbId: C, version: 1, vector: vec(0, 0, 0, 0, 0, 1) }]);
    expect(await nearestIds(wide, vec(0, 0, 0, 0, 1, 1))).toEqual([C]);
    // A vector of the old dimension is as good as none: pending again, never handed out.
    const pendingIds = (await wide.pending(100)).map((p) => p.cfbId);
    expect(pendingIds).not.toContain(C);
    expect(pendingIds.length).toBe((await wide.counts()).pending);
    expect((await wide.sample(100)).every((v) => v.length === 6)).toBe(true);
  });
});
