import { sql as expression } from "kysely";
import { dateOf } from "../sql";
import { rows, run, typed } from "../typed-sql";
import { insertAudit } from "./audit";
import type { TStore } from "./store";

// Sign-in throttling state, kept in RateLimitBucket rows so several server processes share it.
// For a throttle key, `count` is the failures counted and `windowStart` the time of the last
// counted attempt; for a known-address key, `windowStart` is the last successful sign-in. The
// policy (how many failures are free, how long each delay is) belongs to the caller, which hands
// it over as a rule; this file reads the state and counts attempts atomically.

export type TThrottleState = { failures: number; lastAttempt: Date | null };

/**
 * When an attempt may be counted: always while a key has fewer than `freeFailures` failures;
 * with `freeFailures + i` failures only if its last attempt was at or before `lastAttemptAtMost[i]`
 * (the last entry for every count past the list). The caller turns its delays into these times.
 */
export type TThrottleRule = { now: Date; forgetBefore: Date; freeFailures: number; lastAttemptAtMost: readonly Date[] };

export type TThrottleClaim = { claimed: true; failures: number } | { claimed: false; state: TThrottleState };

export function signInThrottleRepository({ sql }: TStore) {
  async function state(key: string, forgetBefore: Date): Promise<TThrottleState> {
    const [row] = await rows(
      sql,
      typed.selectFrom("RateLimitBucket").select(["windowStart", "count"]).where("key", "=", key),
    );
    const last = row ? dateOf(row.windowStart) : null;
    return row && last && last.getTime() > forgetBefore.getTime()
      ? { failures: Number(row.count), lastAttempt: last }
      : EMPTY;
  }

  return {
    /**
     * Counts one attempt against `key` if `rule` allows it, in one statement (an upsert whose
     * update only happens when the rule holds), so a parallel burst, from one process or several,
     * gets exactly the attempts the rule allows. A key whose last attempt is at or before
     * `forgetBefore` starts from zero. A refused attempt changes nothing and gets the state back.
     */
    async claim(key: string, rule: TThrottleRule): Promise<TThrottleClaim> {
      const free = rule.freeFailures;
      const last = rule.lastAttemptAtMost.at(-1);
      const [row] = await rows(
        sql,
        typed
          .insertInto("RateLimitBucket")
          .values({ key, windowStart: rule.now, count: 1 })
          .onConflict((conflict) =>
            conflict
              .column("key")
              .doUpdateSet((eb) => ({
                count: eb
                  .case()
                  .when("RateLimitBucket.windowStart", "<=", rule.forgetBefore)
                  .then(1)
                  .else(eb("RateLimitBucket.count", "+", 1))
                  .end(),
                windowStart: eb.ref("excluded.windowStart"),
              }))
              .where((eb) =>
                eb.or([
                  eb("RateLimitBucket.windowStart", "<=", rule.forgetBefore),
                  eb("RateLimitBucket.count", "<", free),
                  // No delays at all (an empty list): every attempt is counted.
                  last ? eb("RateLimitBucket.windowStart", "<=", waitedUntil(rule, last)) : eb.lit(true),
                ]),
              ),
          )
          .returning("count"),
      );
      if (row) return { claimed: true, failures: Number(row.count) };
      return { claimed: false, state: await state(key, rule.forgetBefore) };
    },

    /** The current state of `key` (a state older than `forgetBefore` is empty). */
    state,

    /** Gives one counted attempt back (it turned out to be a success, not a failure). */
    async refund(key: string): Promise<void> {
      await run(
        sql,
        typed
          .updateTable("RateLimitBucket")
          .set((eb) => ({ count: eb("count", "-", 1) }))
          .where("key", "=", key)
          .where("count", ">", 0),
      );
    },

    /** Forgets `key` entirely (a successful sign-in clears its own account-and-address pair). */
    async clear(key: string): Promise<void> {
      await run(sql, typed.deleteFrom("RateLimitBucket").where("key", "=", key));
    },

    /** Records `now` as the last time `key` (an account-and-address pair) signed in successfully. */
    async markKnown(key: string, now: Date): Promise<void> {
      await run(
        sql,
        typed
          .insertInto("RateLimitBucket")
          .values({ key, windowStart: now, count: 1 })
          .onConflict((conflict) =>
            conflict.column("key").doUpdateSet((eb) => ({ windowStart: eb.ref("excluded.windowStart"), count: 1 })),
          ),
      );
    },

    /** Whether `key` signed in successfully after `since`. */
    async isKnown(key: string, since: Date): Promise<boolean> {
      return (await state(key, since)).lastAttempt !== null;
    },

    /**
     * Tells the owner of the account signed in as `email` that its sign-ins are being throttled:
     * one `user.sign_in_throttled` audit event per account per window (`markerKey` remembers the
     * last one), in one transaction. An email with no account writes nothing: there is nobody to
     * tell. Returns whether an event was written.
     */
    async recordThrottled(
      email: string,
      o: { markerKey: string; now: Date; windowMs: number; details: Record<string, unknown> },
    ): Promise<boolean> {
      return sql.transaction(async (tx) => {
        const [user] = await rows(
          tx,
          typed
            .selectFrom("User")
            .select(["id", "email"])
            .where((eb) => eb(eb.fn<string>("lower", ["email"]), "=", email.toLowerCase()))
            .limit(1),
        );
        if (!user) return false;
        const floor = new Date(o.now.getTime() - o.windowMs);
        // Takes the marker only when there is none in the window: one event per window.
        const taken = await run(
          tx,
          typed
            .insertInto("RateLimitBucket")
            .values({ key: o.markerKey, windowStart: o.now, count: 1 })
            .onConflict((conflict) =>
              conflict
                .column("key")
                .doUpdateSet((eb) => ({ windowStart: eb.ref("excluded.windowStart"), count: 1 }))
                .where("RateLimitBucket.windowStart", "<=", floor),
            ),
        );
        if (taken !== 1) return false;
        await insertAudit(
          tx,
          [
            {
              actorUserId: null,
              actorEmail: "system",
              via: "system",
              action: "user.sign_in_throttled",
              targetType: "user",
              targetId: user.id,
              details: { email: user.email, ...o.details },
            },
          ],
          o.now,
        );
        return true;
      });
    },
  };
}

/** The latest last attempt a key may have for its next one to count, by its failures so far. */
function waitedUntil(rule: TThrottleRule, last: Date) {
  const whens = rule.lastAttemptAtMost.slice(0, -1);
  if (whens.length === 0) return last;
  return expression<Date>`CASE "RateLimitBucket"."count" ${expression.join(
    whens.map((at, i) => expression`WHEN ${rule.freeFailures + i} THEN ${at}`),
    expression` `,
  )} ELSE ${last} END`;
}

const EMPTY: TThrottleState = { failures: 0, lastAttempt: null };
