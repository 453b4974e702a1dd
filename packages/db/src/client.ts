import { dialectFor } from "./dialect";
import type { TConnection, TDialect } from "./dialect/dialect";
import type { PrismaClient } from "./generated/prisma/client";
import type { TSqlDriver } from "./sql";

export type DbClient = PrismaClient;

const connections = new WeakMap<DbClient, TConnection & { dialect: TDialect }>();

/**
 * A Prisma client on the database of `databaseUrl` (its dialect decides how: SQLite for `file:`),
 * with the hot-path SQL driver on the same connection. Migrate first (`migrateDatabase`): the
 * client never changes the schema.
 */
export async function createPrismaClient(databaseUrl: string): Promise<DbClient> {
  const dialect = dialectFor(databaseUrl);
  const connection = await dialect.connect(databaseUrl);
  connections.set(connection.prisma, { ...connection, dialect });
  return connection.prisma;
}

/** The connection `db` was opened on: its driver, dialect and extension loading. */
export function connectionOf(db: DbClient): TConnection & { dialect: TDialect } {
  const connection = connections.get(db);
  if (!connection) throw new Error("this Prisma client was not opened by createPrismaClient");
  return connection;
}

/** The hot-path SQL driver on the same connection as `db` (see sql.ts). */
export function sqlDriverOf(db: DbClient): TSqlDriver {
  return connectionOf(db).driver;
}

/** Applies the committed migrations to the database of `databaseUrl` (created when missing). */
export function migrateDatabase(
  databaseUrl: string,
  opts?: { migrationsDir?: string; log?: (line: string) => void },
): Promise<{ applied: string[] }> {
  return dialectFor(databaseUrl).migrate(databaseUrl, opts);
}
