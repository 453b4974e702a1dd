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

/** DATABASE_URL when set (and not empty), else the default. */
export function resolveDatabaseUrl(value: string | undefined = process.env.DATABASE_URL): string {
  return value || defaultDatabaseUrl();
}

/**
 * Filesystem path of a SQLite `file:` URL: `file:/abs`, `file:///abs` and `file:./rel`. A
 * relative path is resolved against the repository root, not the cwd: pnpm runs each package's
 * scripts in that package's folder, and the migrate script, the seed script and the server must
 * all open the same file.
 */
export function databaseFilePath(databaseUrl: string): string {
  if (!databaseUrl.startsWith("file:")) {
    throw new Error(`expected a SQLite file: URL, got "${databaseUrl}"`);
  }
  if (databaseUrl.startsWith("file://")) return fileURLToPath(databaseUrl);
  return path.resolve(/* turbopackIgnore: true */ repositoryRoot(), databaseUrl.slice("file:".length));
}
