// One place that decides where the database lives, shared by the app, `pnpm db:migrate`
// and tests, so they cannot disagree about the default file.
import { existsSync } from "node:fs";
import path from "node:path";
import { databaseUrlVariable } from "./env";

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
export function resolveDatabaseUrl(value: string | undefined = databaseUrlVariable()): string {
  return value || defaultDatabaseUrl();
}
