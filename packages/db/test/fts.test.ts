// The CFB full-text index (SQLite: migration *_cfb_fts, FTS5; PostgreSQL: *_search_and_change_log,
// tsvector + GIN): kept in sync by the database on create, update and delete, still in sync after
// every later SQLite migration (Prisma's table rewrites drop triggers), and searched with user text
// that can never become query syntax. The same tests run on both databases.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient, createRepositories, type DbClient, type TRepositories } from "../src";
import { migrateDatabase, sqlDriverOf } from "../src/client";
import { dialectFor } from "../src/dialect";
import { ftsHealth } from "../src/dialect/sqlite/fts";
import { defaultMigrationsDir } from "../src/dialect/sqlite/migrations";
import { Prisma } from "../src/generated/prisma/client";
import { createTestDatabase, type TTestDatabase } from "../src/testing";

let database: TTestDatabase;
let db: DbClient;
let repos: TRepositories;

const draft = (title: string, summary: string, tags: string[] = [], entities: string[] = []) => ({
  domain: "ops",
  kind: "authoritative" as const,
  confidence: 0.9,
  title,
  summary,
  text: null,
  tags,
  entities,
  trust_tier: "user_approved" as const,
  source_refs: [],
});

beforeAll(async () => {
  database = await createTestDatabase("fts");
  db = await createPrismaClient(database.url);
  repos = createRepositories(db);
});
afterAll(async () => {
  await db.$disconnect();
  database.cleanup();
});

/** The index's health on the database under test (SQLite's FTS5 table, or PostgreSQL's CfbSearch). */
const health = () => dialectFor(database.url).textIndexHealth(sqlDriverOf(db));

// What the full-text index finds for one word (the /cfbs browse search).
const ids = async ([word]: string[]) => (await repos.cfbs.list({ query: word, limit: 50 })).items.map((c) => c.cfb_id);

describe("sync by triggers", () => {
  it("indexes a created CFB, follows its edits and forgets it when deleted", async () => {
    const created = await repos.cfbs.create(
      draft("Credential rotation", "Rotate credentials every 90 days.", ["security"]),
    );
    expect(await ids(["rotation"])).toEqual([created.cfb_id]);
    expect(await ids(["security"])).toEqual([created.cfb_id]);
    expect((await health()).ok).toBe(true);

    await db.cfb.update({
      where: { id: created.cfb_id },
      data: { title: "Key renewal", summary: "Renew keys monthly." },
    });
    expect(await ids(["rotation"])).toEqual([]);
    expect(await ids(["renewal"])).toEqual([created.cfb_id]);
    // A change outside the indexed columns leaves the index alone and healthy.
    await db.cfb.update({ where: { id: created.cfb_id }, data: { lastAccessedAt: new Date() } });
    expect((await health()).ok).toBe(true);

    await db.cfb.delete({ where: { id: created.cfb_id } });
    expect(await ids(["renewal"])).toEqual([]);
    expect(await health()).toMatchObject({ ok: true, cfbs: 0, indexed: 0, counted: 0 });
  });

  it("indexes a bulk import like single creates (rows, revisions, stats, index, count)", async () => {
    const before = await db.cfb.count();
    const drafts = Array.from({ length: 1200 }, (_, i) =>
      draft(`Imported ${i}`, `Bulk block number ${i} about zebu${i}.`),
    );
    const imported = await repos.cfbs.import(drafts);
    expect(imported).toHaveLength(1200);
    expect(new Set(imported).size).toBe(1200);
    expect(await db.cfb.count()).toBe(before + 1200);
    // Every CFB, imported or created, has its first revision and a stats row.
    expect(await db.cfbRevision.count({ where: { version: 1 } })).toBe(before + 1200);
    expect(await db.cfbStats.count()).toBe(before + 1200);
    expect(await health()).toMatchObject({ ok: true, cfbs: before + 1200 });
    const detail = await repos.cfbs.get(imported[5] as string);
    expect(detail).toMatchObject({
      title: "Imported 5",
      version: 1,
      revisions: [{ version: 1, change_kind: "create" }],
    });
    expect(await ids(["zebu1199"])).toEqual([imported[1199]]);
  });
});

