import { Prisma } from "../../generated/prisma/client";
import type { TSqlBase } from "../../sql";
import type { TStorage } from "../dialect";

// Size and maintenance on PostgreSQL (docs/operations.md). Deleted rows leave dead tuples that
// autovacuum makes reusable; `free` is the space those dead tuples hold, estimated from the
// statistics collector (PostgreSQL keeps no exact freelist like SQLite's).

export async function postgresStorage(sql: TSqlBase, tables?: readonly string[]): Promise<TStorage> {
  const [row] = await sql.query<{ size: number; free: number }>(
    Prisma.sql`SELECT pg_database_size(current_database()) AS "size",
      COALESCE((SELECT SUM(CASE WHEN s.n_live_tup + s.n_dead_tup = 0 THEN 0
        ELSE pg_table_size(s.relid)::float8 * s.n_dead_tup / (s.n_live_tup + s.n_dead_tup) END)
        FROM pg_stat_user_tables s), 0) AS "free"`,
  );
  const storage: TStorage = {
    fileBytes: Number(row?.size ?? 0),
    freeBytes: Math.round(Number(row?.free ?? 0)),
    tables: {},
  };
  if (tables && tables.length > 0) {
    const rows = await sql.query<{ table: string; bytes: number }>(
      Prisma.sql`SELECT c.relname AS "table", pg_total_relation_size(c.oid) AS "bytes"
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relname IN (${Prisma.join(tables)})`,
    );
    for (const t of tables) storage.tables[t] = 0;
    for (const r of rows) storage.tables[r.table] = Number(r.bytes);
  }
  return storage;
}

/** Plain VACUUM: marks dead tuples reusable without the exclusive lock VACUUM FULL would take. */
export async function postgresVacuum(sql: TSqlBase): Promise<void> {
  await sql.execute(Prisma.sql`VACUUM`);
}

export async function postgresAnalyze(sql: TSqlBase): Promise<void> {
  await sql.execute(Prisma.sql`ANALYZE`);
}
