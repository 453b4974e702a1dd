import type pg from "pg";
import { poolSize } from "../../env";

/** Whether a DATABASE_URL names a PostgreSQL database. */
export function isPostgresUrl(databaseUrl: string): boolean {
  return /^postgres(ql)?:\/\//i.test(databaseUrl);
}

/** Why a postgresql:// URL cannot be used, or null. */
export function postgresUrlProblem(databaseUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(databaseUrl);
  } catch {
    return "is not a valid postgresql:// URL";
  }
  if (!url.hostname) return "names no host (postgresql://user:password@host:5432/database)";
  if (url.pathname.replace(/^\//, "") === "")
    return "names no database (postgresql://user:password@host:5432/database)";
  return null;
}

/** The database name of a postgresql:// URL. */
export function databaseName(databaseUrl: string): string {
  return decodeURIComponent(new URL(databaseUrl).pathname.replace(/^\//, ""));
}

/** The same server, another database (the maintenance database `postgres` by default). */
export function siblingUrl(databaseUrl: string, database = "postgres"): string {
  const url = new URL(databaseUrl);
  url.pathname = `/${encodeURIComponent(database)}`;
  return url.toString();
}

/**
 * The pool of one process: at most SOLSERVER_DB_POOL connections (default 10), idle ones closed
 * after 30 s, and a connection attempt that gives up after 10 s instead of hanging a request.
 * Every session runs in UTC (nothing depends on it: timestamps are timestamptz, days are taken
 * `AT TIME ZONE 'UTC'`, but logs and psql sessions then agree with the app), and plans every
 * prepared statement for its values (`plan_cache_mode`): a generic plan for an IN list of ids
 * cannot know it selects 24 rows of 100,000.
 */
export function poolConfig(databaseUrl: string): pg.PoolConfig {
  return {
    connectionString: databaseUrl,
    max: poolSize(),
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 10_000,
    options: "-c TimeZone=UTC -c plan_cache_mode=force_custom_plan",
    application_name: "solserver",
  };
}
