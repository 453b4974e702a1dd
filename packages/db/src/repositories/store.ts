import type { DbClient } from "../client";
import type { TSqlDriver } from "../sql";

/**
 * What a repository is built on (packages/db/README.md): the SQL driver for writes, hot-path
 * reads and paged lists; Prisma with explicit `select` for the other reads. One or the other in
 * a function, never both.
 */
export type TStore = { prisma: DbClient; sql: TSqlDriver };
