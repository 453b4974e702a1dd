import { Prisma } from "../../generated/prisma/client";
import type { TSqlBase } from "../../sql";
import type { TStorage } from "../dialect";

// How much of the file the database uses and how much is free, and the two maintenance commands
// retention needs (docs/operations.md). Deleting rows does not shrink a SQLite file: the pages go
// to the freelist and new rows reuse them; VACUUM rewrites the file without them.

/** Pages in use and on the freelist; with `tables`, the bytes each table holds with its indexes. */
export async function sqliteStorage(sql: TSqlBase, tables?: readonly string[]): Promise<TStorage> {
  const [row] = await sql.query<{ pageSize: number; pages: number; free: number }>(
    Prisma.sql`SELECT (SELECT "page_size" FROM pragma_page_size()) AS "pageSize",
      (SELECT "page_count" FROM pragma_page_count()) AS "pages",
      (SELECT "freelist_count" FROM pragma_freelist_count()) AS "free"`,
  );
  const pageSize = Number(row?.pageSize ?? 0);
  const storage: TStorage = {
    fileBytes: Number(row?.pages ?? 0) * pageSize,
    freeBytes: Number(row?.free ?? 0) * pageSize,
    tables: {},
  };
  if (tables && tables.length > 0) {
    // dbstat (compiled into better-sqlite3) reads every page of the b-trees it is asked about.
    const rows = await sql.query<{ table: string; bytes: number }>(
      Prisma.sql`SELECT s."tbl_name" AS "table", SUM(d."pgsize") AS "bytes"
        FROM "dbstat" d JOIN "sqlite_schema" s ON s."name" = d."name"
        WHERE s."tbl_name" IN (${Prisma.join(tables)}) GROUP BY s."tbl_name"`,
    );
    for (const t of tables) storage.tables[t] = 0;
    for (const r of rows) storage.tables[r.table] = Number(r.bytes);
  }
  return storage;
}

/**
 * Rewrites the file without its free pages, then checkpoints the write-ahead log so that the file
 * on disk has the new size. VACUUM holds the write lock for the whole rewrite and needs free
 * disk space about the size of the database.
 */
export async function sqliteVacuum(sql: TSqlBase): Promise<void> {
  await sql.execute(Prisma.sql`VACUUM`);
  await sql.query(Prisma.sql`PRAGMA wal_checkpoint(TRUNCATE)`);
}

/**
 * The planner's statistics (sqlite_stat1 / stat4), sampled: analysis_limit bounds the rows read
 * per index, so this takes milliseconds on a database of any size.
 */
export async function sqliteAnalyze(sql: TSqlBase): Promise<void> {
  await sql.query(Prisma.sql`PRAGMA analysis_limit = 1000`);
  await sql.execute(Prisma.sql`ANALYZE`);
}
