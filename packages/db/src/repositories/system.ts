import { Prisma } from "../generated/prisma/client";
import type { TStore } from "./store";

// The process's own checks on the database (readiness probes), not any aggregate's data.

export function systemRepository({ sql }: TStore) {
  return {
    /**
     * One trivial read of a migrated table: proves the connection answers and the schema is there,
     * costs a page read however large the database grows, and reads no row's content.
     */
    async ping(): Promise<void> {
      await sql.query(Prisma.sql`SELECT 1 AS "ok" FROM "IdSequence" LIMIT 1`);
    },
  };
}
