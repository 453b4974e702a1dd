// Migration tooling: the committed migrations must describe schema.prisma exactly (drift), and
// the runtime applier must apply them once, in WAL mode, and refuse edited history.
// Timeouts are per test (not in a config file) so the root `pnpm vitest run <file>` works too.
import {
  appendFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ZScoredCandidate } from "@solserver/contracts";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { diffMigrationsToSchema } from "../scripts/schema-engine";
import { migrateDatabase } from "../src/client";
import { repositoryRoot } from "../src/database-url";
import { databaseFilePath } from "../src/dialect/sqlite/database-file";
import { defaultMigrationsDir } from "../src/dialect/sqlite/migrations";

const tmp = mkdtempSync(path.join(tmpdir(), "solserver-migrations-test-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const migrationNames = () =>
  readdirSync(defaultMigrationsDir(), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();

/** A private copy of prisma/migrations that a test may edit. */
function copyMigrations(label: string): string {
  const dir = path.join(tmp, `${label}-migrations`);
  cpSync(defaultMigrationsDir(), dir, { recursive: true });
  return dir;
}

const tables = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map(
      (r) => r.name,
    );
  } finally {
    db.close();
  }
};

describe("prisma/migrations", () => {
  it("matches schema.prisma (no drift)", async () => {
    // Non-empty means schema.prisma changed without a migration: run `pnpm db:migration:new <name>`.
    expect(await diffMigrationsToSchema()).toBe("");
  });
});

describe("migrateDatabase", () => {
  it("applies every migration to a fresh file once, in WAL mode", {
    timeout: 60_000,
  }, async () => {
    const file = path.join(tmp, "fresh/nested/dir/app.db"); // parent dirs do not exist yet
    const lines: string[] = [];
    const first = await migrateDatabase(`file:${file}`, {
      log: (l) => lines.push(l),
    });
    expect(first.applied).toEqual(migrationNames());
    expect(lines).toEqual(migrationNames().map((n) => `applied ${n}`));
    expect(tables(file)).toEqual(expect.arrayContaining(["_prisma_migrations", "Cfb", "UmbraProposal", "Thread"]));

    const db = new Database(file, { readonly: true });
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    const rows = db.prepare('SELECT migration_name, checksum, finished_at FROM "_prisma_migrations"').all();
    db.close();
    expect(rows).toHaveLength(migrationNames().length);
    expect(rows[0]).toMatchObject({
      checksum: expect.stringMatching(/^[0-9a-f]{64}$/),
      finished_at: expect.any(String),
    });

    expect((await migrateDatabase(`file:${file}`)).applied).toEqual([]);
  });

  it("resolves file:./relative URLs against the repository root, from any package folder", {
    timeout: 60_000,
  }, async () => {
    const root = repositoryRoot();
    const name = `.data/relative-${process.pid}-${Date.now()}.db`;
    const cwd = process.cwd();
    process.chdir(path.join(root, "packages", "db"));
    try {
      await migrateDatabase(`file:./${name}`);
    } finally {
      process.chdir(cwd);
    }
    const file = path.join(root, name);
    try {
      expect(tables(file)).toContain("Cfb");
      expect(databaseFilePath(`file:./${name}`)).toBe(file);
    } finally {
      for (const suffix of ["", "-wal", "-shm"]) rmSync(`${file}${suffix}`, { force: true });
    }
  });

  it("resolves relative URLs against the cwd outside any repository", () => {
    const cwd = process.cwd();
    process.chdir(tmp);
    try {
      expect(databaseFilePath("file:./outside/app.db")).toBe(path.join(tmp, "outside/app.db"));
    } finally {
      process.chdir(cwd);
    }
  });

  it("throws, naming the migration, when an applied migration was edited", {
    timeout: 60_000,
  }, async () => {
    const dir = copyMigrations("edited");
    const url = `file:${path.join(tmp, "edited.db")}`;
    await migrateDatabase(url, { migrationsDir: dir });
    const firstName = migrationNames()[0] ?? "";
    appendFileSync(path.join(dir, firstName, "migration.sql"), "\n-- edited later\n");
    await expect(migrateDatabase(url, { migrationsDir: dir })).rejects.toThrow(
      new RegExp(`${firstName}.*edited after it was applied`),
    );
  });

  it("applies a later migration only, and a table rewrite keeps child rows", {
    timeout: 60_000,
  }, async () => {
    const dir = copyMigrations("later");
    const file = path.join(tmp, "later.db");
    await migrateDatabase(`file:${file}`, { migrationsDir: dir });
    const db = new Database(file);
    db.exec(`INSERT INTO "Thread" (id, title, updatedAt) VALUES ('t1', 'x', CURRENT_TIMESTAMP);
             INSERT INTO "Message" (id, threadId, role, content) VALUES ('m1', 't1', 'user', 'hi');`);
    db.close();

    // Shape of Prisma's "RedefineTables" SQL: DROP of a parent table. With foreign keys enforced
    // that DROP would cascade-delete the Message rows; the applier must prevent that.
    const name = "99990101000000_rewrite_thread";
    mkdirSync(path.join(dir, name));
    writeFileSync(
      path.join(dir, name, "migration.sql"),
      `PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Thread" ("id" TEXT NOT NULL PRIMARY KEY, "title" TEXT NOT NULL,
  "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP, "updatedAt" DATETIME NOT NULL,
  "archived" BOOLEAN NOT NULL DEFAULT false);
INSERT INTO "new_Thread" ("id", "title", "createdAt", "updatedAt") SELECT "id", "title", "createdAt", "updatedAt" FROM "Thread";
DROP TABLE "Thread";
ALTER TABLE "new_Thread" RENAME TO "Thread";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
`,
    );
    expect((await migrateDatabase(`file:${file}`, { migrationsDir: dir })).applied).toEqual([name]);
    const after = new Database(file, { readonly: true });
    expect(after.prepare('SELECT id FROM "Message"').all()).toEqual([{ id: "m1" }]);
    after.close();
  });

  it("rewrites resolve decisions stored before the candidate index to today's score shape", () => {
    const name = migrationNames().find((n) => n.endsWith("_resolve_scores_text_similarity")) as string;
    const legacy = [
      {
        cfb_id: "CFB-0001",
        score: 0.42,
        components: { bm25_norm: 0.61, tag_overlap: 0, entity_overlap: null, title_similarity: 0.3 },
      },
    ];
    // The migration's SQL on the one table it touches (its other columns do not matter to it).
    const db = new Database(":memory:");
    db.exec(`CREATE TABLE "UmbraResolveDecision" ("id" TEXT PRIMARY KEY, "scores" JSONB NOT NULL)`);
    db.prepare(`INSERT INTO "UmbraResolveDecision" VALUES ('RD-1', ?), ('RD-2', '[]')`).run(JSON.stringify(legacy));
    db.exec(readFileSync(path.join(defaultMigrationsDir(), name, "migration.sql"), "utf8"));
    const rows = db.prepare(`SELECT scores FROM "UmbraResolveDecision" ORDER BY id`).all() as { scores: string }[];
    db.close();
    const [candidate] = JSON.parse(rows[0]?.scores ?? "[]") as unknown[];
    expect(ZScoredCandidate.parse(candidate).components).toEqual({
      text_similarity: 0.61,
      tag_overlap: 0,
      entity_overlap: null,
      title_similarity: 0.3,
      semantic_similarity: null,
      new_share: 0,
    });
    expect(rows[1]?.scores).toBe("[]");
  });
});
