import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "../../generated/prisma/client";
import { capturingFactory, createSqlDriver, type TAdapterSlot } from "../../sql";
import type { TConnection, TDialect } from "../dialect";
import { databaseFilePath } from "./database-file";

const BUSY_TIMEOUT_MS = 5000;

/**
 * A Prisma client on the embedded SQLite file, and the hot-path driver on the same connection.
 * Migrate first: the client never changes the schema. WAL lets readers proceed while a turn is
 * being written; the busy timeout makes a second process wait for the write lock instead of
 * failing at once; foreign keys are enforced.
 */
export async function connectSqlite(databaseUrl: string, dialect: TDialect): Promise<TConnection> {
  const slot: TAdapterSlot = { adapter: null };
  const factory = new PrismaBetterSqlite3({ url: databaseFilePath(databaseUrl), timeout: BUSY_TIMEOUT_MS });
  const prisma = new PrismaClient({ adapter: capturingFactory(factory, slot) });
  await prisma.$queryRawUnsafe("PRAGMA journal_mode = WAL");
  await prisma.$queryRawUnsafe(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
  await prisma.$queryRawUnsafe("PRAGMA foreign_keys = ON");
  return {
    prisma,
    driver: createSqlDriver(slot, dialect),
  };
}
