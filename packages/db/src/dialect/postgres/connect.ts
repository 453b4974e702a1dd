import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import type { DbClient } from "../../client";
import { PrismaClient } from "../../generated/prisma-postgres/client";
import { capturingFactory, createSqlDriver, type TAdapterSlot } from "../../sql";
import type { TConnection, TDialect } from "../dialect";
import { poolConfig } from "./database-url";
import { poolBinding } from "./native";

/**
 * A Prisma client on a PostgreSQL database through @prisma/adapter-pg, and the hot-path driver on
 * the same pool. Migrate first: the client never changes the schema. Each web process keeps its
 * own pool (SOLSERVER_DB_POOL connections, default 10): size it so that processes × pool stays
 * under the server's max_connections (docs/deployment.md).
 */
export async function connectPostgres(databaseUrl: string, dialect: TDialect): Promise<TConnection> {
  const slot: TAdapterSlot = { adapter: null };
  const factory = new PrismaPg(poolConfig(databaseUrl));
  // The PostgreSQL client is generated from the same models (prisma/postgres/schema.prisma is
  // derived from prisma/schema.prisma), so its TypeScript shape is the SQLite client's.
  const prisma = new PrismaClient({ adapter: capturingFactory(factory, slot) }) as unknown as DbClient;
  await prisma.$connect();
  // The id counters' own connections (sql.ts, TSql.outside): one statement at a time each, never
  // held across anything else, so a transaction waiting on one can never starve the main pool.
  // Idle ones do not keep a CLI or test process alive.
  const counters = new pg.Pool({ ...poolConfig(databaseUrl), max: 2, allowExitOnIdle: true });
  // An idle connection the server ended (a restart, a dropped database, an idle timeout) raises
  // "error" on the pool, which would crash the process without a listener. The pool has already
  // discarded that connection; the next statement opens a new one or fails on its own.
  counters.on("error", () => {});
  const disconnect = prisma.$disconnect.bind(prisma);
  Object.assign(prisma, {
    $disconnect: async () => {
      await Promise.allSettled([counters.end()]);
      await disconnect();
    },
  });
  return {
    prisma,
    driver: createSqlDriver(slot, dialect, poolBinding(counters as unknown as Parameters<typeof poolBinding>[0])),
  };
}
