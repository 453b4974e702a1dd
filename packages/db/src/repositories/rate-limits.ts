import { Prisma } from "../generated/prisma/client";
import { dateOf } from "../sql";
import type { TStore } from "./store";

// Fixed-window counters (chat turns per account), on the hot path: every chat turn counts.
// Sign-in throttling has its own rules over the same table (sign-in-throttle.ts).

export type TRateDecision = { allowed: boolean; count: number; retryAfterSeconds: number };

type TWindow = { windowMs: number; max: number; now: Date };

function retryAfter(windowStart: Date, w: TWindow): number {
  return Math.max(1, Math.ceil((windowStart.getTime() + w.windowMs - w.now.getTime()) / 1000));
}

export function rateLimitRepository({ sql }: TStore) {
  return {
    /**
     * Counts one event against a fixed window and says whether it is within `max`. One statement:
     * an upsert that restarts an expired window or adds one hit, so concurrent processes count
     * correctly.
     */
    async hit(key: string, w: TWindow): Promise<TRateDecision> {
      const windowFloor = new Date(w.now.getTime() - w.windowMs);
      const [row] = await sql.query<{ windowStart: unknown; count: number }>(
        Prisma.sql`INSERT INTO "RateLimitBucket" ("key", "windowStart", "count") VALUES (${key}, ${w.now}, 1)
          ON CONFLICT ("key") DO UPDATE SET
            "count" = CASE WHEN "RateLimitBucket"."windowStart" <= ${windowFloor} THEN 1 ELSE "RateLimitBucket"."count" + 1 END,
            "windowStart" = CASE WHEN "RateLimitBucket"."windowStart" <= ${windowFloor} THEN excluded."windowStart" ELSE "RateLimitBucket"."windowStart" END
          RETURNING "windowStart", "count"`,
      );
      if (!row) throw new Error(`rate limit ${key}: the upsert returned no row`);
      const count = Number(row.count);
      return { allowed: count <= w.max, count, retryAfterSeconds: retryAfter(dateOf(row.windowStart), w) };
    },

    /** Whether `key` is already over `max` in its current window, without counting a hit. */
    async peek(key: string, w: TWindow): Promise<TRateDecision> {
      const [row] = await sql.query<{ windowStart: unknown; count: number }>(
        Prisma.sql`SELECT "windowStart", "count" FROM "RateLimitBucket" WHERE "key" = ${key}`,
      );
      const start = row ? dateOf(row.windowStart) : null;
      if (!row || !start || start.getTime() + w.windowMs <= w.now.getTime()) {
        return { allowed: true, count: 0, retryAfterSeconds: 0 };
      }
      const count = Number(row.count);
      return { allowed: count < w.max, count, retryAfterSeconds: retryAfter(start, w) };
    },

    async clear(key: string): Promise<void> {
      await sql.execute(Prisma.sql`DELETE FROM "RateLimitBucket" WHERE "key" = ${key}`);
    },
  };
}
