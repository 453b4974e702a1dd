import path from "node:path";
import { fileURLToPath } from "node:url";
import { repositoryRoot } from "../../database-url";

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
