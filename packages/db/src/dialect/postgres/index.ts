import { Prisma } from "../../generated/prisma/client";
import type { TDialect } from "../dialect";
import { connectPostgres } from "./connect";
import { postgresCopySupport } from "./copy-support";
import { cfbTextMatch, searchHealth } from "./fts";
import { migratePostgres } from "./migrations";
import { isNativeUniqueViolation, isRetryableTransactionError, nativeBinding, nativeTransaction } from "./native";
import { postgresAnalyze, postgresStorage, postgresVacuum } from "./storage";

/**
 * PostgreSQL 15+, for teams that outgrow one machine: several web processes on one database.
 * Transactions are SERIALIZABLE unless they ask for READ COMMITTED (TIsolation, sql.ts), and run
 * again on a serialization failure or deadlock, so every read-then-write transaction the
 * repositories wrote for SQLite's one-writer-at-a-time keeps its meaning when processes race
 * (docs/deployment.md).
 */
export const postgresDialect: TDialect = {
  name: "postgresql",
  prismaProvider: "postgresql",
  connect: (databaseUrl) => connectPostgres(databaseUrl, postgresDialect),
  migrate: migratePostgres,
  nativeBinding,
  nativeTransaction,
  isNativeUniqueViolation,
  isolationLevel: (isolation) => (isolation === "read committed" ? "READ COMMITTED" : "SERIALIZABLE"),
  isRetryableTransactionError,
  textIndexHealth: searchHealth,
  storage: postgresStorage,
  vacuum: postgresVacuum,
  copySupport: postgresCopySupport,
  analyze: postgresAnalyze,
  cfbTextMatch,
  json: (value) => Prisma.sql`${JSON.stringify(value)}::jsonb`,
  // An expression, not the column: no index matches it. Without statistics (a new database, a
  // bulk import not yet analyzed) the planner otherwise reads "IS NULL" through the mergedIntoId
  // or privateToId index and filters every live CFB, as SQLite did (3.8 against 0.25 ms at 10k).
  unindexed: (column) => Prisma.sql`COALESCE(${column}, ${column})`,
  forUpdate: Prisma.sql`FOR UPDATE`,
  utcDay: (column) => Prisma.sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`,
};
