// Visibility at the database (issue 19, migration *_cfb_visibility): a CFB written before the
// migration stays shared knowledge (the new column's default), found by every reader; the reads
// say who may see what in one place (repositories/cfb-visibility.ts).
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ALL_CFBS, createPrismaClient, createRepositories, inScope, visibleTo } from "../src";
import { migrateDatabase, sqlDriverOf } from "../src/client";
import { defaultMigrationsDir } from "../src/dialect/sqlite/migrations";
import { Prisma } from "../src/generated/prisma/client";

const tmp = mkdtempSync(path.join(tmpdir(), "solserver-visibility-test-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("the *_cfb_visibility migration", () => {
  it("leaves every CFB written before it shared: listed, read and found for every reader", {
    timeout: 60_000,
  }, async () => {
    const all = readdirSync(defaultMigrationsDir(), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    const at = all.findIndex((name) => name.endsWith("_cfb_visibility"));
    expect(at).toBeGreaterThan(0);
    const dir = path.join(tmp, "migrations");
    mkdirSync(dir);
    cpSync(path.join(defaultMigrationsDir(), "migration_lock.toml"), path.join(dir, "migration_lock.toml"));
    for (const name of all.slice(0, at))
      cpSync(path.join(defaultMigrationsDir(), name), path.join(dir, name), { recursive: true });
    const url = `file:${path.join(tmp, "before-visibility.db")}`;
    await migrateDatabase(url, { migrationsDir: dir });
    const client = await createPrismaClient(url);
    try {
      const now = new Date();
      // The columns the schema had before visibility (the latest writer would name the new one).
      await sqlDriverOf(client).execute(Prisma.sql`INSERT INTO "Cfb" ("id", "domain", "kind", "confidence", "title",
          "summary", "text", "tags", "entities", "trustTier", "sourceRefs", "version", "seq", "createdAt", "updatedAt")
        VALUES ('CFB-0001', 'ops', 'heuristic', 0.7, 'Legacy zephyr knowledge', 'Approved before visibility existed.',
          NULL, '["zephyr"]', '[]', 'user_approved', '[]', 1, 1, ${now}, ${now})`);
      for (const name of all.slice(at))
        cpSync(path.join(defaultMigrationsDir(), name), path.join(dir, name), { recursive: true });
      await migrateDatabase(url, { migrationsDir: dir });

      const repos = createRepositories(client);
      const listed = await repos.cfbs.list({ limit: 10, scope: visibleTo("someone") });
      expect(listed.items.map((c) => [c.cfb_id, c.visibility, c.private_to])).toEqual([["CFB-0001", "shared", null]]);
      expect((await repos.cfbs.get("CFB-0001", visibleTo(null)))?.visibility).toBe("shared");
      expect(await repos.cfbs.owner("CFB-0001")).toEqual({ privateToId: null });
      const found = await repos.cfbs.candidates({ terms: ["zephyr", "legaci"] }, { visibleTo: null });
      expect(found.map((c) => c.cfb_id)).toEqual(["CFB-0001"]);
      expect((await repos.cfbs.retrievable(["CFB-0001"])).map((c) => c.cfb_id)).toEqual(["CFB-0001"]);
    } finally {
      await client.$disconnect();
    }
  });
});

describe("scopes", () => {
  it("a Jam editor's scope holds every CFB; a user's the shared ones and their own", () => {
    expect(inScope(ALL_CFBS, "alice")).toBe(true);
    expect(inScope(ALL_CFBS, null)).toBe(true);
    expect(inScope(visibleTo("alice"), null)).toBe(true);
    expect(inScope(visibleTo("alice"), "alice")).toBe(true);
    expect(inScope(visibleTo("alice"), "bob")).toBe(false);
    expect(inScope(visibleTo(null), "alice")).toBe(false);
    expect(inScope(visibleTo(null), null)).toBe(true);
  });
});
