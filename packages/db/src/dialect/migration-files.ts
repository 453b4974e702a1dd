// The committed migrations as both appliers read them (the standard Prisma layout:
// `<timestamp>_<name>/migration.sql`), and the checks they share before applying anything.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export interface MigrateOptions {
  /** Defaults to the dialect's folder under `<repo>/prisma`. */
  migrationsDir?: string;
  log?: (line: string) => void;
}

/**
 * A folder under `<repo>/prisma`, from this file's location. Written with path.resolve rather than
 * `new URL(rel, import.meta.url)`: bundlers (Next) treat the latter as an asset import.
 */
export function prismaFolder(...segments: string[]): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return path.resolve(here, "../../../../prisma", ...segments);
}

export type TMigrationFile = { name: string; sql: string };
export type TAppliedMigration = { migration_name: string; checksum: string; finished_at: unknown };

export const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

// A checkout with CRLF line endings must not look "edited" (Prisma tolerates this too).
function checksumMatches(sql: string, checksum: string): boolean {
  return sha256(sql) === checksum || sha256(sql.replace(/\r\n/g, "\n")) === checksum;
}

export function listMigrations(dir: string): TMigrationFile[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => ({ name, sql: readFileSync(path.join(dir, name, "migration.sql"), "utf8") }));
}

/**
 * Checks the whole history before touching anything: an applied migration whose file changed
 * means this database and the repository disagree about the schema. Returns the names to apply.
 */
export function pendingMigrations(migrations: TMigrationFile[], applied: TAppliedMigration[]): TMigrationFile[] {
  const byName = new Map(applied.map((row) => [row.migration_name, row]));
  for (const { name, sql } of migrations) {
    const row = byName.get(name);
    if (!row) continue;
    if (row.finished_at === null)
      throw new Error(`migration ${name} failed on a previous run; fix the database by hand`);
    if (!checksumMatches(sql, row.checksum))
      throw new Error(
        `migration ${name} was edited after it was applied (checksum mismatch); ` +
          "restore the file and put the change in a new migration",
      );
  }
  return migrations.filter(({ name }) => !byName.has(name));
}

// Prisma stores `2026-01-01T00:00:00.000+00:00`; keep the same shape.
export const migrationTimestamp = () => new Date().toISOString().replace("Z", "+00:00");
