// Runtime migration applier (`prisma migrate deploy` equivalent) used by the app, by
// `pnpm db:migrate` and by tests.
//
// Why not the schema engine: the native engine cannot be downloaded here and the wasm one is a
// 5 MB internal API. Applying committed SQL files needs neither: this reads the standard Prisma
// layout (`<timestamp>_<name>/migration.sql`) and records progress in Prisma's own
// `_prisma_migrations` table (same columns, sha256 checksums, ISO timestamps), so the Prisma
// tooling (e.g. the wasm engine's diagnoseMigrationHistory) can still read the history.
import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import {
  listMigrations,
  type MigrateOptions,
  migrationTimestamp as now,
  pendingMigrations,
  prismaFolder,
  sha256,
  type TAppliedMigration,
} from "../migration-files";
import { databaseFilePath } from "./database-file";

/** `<repo>/prisma/migrations`. */
export function defaultMigrationsDir(): string {
  return prismaFolder("migrations");
}

// Same DDL the Prisma schema engine uses for SQLite.
const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    TEXT PRIMARY KEY NOT NULL,
    "checksum"              TEXT NOT NULL,
    "finished_at"           DATETIME,
    "migration_name"        TEXT NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        DATETIME,
    "started_at"            DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count"   INTEGER UNSIGNED NOT NULL DEFAULT 0
)`;

export async function migrateSqlite(databaseUrl: string, opts: MigrateOptions = {}): Promise<{ applied: string[] }> {
  const dir = opts.migrationsDir ?? defaultMigrationsDir();
  const log = opts.log ?? (() => {});
  const migrations = listMigrations(dir);
  const file = databaseFilePath(databaseUrl);
  mkdirSync(path.dirname(file), { recursive: true });

  const db = new Database(file);
  try {
    // WAL lets the app read while a writer works; busy_timeout makes concurrent starters
    // (dev server + tests) wait for each other instead of failing with SQLITE_BUSY.
    db.pragma("journal_mode = WAL");
    db.pragma("busy_timeout = 5000");
    db.exec(CREATE_MIGRATIONS_TABLE);

    const rows = db
      .prepare(
        `SELECT migration_name, checksum, finished_at FROM "_prisma_migrations"
         WHERE rolled_back_at IS NULL`,
      )
      .all() as TAppliedMigration[];
    const applied: string[] = [];
    for (const { name, sql } of pendingMigrations(migrations, rows)) {
      if (applyOne(db, name, sql)) {
        applied.push(name);
        log(`applied ${name}`);
      }
    }
    return { applied };
  } finally {
    db.close();
  }
}

// Returns false when another process applied `name` while we waited for the write lock.
function applyOne(db: Database.Database, name: string, sql: string): boolean {
  // Prisma's table rewrites ("RedefineTables") DROP the old table; with foreign keys on, that
  // DROP runs an implicit DELETE that fires ON DELETE CASCADE on child tables. The script's own
  // `PRAGMA foreign_keys=OFF` is a no-op inside a transaction, so switch enforcement off around
  // it (only possible outside a transaction) and check integrity before committing instead.
  db.pragma("foreign_keys = OFF");
  try {
    // IMMEDIATE takes the write lock up front, so two concurrent migrators serialize here.
    db.exec("BEGIN IMMEDIATE");
    try {
      const done = db
        .prepare(`SELECT 1 FROM "_prisma_migrations" WHERE migration_name = ? AND rolled_back_at IS NULL`)
        .get(name);
      if (done) {
        db.exec("ROLLBACK");
        return false;
      }
      const startedAt = now();
      db.exec(sql);
      const violations = db.pragma("foreign_key_check") as unknown[];
      if (violations.length > 0) {
        throw new Error(`leaves ${violations.length} foreign key violation(s)`);
      }
      db.prepare(
        `INSERT INTO "_prisma_migrations"
           (id, checksum, finished_at, migration_name, logs, rolled_back_at, started_at, applied_steps_count)
         VALUES (?, ?, ?, ?, NULL, NULL, ?, 1)`,
      ).run(randomUUID(), sha256(sql), now(), name, startedAt);
      db.exec("COMMIT");
      return true;
    } catch (error) {
      if (db.inTransaction) db.exec("ROLLBACK");
      throw new Error(`migration ${name} failed: ${(error as Error).message}`, {
        cause: error,
      });
    }
  } finally {
    db.pragma("foreign_keys = ON");
  }
}
