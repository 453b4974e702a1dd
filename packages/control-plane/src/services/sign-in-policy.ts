import type { TThrottleRule, TThrottleState } from "@solserver/db";

// The sign-in throttling policy (docs/security.md#sign-in-throttling), as plain data and pure
// functions: how many failures a key may have before it must wait, and how long. The state lives
// in the database (repositories/sign-in-throttle.ts); sign-in-guard.ts applies this to it.

/** One throttle: failures that cost nothing, then a delay that doubles with each further one. */
export type TBackoff = {
  /** Failures before the first delay. */
  freeFailures: number;
  /** The first delay; each further failure doubles it, up to `maxDelaySeconds`. */
  baseDelaySeconds: number;
  maxDelaySeconds: number;
};

export type TSignInPolicy = {
  /** One account from one address: the guesses of one attacker, and the typos of the owner. */
  pair: TBackoff;
  /** One address across all accounts: one attacker trying many accounts. */
  address: TBackoff;
  /**
   * One account from every address it has not signed in from lately: many addresses guessing one
   * account (password spraying, a botnet). Addresses the account signed in from within
   * `knownAddressDays` are not subject to it, so no attacker can use it to lock the owner out.
   */
  account: TBackoff;
  /** A key with no counted attempt for this long starts from zero again. */
  forgetAfterHours: number;
  /** How long a successful sign-in keeps its address known for the account. */
  knownAddressDays: number;
  /** At most one audit event per throttled account in this many minutes. */
  auditWindowMinutes: number;
};

export const DEFAULT_SIGN_IN_POLICY: TSignInPolicy = {
  pair: { freeFailures: 5, baseDelaySeconds: 30, maxDelaySeconds: 15 * 60 },
  address: { freeFailures: 20, baseDelaySeconds: 30, maxDelaySeconds: 15 * 60 },
  account: { freeFailures: 50, baseDelaySeconds: 30, maxDelaySeconds: 15 * 60 },
  forgetAfterHours: 24,
  knownAddressDays: 30,
  auditWindowMinutes: 60,
};

/**
 * Days after which no rule of `policy` reads a throttle key any more (known addresses, the
 * forgetting period, the audit window), plus one: retention deletes older state (retention/prune.ts).
 */
export function limitStateDays(policy: TSignInPolicy): number {
  const hours = Math.max(policy.knownAddressDays * 24, policy.forgetAfterHours, policy.auditWindowMinutes / 60);
  return Math.ceil(hours / 24) + 1;
}

/** The wait after `failures` counted failures: 0 while they are free, then doubling to the cap. */
export function backoffDelaySeconds(failures: number, b: TBackoff): number {
  if (failures < b.freeFailures) return 0;
  const doublings = failures - b.freeFailures;
  // 2^31 s is far past any cap; stop doubling before the number stops being exact.
  return Math.min(b.maxDelaySeconds, b.baseDelaySeconds * 2 ** Math.min(doublings, 31));
}

/** Whether an attempt may go ahead, or how many seconds it must wait first. */
export type TThrottleVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * The backoff as the database applies it atomically (repositories/sign-in-throttle.ts): for
 * each failure count from `freeFailures` until the delay reaches its cap, the latest last
 * attempt that has waited long enough at `now`.
 */
export function backoffRule(b: TBackoff, now: Date, forgetBefore: Date): TThrottleRule {
  const lastAttemptAtMost: Date[] = [];
  for (let failures = b.freeFailures; ; failures++) {
    const delaySeconds = backoffDelaySeconds(failures, b);
    lastAttemptAtMost.push(new Date(now.getTime() - delaySeconds * 1000));
    // Past the cap (or past doubling, see above) every further count waits the same.
    if (delaySeconds >= b.maxDelaySeconds || delaySeconds === 0 || failures - b.freeFailures >= 31) break;
  }
  return { now, forgetBefore, freeFailures: b.freeFailures, lastAttemptAtMost };
}

/** Whether an attempt may go ahead now on a key in `state`, or how many seconds it must wait. */
export function backoffVerdict(state: TThrottleState, b: TBackoff, now: Date): TThrottleVerdict {
  const delayMs = backoffDelaySeconds(state.failures, b) * 1000;
  if (delayMs === 0 || state.lastAttempt === null) return { allowed: true };
  const waitMs = state.lastAttempt.getTime() + delayMs - now.getTime();
  return waitMs <= 0 ? { allowed: true } : { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
}
