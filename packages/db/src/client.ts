import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { databaseFilePath } from "./database-url";
import { PrismaClient } from "./generated/prisma/client";
import { capturingFactory, createSqlDriver, loadExtensionInto, type TSqlDriver } from "./sql";

export type DbClient = PrismaClient;

const BUSY_TIMEOUT_MS = 5000;

const drivers = new WeakMap<DbClient, TSqlDriver>();
const slots = new WeakMap<DbClient, Parameters<typeof loadExtensionInto>[0]>();

/**
 * A Prisma client on the embedded SQLite file. Call `migrateDatabase` first: the client never
 * changes the schema. WAL lets readers proceed while a turn is being written; the busy timeout
 * makes a second process wait for the write lock instead of failing at once.
 */
export async function createPrismaClient(databaseUrl: string): Promise<DbClient> {
  const slot: Parameters<typeof loadExtensionInto>[0] = { adapter: null };
  const factory = new PrismaBetterSqlite3({ url: databaseFilePath(databaseUrl), timeout: BUSY_TIMEOUT_MS });
  const prisma = new PrismaClient({ adapter: capturingFactory(factory, slot) });
  await prisma.$queryRawUnsafe("PRAGMA journal_mode = WAL");
  await prisma.$queryRawUnsafe(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
  await prisma.$queryRawUnsafe("PRAGMA foreign_keys = ON");
  drivers.set(prisma, createSqlDriver(slot));
  slots.set(prisma, slot);
  return prisma;
}

/** The hot-path SQL driver on the same connection as `db` (see sql.ts). */
export function sqlDriverOf(db: DbClient): TSqlDriver {
  const driver = drivers.get(db);
  if (!driver) throw new Error("this Prisma client was not opened by createPrismaClient");
  return driver;
}

/** Loads a SQLite extension file into `db`'s connection (sqlite-vec for semantic matching). */
export function loadExtension(db: DbClient, file: string): void {
  const slot = slots.get(db);
  if (!slot) throw new Error("this Prisma client was not opened by createPrismaClient");
  loadExtensionInto(slot, file);
}
