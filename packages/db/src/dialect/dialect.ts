import type { DbClient } from "../client";
import type { TCopySupport } from "../copy/copy-support";
import type { Prisma } from "../generated/prisma/client";
import type { TIsolation, TSqlBase, TSqlDriver } from "../sql";

// The seam between the repositories and the database product. Everything that only one database
// understands (its client and settings, prepared statements, full-text search, day grouping, JSON
// binding, the migration applier, vector search) is a dialect's; the repositories write portable
// SQL and ask the dialect for the rest. SQLite (dialect/sqlite/) is the embedded default,
// PostgreSQL (dialect/postgres/) the database of teams with several web processes; a test
// (packages/db/test/dialect-boundary.test.ts) fails on SQLite constructs anywhere else.

/** What SQL statements need from the dialect, reachable from every transaction (`tx.dialect`). */
export type TSqlDialect = {
  /** A value for a Json column, as a bound parameter. */
  json(value: unknown): Prisma.Sql;
  /**
   * Appended to a SELECT inside a transaction whose rows it then rewrites from what it read
   * (PostgreSQL: `FOR UPDATE`, so a concurrent writer waits; SQLite: nothing, one writer at a time).
   */
  readonly forUpdate: Prisma.Sql;
  /**
   * A column the planner must not pick an index for in this condition (SQLite: the unary `+`;
   * PostgreSQL: `COALESCE(col, col)`), because the rows come from another index (ids, a keyset).
   */
  unindexed(column: Prisma.Sql): Prisma.Sql;
  /** The UTC calendar day ('YYYY-MM-DD') of a timestamp column, for GROUP BY day. */
  utcDay(column: Prisma.Sql): Prisma.Sql;
  /**
   * A condition on the Cfb row `alias`: its full text (title, summary, text, tags, entities)
   * holds every word of `text`, the last one as a prefix; null when `text` holds no word. No
   * text is ever query syntax.
   */
  cfbTextMatch(alias: string, text: string): Prisma.Sql | null;
};

/** The database's size and free space in bytes; `tables`: bytes per table asked about, indexes included. */
export type TStorage = { fileBytes: number; freeBytes: number; tables: Record<string, number> };

/** A Prisma client and the hot-path driver on its one connection. */
export type TConnection = {
  prisma: DbClient;
  driver: TSqlDriver;
};

export type TDialect = TSqlDialect & {
  readonly name: "sqlite" | "postgresql";
  /** The provider name Prisma and its adapters (better-auth's) give this database. */
  readonly prismaProvider: "sqlite" | "postgresql";
  connect(databaseUrl: string): Promise<TConnection>;
  /** Applies the committed migrations to the database (creating it when missing). */
  migrate(
    databaseUrl: string,
    opts?: { migrationsDir?: string; log?: (line: string) => void },
  ): Promise<{ applied: string[] }>;
  /**
   * A faster way to run a whole transaction on the driver's own connections, when there is one
   * (null: the adapter's startTransaction is used).
   */
  nativeTransaction?<T>(
    queryable: unknown,
    isolation: TIsolation,
    work: (tx: TSqlBase) => Promise<T>,
  ): Promise<T> | null;
  /** A faster way to run statements on the driver's own connection, when there is one. */
  nativeBinding(queryable: unknown): TSqlBase | null;
  /** The adapter's isolation level for one (SQLite: none needed, one writer at a time). */
  isolationLevel?(isolation: TIsolation): "SERIALIZABLE" | "READ COMMITTED";
  /** Whether a transaction failed only because it raced another and may run again. */
  isRetryableTransactionError?(error: unknown): boolean;
  /** Whether an error the driver raised (not Prisma's adapter) is a unique violation on table.column. */
  isNativeUniqueViolation(error: Error, table: string, column: string): boolean;
  /** Whether the /cfbs full-text index agrees with the Cfb table (tests, after migrations). */
  textIndexHealth(sql: TSqlBase): Promise<{ cfbs: number; indexed: number; counted: number; ok: boolean }>;
  /** Size, free space and (for `tables`) bytes per table: what pruning frees (retention). */
  storage(sql: TSqlBase, tables?: readonly string[]): Promise<TStorage>;
  /** Gives free space back to the filesystem (outside any transaction). */
  vacuum(sql: TSqlBase): Promise<void>;
  /** What `pnpm db:copy` needs of this database: its catalog, and what a bulk insert needs around it. */
  readonly copySupport: TCopySupport;
  /** Refreshes the query planner's statistics. */
  analyze(sql: TSqlBase): Promise<void>;
};
