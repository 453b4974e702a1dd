import { dateOf } from "../sql";
import { rows, run, typed } from "../typed-sql";
import type { TStore } from "./store";

// Leases on background work that one process at a time does for all of them (the embedding
// backfill): taken when free or expired, renewed by its holder, given back when done. A holder
// that dies leaves a lease that expires; the next process to ask takes it over.

export function workLeaseRepository({ sql }: TStore) {
  return {
    /** Takes or renews the lease `name` for `owner` until `expiresAt`; false while another holds it. */
    async acquire(name: string, owner: string, now: Date, expiresAt: Date): Promise<boolean> {
      const taken = await run(
        sql,
        typed
          .insertInto("WorkLease")
          .values({ name, owner, expiresAt })
          .onConflict((conflict) =>
            conflict
              .column("name")
              .doUpdateSet((eb) => ({ owner: eb.ref("excluded.owner"), expiresAt: eb.ref("excluded.expiresAt") }))
              .where((eb) => eb.or([eb("WorkLease.owner", "=", owner), eb("WorkLease.expiresAt", "<", now)])),
          ),
      );
      return taken === 1;
    },

    /** Who holds the lease `name` and until when, if anyone ever took it. */
    async holder(name: string): Promise<{ owner: string; expiresAt: Date } | null> {
      const [row] = await rows(
        sql,
        typed.selectFrom("WorkLease").select(["owner", "expiresAt"]).where("name", "=", name),
      );
      return row ? { owner: row.owner, expiresAt: dateOf(row.expiresAt) } : null;
    },

    /** Gives the lease back, if `owner` still holds it. */
    async release(name: string, owner: string): Promise<void> {
      await run(sql, typed.deleteFrom("WorkLease").where("name", "=", name).where("owner", "=", owner));
    },
  };
}
