// One place that decides where the SQLite database lives, shared by the app, `pnpm db:migrate`
// and tests, so they cannot disagree about the default file.
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The repository root: the nearest folder at or above the cwd holding pnpm-workspace.yaml.
 * Found from the cwd, not from import.meta.url, because inside a Next server bundle this
 * module's URL points into .next/, not into packages/db.
 */
export function repositoryRoot(start: string = process.cwd()): string {
  let dir = path.resolve(/* turbopackIgnore: true */ start);
  for (;;) {
    if (existsSync(path.join(dir, "pnpm-workspace.yaml"))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return path.resolve(/* turbopackIgnore: true */ start);
    dir = parent;
  }
}

/** `file:<repo>/.data/solserver.db`: the embedded database every command agrees on. */
export function defaultDatabaseUrl(): string {
  return `file:${path.join(repositoryRoot(), ".data", "solserver.db")}`;
}

/** DATABASE_URL when set, else the default. */
export function resolveDatabaseUrl(env: NodeJS.ProcessEnv = process.env): string {
  return env.DATABASE_URL || defaultDatabaseUrl();
}

/**
 * Filesystem path of a SQLite `file:` URL: `file:/abs`, `file:./rel` (relative to the cwd, as
 * @prisma/adapter-better-sqlite3 resolves it) and `file:///abs` are accepted.
 */
export function databaseFilePath(databaseUrl: string): string {
  if (!databaseUrl.startsWith("file:")) {
    throw new Error(`expected a SQLite file: URL, got "${databaseUrl}"`);
  }
  if (databaseUrl.startsWith("file://")) return fileURLToPath(databaseUrl);
  return path.resolve(/* turbopackIgnore: true */ process.cwd(), databaseUrl.slice("file:".length));
}
