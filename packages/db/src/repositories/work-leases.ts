import { Prisma } from "../generated/prisma/client";
import { dateOf } from "../sql";
import type { TStore } from "./store";

// Leases on background work that one process at a time does for all of them (the embedding
// backfill): taken when free or expired, renewed by its holder, given back when done. A holder
// that dies leaves a lease that expires; the next process to ask takes it over.

export function workLeaseRepository({ sql }: TStore) {
  return {
    /** Takes or renews the lease `name` for `owner` until `expiresAt`; false while another holds it. */
    async acquire(name: string, owner: string, now: Date, expiresAt: Date): Promise<boolean> {
      const taken = await sql.execute(
        Prisma.sql`INSERT INTO "WorkLease" ("name", "owner", "expiresAt") VALUES (${name}, ${owner}, ${expiresAt})
          ON CONFLICT ("name") DO UPDATE SET "owner" = excluded."owner", "expiresAt" = excluded."expiresAt"
          WHERE "WorkLease"."owner" = ${owner} OR "WorkLease"."expiresAt" < ${now}`,
      );
      return taken === 1;
    },

    /** Who holds the lease `name` and until when, if anyone ever took it. */
    async holder(name: string): Promise<{ owner: string; expiresAt: Date } | null> {
      const [row] = await sql.query<{ owner: string; expiresAt: unknown }>(
        Prisma.sql`SELECT "owner", "expiresAt" FROM "WorkLease" WHERE "name" = ${name}`,
      );
      return row ? { owner: row.owner, expiresAt: dateOf(row.expiresAt) } : null;
    },

    /** Gives the lease back, if `owner` still holds it. */
    async release(name: string, owner: string): Promise<void> {
      await sql.execute(Prisma.sql`DELETE FROM "WorkLease" WHERE "name" = ${name} AND "owner" = ${owner}`);
    },
  };
}
