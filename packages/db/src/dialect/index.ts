import type { TDialect } from "./dialect";
import { postgresDialect } from "./postgres";
import { isPostgresUrl, postgresUrlProblem } from "./postgres/database-url";
import { sqliteDialect } from "./sqlite";
import { databaseFilePath } from "./sqlite/database-file";

/** Why this build cannot open a DATABASE_URL, or null when it can. */
export function databaseUrlProblem(databaseUrl: string): string | null {
  if (databaseUrl.startsWith("file:")) return null;
  if (isPostgresUrl(databaseUrl)) return postgresUrlProblem(databaseUrl);
  return "must be a SQLite file: URL (file:.data/solserver.db) or a PostgreSQL URL (postgresql://user:password@host:5432/database)";
}

/** The dialect of a DATABASE_URL: `file:` is the embedded SQLite database, `postgresql://` a server. */
export function dialectFor(databaseUrl: string): TDialect {
  const problem = databaseUrlProblem(databaseUrl);
  if (problem) throw new Error(`DATABASE_URL: ${problem}`);
  return isPostgresUrl(databaseUrl) ? postgresDialect : sqliteDialect;
}

/**
 * Where a DATABASE_URL points, for messages and logs: a SQLite file's path, or a PostgreSQL URL
 * without its password.
 */
export function databaseLabel(databaseUrl: string): string {
  if (!isPostgresUrl(databaseUrl)) return databaseFilePath(databaseUrl);
  const url = new URL(databaseUrl);
  if (url.password) url.password = "***";
  url.search = "";
  return url.toString();
}

export type { TDialect, TSqlDialect, TStorage } from "./dialect";
