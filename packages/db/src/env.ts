// The one place the database package reads its environment: DATABASE_URL (which database every
// command opens, database-url.ts), SOLSERVER_DB_POOL (connections per process on PostgreSQL) and,
// for the test suites, SOLSERVER_TEST_POSTGRES_URL. The server's own variables are parsed by the
// control plane's env.ts, which takes DATABASE_URL's default from here.

/** DATABASE_URL as set (undefined or empty: the embedded default). */
export function databaseUrlVariable(): string | undefined {
  return process.env.DATABASE_URL;
}

const DEFAULT_POOL = 10;

/** SOLSERVER_DB_POOL: a whole number from 1 to 500 (default 10); anything else stops the opener naming it. */
export function poolSize(): number {
  const raw = process.env.SOLSERVER_DB_POOL;
  const size = Number(raw ?? DEFAULT_POOL);
  if (!Number.isInteger(size) || size < 1 || size > 500)
    throw new Error(`SOLSERVER_DB_POOL must be a whole number from 1 to 500, got ${raw}`);
  return size;
}

/** The admin URL of the PostgreSQL server tests run on, or null (SQLite). */
export function testPostgresUrl(): string | null {
  return process.env.SOLSERVER_TEST_POSTGRES_URL || null;
}
