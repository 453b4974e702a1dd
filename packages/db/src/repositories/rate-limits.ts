import type { DbClient } from "../client";
import { Prisma } from "../generated/prisma/client";
import { dateOf, type TSql } from "../sql";

export type TRateDecision = { allowed: boolean; count: number; retryAfterSeconds: number };

/**
 * Counts one event against a fixed window and says whether it is within `max`. One statement,
 * through the hot-path driver (every chat turn is counted): an upsert that restarts an expired
 * window or adds one hit, so concurrent processes count correctly. Window starts are stored as
 * Prisma stores DateTime (fixed-width ISO text on SQLite), so `<=` compares them in time order.
 */
export async function hitRateLimit(
  sql: TSql,
  key: string,
  opts: { windowMs: number; max: number; now: Date },
): Promise<TRateDecision> {
  const windowFloor = new Date(opts.now.getTime() - opts.windowMs);
  const [row] = await sql.query<{ windowStart: unknown; count: number }>(
    Prisma.sql`INSERT INTO "RateLimitBucket" ("key", "windowStart", "count") VALUES (${key}, ${opts.now}, 1)
      ON CONFLICT ("key") DO UPDATE SET
        "count" = CASE WHEN "RateLimitBucket"."windowStart" <= ${windowFloor} THEN 1 ELSE "RateLimitBucket"."count" + 1 END,
        "windowStart" = CASE WHEN "RateLimitBucket"."windowStart" <= ${windowFloor} THEN excluded."windowStart" ELSE "RateLimitBucket"."windowStart" END
      RETURNING "windowStart", "count"`,
  );
  if (!row) throw new Error(`rate limit ${key}: the upsert returned no row`);
  const count = Number(row.count);
  const retryAfterSeconds = Math.max(
    1,
    Math.ceil((dateOf(row.windowStart).getTime() + opts.windowMs - opts.now.getTime()) / 1000),
  );
  return { allowed: count <= opts.max, count, retryAfterSeconds };
}

/** Whether `key` is already over `max` in its current window, without counting a hit. */
export async function peekRateLimit(
  db: DbClient,
  key: string,
  opts: { windowMs: number; max: number; now: Date },
): Promise<TRateDecision> {
  const row = await db.rateLimitBucket.findUnique({ where: { key } });
  if (!row || row.windowStart.getTime() + opts.windowMs <= opts.now.getTime()) {
    return { allowed: true, count: 0, retryAfterSeconds: 0 };
  }
  const retryAfterSeconds = Math.max(
    1,
    Math.ceil((row.windowStart.getTime() + opts.windowMs - opts.now.getTime()) / 1000),
  );
  return { allowed: row.count < opts.max, count: row.count, retryAfterSeconds };
}

/** Gives one counted hit back (a sign-in attempt that turned out to succeed). */
export async function refundRateLimit(db: DbClient, key: string): Promise<void> {
  await db.rateLimitBucket.updateMany({ where: { key, count: { gt: 0 } }, data: { count: { decrement: 1 } } });
}

export async function clearRateLimit(db: DbClient, key: string): Promise<void> {
  await db.rateLimitBucket.deleteMany({ where: { key } });
}