describe("browse search (cfbs.list with a query)", () => {
  it("matches every word, the last as a prefix, never as FTS syntax, and pages newest first", async () => {
    const one = await repos.cfbs.create(
      draft("Nightly export schedule", "The nightly export runs at 2am UTC.", ["exports"]),
    );
    const two = await repos.cfbs.create(draft("Weekly export", "Exports of the week run on Sundays.", ["exports"]));
    const titles = async (query: string) => (await repos.cfbs.list({ query, limit: 50 })).items.map((c) => c.cfb_id);
    expect(await titles("nightly exp")).toEqual([one.cfb_id]);
    expect(await titles("export")).toEqual(expect.arrayContaining([one.cfb_id, two.cfb_id]));
    expect(await titles("nightly weekly")).toEqual([]);
    // A typo: nothing has every word as typed, so the near spellings answer, and say so.
    const typo = await repos.cfbs.list({ query: "nigthly exprot", limit: 50 });
    expect(typo).toMatchObject({ near_spellings: true, next_cursor: null });
    expect(typo.items.map((c) => c.cfb_id)).toEqual([one.cfb_id]);
    expect(await titles("nightly wekly")).toEqual([]);
    for (const query of ['"AND (OR', "NEAR(", "title:foo*", "^x", "-", "%_"]) {
      await expect(repos.cfbs.list({ query, limit: 5 })).resolves.toHaveProperty("items");
    }
    // An id typed as people type it finds that CFB (and only it).
    const number = Number(one.cfb_id.slice(4));
    for (const query of [one.cfb_id, one.cfb_id.toLowerCase(), ` cfb ${number} `, `CFB${number}`])
      expect(await titles(query)).toEqual([one.cfb_id]);
    expect(await titles("CFB-99999")).toEqual([]);
    // Newest first, across pages, each once.
    const first = await repos.cfbs.list({ query: "export", limit: 1 });
    expect(first.items[0]?.cfb_id).toBe(two.cfb_id);
    const second = await repos.cfbs.list({ query: "export", limit: 1, cursor: first.next_cursor as string });
    expect(second.items[0]?.cfb_id).toBe(one.cfb_id);
  });
});

describe("after every migration", () => {
  const tmp = mkdtempSync(path.join(tmpdir(), "solserver-fts-migrations-"));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it("the index matches the CFB table after each migration from the FTS one on", async () => {
    const all = readdirSync(defaultMigrationsDir(), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    const ftsAt = all.findIndex((name) => name.endsWith("_cfb_fts"));
    expect(ftsAt).toBeGreaterThan(0);
    const dir = path.join(tmp, "migrations");
    mkdirSync(dir);
    cpSync(path.join(defaultMigrationsDir(), "migration_lock.toml"), path.join(dir, "migration_lock.toml"));
    const url = `file:${path.join(tmp, "stepwise.db")}`;
    // Up to the migration before the index, with CFBs already there: the index must pick them up.
    for (const name of all.slice(0, ftsAt))
      cpSync(path.join(defaultMigrationsDir(), name), path.join(dir, name), { recursive: true });
    await migrateDatabase(url, { migrationsDir: dir });
    const client = await createPrismaClient(url);
    // The columns every schema version on the way has (the generated client and the import know
    // only the latest, which may need later ones).
    let n = 0;
    const insert = (title: string, tags: string[]) => {
      n += 1;
      const now = new Date();
      return sqlDriverOf(client).execute(Prisma.sql`INSERT INTO "Cfb" ("id", "domain", "kind", "confidence", "title",
          "summary", "text", "tags", "entities", "trustTier", "sourceRefs", "version", "createdAt", "updatedAt")
        VALUES (${`CFB-${9000 + n}`}, 'ops', 'authoritative', 0.9, ${title}, 'Written along the migrations.', NULL,
          ${JSON.stringify(tags)}, '[]', 'user_approved', '[]', 1, ${now}, ${now})`);
    };
    try {
      await insert("Before the index", ["legacy"]);
      for (const name of all.slice(ftsAt)) {
        cpSync(path.join(defaultMigrationsDir(), name), path.join(dir, name), { recursive: true });
        await migrateDatabase(url, { migrationsDir: dir });
        await insert(`After ${name}`, ["fresh"]);
        const health = await ftsHealth(sqlDriverOf(client));
        expect(health, name).toMatchObject({ ok: true });
        // The index itself (not the latest search code, which may need later columns).
        const [hit] = await sqlDriverOf(client).query<{ n: number }>(
          Prisma.sql`SELECT COUNT(*) AS "n" FROM "CfbFts" WHERE "CfbFts" MATCH ${'"legacy"'}`,
        );
        expect(Number(hit?.n), name).toBe(1);
      }
    } finally {
      await client.$disconnect();
    }
  });
});
