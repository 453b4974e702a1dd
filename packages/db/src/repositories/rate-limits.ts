import type { DbClient } from "../client";

export type TRateDecision = { allowed: boolean; count: number; retryAfterSeconds: number };

/**
 * Counts one event against a fixed window and says whether it is within `max`. One statement
 * (an upsert that restarts an expired window), so concurrent processes count correctly.
 */
export async function hitRateLimit(
  db: DbClient,
  key: string,
  opts: { windowMs: number; max: number; now: Date },
): Promise<TRateDecision> {
  const windowFloor = new Date(opts.now.getTime() - opts.windowMs);
  const row = await db.$transaction(async (tx) => {
    // Write first (see proposals.ts): restart an expired window, then count this hit.
    await tx.rateLimitBucket.updateMany({
      where: { key, windowStart: { lte: windowFloor } },
      data: { windowStart: opts.now, count: 0 },
    });
    return tx.rateLimitBucket.upsert({
      where: { key },
      create: { key, windowStart: opts.now, count: 1 },
      update: { count: { increment: 1 } },
    });
  });
  const retryAfterSeconds = Math.max(
    1,
    Math.ceil((row.windowStart.getTime() + opts.windowMs - opts.now.getTime()) / 1000),
  );
  return { allowed: row.count <= opts.max, count: row.count, retryAfterSeconds };
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
