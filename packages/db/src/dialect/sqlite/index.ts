import { Prisma } from "../../generated/prisma/client";
import type { TDialect } from "../dialect";
import { connectSqlite } from "./connect";
import { sqliteCopySupport } from "./copy-support";
import { cfbTextMatch, ftsHealth } from "./fts";
import { migrateSqlite } from "./migrations";
import { isNativeUniqueViolation, nativeBinding } from "./native";
import { sqliteAnalyze, sqliteStorage, sqliteVacuum } from "./storage";

/** SQLite, the embedded default: one file, one process writing at a time (WAL, busy timeout). */
export const sqliteDialect: TDialect = {
  name: "sqlite",
  prismaProvider: "sqlite",
  connect: (databaseUrl) => connectSqlite(databaseUrl, sqliteDialect),
  migrate: migrateSqlite,
  nativeBinding,
  isNativeUniqueViolation,
  textIndexHealth: ftsHealth,
  storage: sqliteStorage,
  vacuum: sqliteVacuum,
  copySupport: sqliteCopySupport,
  analyze: sqliteAnalyze,
  cfbTextMatch,
  // Json columns are TEXT: the value goes in as its JSON text.
  json: (value) => Prisma.sql`${JSON.stringify(value)}`,
  unindexed: (column) => Prisma.sql`+${column}`,
  forUpdate: Prisma.empty,
  // date() reads every text form SQLite stores a timestamp in, and gives its UTC day.
  utcDay: (column) => Prisma.sql`date(${column})`,
};
