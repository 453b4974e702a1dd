// The PostgreSQL migration applier (`prisma migrate deploy` equivalent), like the SQLite one
// (dialect/sqlite/migrations.ts): the committed prisma/postgres/migrations, recorded in Prisma's
// own `_prisma_migrations` table. Creates the database when it is missing. Several processes
// deploying at once (N web instances starting together) take turns on an advisory lock, and
// each migration is one transaction: it is applied completely or not at all.
import { randomUUID } from "node:crypto";
import pg from "pg";
import {
  listMigrations,
  type MigrateOptions,
  migrationTimestamp as now,
  pendingMigrations,
  prismaFolder,
  sha256,
  type TAppliedMigration,
} from "../migration-files";
import { databaseName, siblingUrl } from "./database-url";

/** `<repo>/prisma/postgres/migrations`. */
export function defaultPostgresMigrationsDir(): string {
  return prismaFolder("postgres", "migrations");
}

// Same DDL the Prisma schema engine uses for PostgreSQL.
const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

// Any constant, the same in every process: the key of the migration lock.
const MIGRATION_LOCK = 7101984000;

/** Creates the database of `databaseUrl` when it does not exist (as its own user, on the same server). */
async function ensurePostgresDatabase(databaseUrl: string): Promise<boolean> {
  const name = databaseName(databaseUrl);
  const admin = new pg.Client({ connectionString: siblingUrl(databaseUrl) });
  await admin.connect();
  try {
    const found = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (found.rowCount) return false;
    try {
      await admin.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
      return true;
    } catch (error) {
      // Another process created it first: 42P04, or 23505 when both got past the catalog check.
      const code = (error as { code?: string }).code;
      if (code === "42P04" || code === "23505") return false;
      throw error;
    }
  } finally {
    await admin.end();
  }
}

export async function migratePostgres(databaseUrl: string, opts: MigrateOptions = {}): Promise<{ applied: string[] }> {
  const dir = opts.migrationsDir ?? defaultPostgresMigrationsDir();
  const log = opts.log ?? (() => {});
  const migrations = listMigrations(dir);
  if (await ensurePostgresDatabase(databaseUrl)) log(`created database ${databaseName(databaseUrl)}`);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // Not a transaction-scoped lock: it is held across the migrations' own transactions.
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
    await client.query(CREATE_MIGRATIONS_TABLE);
    const { rows } = await client.query<TAppliedMigration>(
      `SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL`,
    );
    const applied: string[] = [];
    for (const { name, sql } of pendingMigrations(migrations, rows)) {
      const startedAt = now();
      try {
        await client.query("BEGIN");
        await client.query(sql);
        await client.query(
          `INSERT INTO "_prisma_migrations"
             (id, checksum, finished_at, migration_name, logs, rolled_back_at, started_at, applied_steps_count)
           VALUES ($1, $2, $3, $4, NULL, NULL, $5, 1)`,
          [randomUUID(), sha256(sql), now(), name, startedAt],
        );
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw new Error(`migration ${name} failed: ${(error as Error).message}`, { cause: error });
      }
      applied.push(name);
      log(`applied ${name}`);
    }
    return { applied };
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => {});
    await client.end();
  }
}
