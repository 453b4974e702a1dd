// `db:copy` on SQLite (copy/copy-support.ts says what each dialect provides): the catalog read
// through sqlite_master and the table-valued pragma functions, foreign keys deferred to the commit.
import { existsSync } from "node:fs";
import type { TCatalogColumn, TCopySupport, TForeignKey } from "../../copy/copy-support";
import { Prisma } from "../../generated/prisma/client";
import { databaseFilePath } from "./database-file";

export const sqliteCopySupport: TCopySupport = {
  // SQLITE_MAX_VARIABLE_NUMBER of the SQLite better-sqlite3 bundles (3.32 and later).
  maxParameters: 32_766,

  // Opening a SQLite file that is not there creates it: look before anything opens it.
  exists: async (databaseUrl) => existsSync(databaseFilePath(databaseUrl)),

  columns: (sql) =>
    sql.query<TCatalogColumn>(
      Prisma.sql`SELECT m."name" AS "table", c."name" AS "column", c."pk" AS "pk"
        FROM "sqlite_master" m JOIN pragma_table_info(m."name") c
        WHERE m."type" = 'table' ORDER BY m."name", c."cid"`,
    ),

  foreignKeys: (sql) =>
    sql.query<TForeignKey>(
      Prisma.sql`SELECT m."name" AS "table", f."from" AS "column", f."table" AS "references"
        FROM "sqlite_master" m JOIN pragma_foreign_key_list(m."name") f WHERE m."type" = 'table'`,
    ),

  // Checked at COMMIT instead of per row, so the order rows go in cannot fail the copy (a row
  // that references one copied later, or its own table). Reset by SQLite when the transaction ends.
  async beforeCopy(tx) {
    await tx.execute(Prisma.sql`PRAGMA defer_foreign_keys = ON`);
  },

  // AUTOINCREMENT's counters (sqlite_sequence) follow explicitly inserted ids by themselves.
  afterCopy: async () => {},
};
