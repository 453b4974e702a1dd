import { sql as kyselySql } from "kysely";
import { prepare } from "../prepared-sql";
import { dateOf } from "../sql";
import { rows, run, typed } from "../typed-sql";
import type { TStore } from "./store";

// Fixed-window counters (chat turns per account), on the hot path: every chat turn counts.
// Sign-in throttling has its own rules over the same table (sign-in-throttle.ts).

export type TRateDecision = { allowed: boolean; count: number; retryAfterSeconds: number };

type TWindow = { windowMs: number; max: number; now: Date };

function retryAfter(windowStart: Date, w: TWindow): number {
  return Math.max(1, Math.ceil((windowStart.getTime() + w.windowMs - w.now.getTime()) / 1000));
}

/** One hit on `key`: a new bucket, a restarted expired window, or one more in the current one. */
const countHit = prepare((v: { key: string; now: Date; windowFloor: Date }) =>
  // The constant 1 stays an SQL literal (`lit`), as the statement always wrote it.
  typed
    .insertInto("RateLimitBucket")
    .values({ key: v.key, windowStart: v.now, count: kyselySql.lit(1) })
    .onConflict((oc) =>
      oc.column("key").doUpdateSet((eb) => {
        const expired = eb("RateLimitBucket.windowStart", "<=", v.windowFloor);
        return {
          count: eb
            .case()
            .when(expired)
            .then(eb.lit(1))
            .else(eb("RateLimitBucket.count", "+", eb.lit(1)))
            .end(),
          windowStart: eb
            .case()
            .when(expired)
            .then(eb.ref("excluded.windowStart"))
            .else(eb.ref("RateLimitBucket.windowStart"))
            .end(),
        };
      }),
    )
    .returning(["windowStart", "count"]),
);

export function rateLimitRepository({ sql }: TStore) {
  return {
    /**
     * Counts one event against a fixed window and says whether it is within `max`. One statement:
     * an upsert that restarts an expired window or adds one hit, so concurrent processes count
     * correctly.
     */
    async hit(key: string, w: TWindow): Promise<TRateDecision> {
      const windowFloor = new Date(w.now.getTime() - w.windowMs);
      const [row] = await rows(sql, countHit({ key, now: w.now, windowFloor }, sql.dialect));
      if (!row) throw new Error(`rate limit ${key}: the upsert returned no row`);
      const count = Number(row.count);
      return { allowed: count <= w.max, count, retryAfterSeconds: retryAfter(dateOf(row.windowStart), w) };
    },

    /** Whether `key` is already over `max` in its current window, without counting a hit. */
    async peek(key: string, w: TWindow): Promise<TRateDecision> {
      const [row] = await rows(
        sql,
        typed.selectFrom("RateLimitBucket").select(["windowStart", "count"]).where("key", "=", key),
      );
      const start = row ? dateOf(row.windowStart) : null;
      if (!row || !start || start.getTime() + w.windowMs <= w.now.getTime()) {
        return { allowed: true, count: 0, retryAfterSeconds: 0 };
      }
      const count = Number(row.count);
      return { allowed: count < w.max, count, retryAfterSeconds: retryAfter(start, w) };
    },

    async clear(key: string): Promise<void> {
      await run(sql, typed.deleteFrom("RateLimitBucket").where("key", "=", key));
    },
  };
}
