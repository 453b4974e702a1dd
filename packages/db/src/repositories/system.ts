import { rows, typed } from "../typed-sql";
import type { TStore } from "./store";

// The process's own checks on the database (readiness probes), not any aggregate's data.

export function systemRepository({ sql }: TStore) {
  return {
    /**
     * One trivial read of a migrated table: proves the connection answers and the schema is there,
     * costs a page read however large the database grows, and reads no row's content.
     */
    async ping(): Promise<void> {
      await rows(
        sql,
        typed
          .selectFrom("IdSequence")
          .select((eb) => eb.lit(1).as("ok"))
          .limit(1),
      );
    },
  };
}
