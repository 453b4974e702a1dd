import { DomainError } from "@solserver/contracts";
import { throttleAddress } from "../trusted-proxies";
import type { TServiceDeps } from "./deps";
import { backoffRule, backoffVerdict, type TBackoff } from "./sign-in-policy";

// Applies the sign-in policy (sign-in-policy.ts) around a password check: reserveSignIn before
// it, signInSucceeded after a success. A failure needs no call: the reserved attempt stays
// counted. Keys are by the email typed, not the account, so an address learns nothing about
// which emails have accounts from how it is throttled.

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;
/** Longest email kept in a key; longer ones are refused by better-auth anyway. */
const EMAIL_KEY_CHARS = 320;

type TScope = "pair" | "address" | "account";

const REFUSAL: Record<TScope, string> = {
  pair: "too many failed sign-ins for this account from this address",
  address: "too many failed sign-ins from this address",
  account: "too many failed sign-ins for this account from addresses it has not signed in from",
};

/** What reserveSignIn counted, for signInSucceeded to give back. */
export type TSignInReservation = { email: string; address: string; counted: string[] };

const keys = (email: string, address: string) => ({
  pair: `signin:pair:${email}|${address}`,
  address: `signin:address:${address}`,
  account: `signin:account-spray:${email}`,
  known: `signin:known:${email}|${address}`,
  audited: `signin:audited:${email}`,
});

function normalizedEmail(email: string): string {
  return email.trim().toLowerCase().slice(0, EMAIL_KEY_CHARS);
}

/**
 * Before a sign-in attempt is checked: counts it, atomically, against the account-and-address
 * pair, the address, and (from an address the account has not signed in from lately) the
 * account, each with its own growing delay; RATE_LIMITED with the wait when any of them must
 * wait. Counting first (and giving back on success) means a parallel burst cannot slip past.
 * A refusal that concerns an account tells its owner once per window (an audit event).
 */
export async function reserveSignIn(
  deps: TServiceDeps,
  rawEmail: string,
  rawAddress: string,
): Promise<TSignInReservation> {
  const policy = deps.limits.signIn;
  const repo = deps.repos.signInThrottle;
  const now = deps.now();
  const email = normalizedEmail(rawEmail);
  // An IPv6 client is counted by its /64: rotating through it must not reset its budgets.
  const address = throttleAddress(rawAddress);
  const k = keys(email, address);
  const forgetBefore = new Date(now.getTime() - policy.forgetAfterHours * HOUR_MS);
  const known = await repo.isKnown(k.known, new Date(now.getTime() - policy.knownAddressDays * 24 * HOUR_MS));
  const throttles: { scope: TScope; key: string; backoff: TBackoff }[] = [
    { scope: "pair", key: k.pair, backoff: policy.pair },
    { scope: "address", key: k.address, backoff: policy.address },
    ...(known ? [] : [{ scope: "account" as const, key: k.account, backoff: policy.account }]),
  ];

  const refuse = async (scope: TScope, retryAfterSeconds: number, failures: number): Promise<never> => {
    if (scope !== "address") {
      await repo.recordThrottled(email, {
        markerKey: k.audited,
        now,
        windowMs: policy.auditWindowMinutes * MINUTE_MS,
        details: { scope, address, failures, retry_after_seconds: retryAfterSeconds },
      });
    }
    throw new DomainError("RATE_LIMITED", `${REFUSAL[scope]}, retry in ${retryAfterSeconds} s`, { retryAfterSeconds });
  };

  // Look before counting, so a refused attempt counts against none of the keys.
  for (const t of throttles) {
    const state = await repo.state(t.key, forgetBefore);
    const verdict = backoffVerdict(state, t.backoff, now);
    if (!verdict.allowed) return refuse(t.scope, verdict.retryAfterSeconds, state.failures);
  }
  const counted: string[] = [];
  for (const t of throttles) {
    const claim = await repo.claim(t.key, backoffRule(t.backoff, now, forgetBefore));
    if (!claim.claimed) {
      // A parallel attempt took the last free slot between the look and the count.
      for (const key of counted) await repo.refund(key);
      const verdict = backoffVerdict(claim.state, t.backoff, now);
      return refuse(t.scope, verdict.allowed ? 1 : verdict.retryAfterSeconds, claim.state.failures);
    }
    counted.push(t.key);
  }
  return { email, address, counted };
}

/**
 * After a successful sign-in: the pair starts from zero (the owner's own typos are forgiven),
 * the address and account counts get the attempt back, and the address becomes known for the
 * account, so attacks from elsewhere cannot throttle it.
 */
export async function signInSucceeded(deps: TServiceDeps, r: TSignInReservation): Promise<void> {
  const repo = deps.repos.signInThrottle;
  const k = keys(r.email, r.address);
  for (const key of r.counted) {
    if (key === k.pair) await repo.clear(key);
    else await repo.refund(key);
  }
  await repo.markKnown(k.known, deps.now());
}

/**
 * After a password check that passed: a disabled account gets no session. The session better-auth
 * just made is ended and FORBIDDEN says why; only someone who knew the password learns that the
 * account is disabled (a wrong password reads as any wrong password).
 */
export async function refuseDisabled(deps: TServiceDeps, email: string): Promise<void> {
  const userId = await deps.repos.accounts.disabledByEmail(normalizedEmail(email));
  if (userId === null) return;
  await deps.repos.accounts.endSessions(userId);
  throw new DomainError("FORBIDDEN", "this account is disabled; ask a Jam editor to enable it");
}
