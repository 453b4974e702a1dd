// The PostgreSQL server side of packages/db: its committed migrations (no drift, applied once,
// concurrent deploys), native types, and the search index kept by the database. Included in the
// run only when SOLSERVER_TEST_POSTGRES_URL names a server (vitest.config.ts); CI starts one.
import { readdirSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient, createRepositories, type DbClient, type TRepositories } from "../../src";
import { migrateDatabase, sqlDriverOf } from "../../src/client";
import { dialectFor } from "../../src/dialect";
import { Prisma } from "../../src/generated/prisma/client";
import { createTestDatabase, type TTestDatabase, testCfb, testPostgresUrl } from "../../src/testing";

const ROOT = path.resolve(import.meta.dirname, "../../../..");

const admin = testPostgresUrl() as string;

describe("on a PostgreSQL server", () => {
  let database: TTestDatabase;
  let db: DbClient;
  let repos: TRepositories;

  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    db = await createPrismaClient(database.url);
    repos = createRepositories(db);
  });
  afterAll(async () => {
    await db.$disconnect();
    await database.cleanup();
  });

  it("the committed migrations match prisma/postgres/schema.prisma (no drift)", { timeout: 120_000 }, async () => {
    // The engine works on the server this run was given, whatever port CI's cluster took.
    const previous = process.env.SOLSERVER_POSTGRES_ADMIN_URL;
    process.env.SOLSERVER_POSTGRES_ADMIN_URL = admin;
    try {
      const { diffPostgresMigrationsToSchema } = await import("../../scripts/schema-engine-postgres");
      expect(await diffPostgresMigrationsToSchema()).toBe("");
    } finally {
      if (previous === undefined) delete process.env.SOLSERVER_POSTGRES_ADMIN_URL;
      else process.env.SOLSERVER_POSTGRES_ADMIN_URL = previous;
    }
  });

  it("migrates a new database once, creating it, while other deploys wait their turn", {
    timeout: 60_000,
  }, async () => {
    const url = new URL(admin as string);
    url.pathname = `/solserver_deploy_${process.pid}_${Date.now()}`;
    const runs = await Promise.all([
      migrateDatabase(url.toString()),
      migrateDatabase(url.toString()),
      migrateDatabase(url.toString()),
    ]);
    const applied = runs.map((r) => r.applied.length);
    expect(applied.filter((n) => n > 0)).toHaveLength(1);
    const committed = readdirSync(path.join(ROOT, "prisma/postgres/migrations"), { withFileTypes: true }).filter((d) =>
      d.isDirectory(),
    ).length;
    expect(Math.max(...applied)).toBe(committed);
    expect((await migrateDatabase(url.toString())).applied).toEqual([]);
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    const { rows } = await client.query(
      `SELECT COUNT(*)::int AS n FROM "_prisma_migrations" WHERE finished_at IS NOT NULL`,
    );
    await client.end();
    expect(rows[0].n).toBe(Math.max(...applied));
    const drop = new pg.Client({ connectionString: admin as string });
    await drop.connect();
    await drop.query(`DROP DATABASE "${url.pathname.slice(1)}" WITH (FORCE)`);
    await drop.end();
  });

  it("stores timestamps as timestamptz and Json as jsonb, and reads them back as SQLite does", async () => {
    const sql = sqlDriverOf(db);
    const [types] = await sql.query<{ created: string; tags: string }>(
      Prisma.sql`SELECT (SELECT data_type FROM information_schema.columns WHERE table_name = 'Cfb' AND column_name = 'createdAt') AS "created",
        (SELECT data_type FROM information_schema.columns WHERE table_name = 'Cfb' AND column_name = 'tags') AS "tags"`,
    );
    expect(types).toEqual({ created: "timestamp with time zone", tags: "jsonb" });
    const cfb = await repos.cfbs.create(
      testCfb({ title: "Awning motor", summary: "Check the awning fuse.", tags: ["awning"] }),
    );
    const [row] = await sql.query<{ createdAt: unknown; tags: unknown; n: unknown }>(
      Prisma.sql`SELECT "createdAt", "tags", (SELECT COUNT(*) FROM "Cfb") AS "n" FROM "Cfb" WHERE "id" = ${cfb.cfb_id}`,
    );
    expect(row?.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/);
    expect(JSON.parse(String(row?.tags))).toEqual(["awning"]);
    expect(row?.n).toBe(1);
  });

  it("keeps the search index in the database: created, edited, deleted CFBs", async () => {
    const sql = sqlDriverOf(db);
    const health = () => dialectFor(database.url).textIndexHealth(sql);
    const a = await repos.cfbs.create(
      testCfb({ title: "Slide-out seal", summary: "Lubricate the slide-out seals twice a year." }),
    );
    expect((await health()).ok).toBe(true);
    const search = async (q: string) => (await repos.cfbs.list({ query: q, limit: 10 })).items.map((c) => c.cfb_id);
    expect(await search("slide seal")).toContain(a.cfb_id);
    expect(await search("lubric")).toContain(a.cfb_id);
    await db.cfb.update({ where: { id: a.cfb_id }, data: { summary: "Grease the rubber once a year." } });
    expect(await search("lubricate")).not.toContain(a.cfb_id);
    expect(await search("rubber")).toContain(a.cfb_id);
    expect((await health()).ok).toBe(true);
    // A stale document is caught.
    await sql.execute(
      Prisma.sql`UPDATE "CfbSearch" SET "document" = to_tsvector('simple', 'stale') WHERE "cfbId" = ${a.cfb_id}`,
    );
    expect((await health()).ok).toBe(false);
  });
});
