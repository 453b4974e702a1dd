import { DomainError } from "@solserver/contracts";
import type { TServiceDeps } from "./deps";

const MINUTE_MS = 60_000;

/** Counts a chat turn against the account's per-minute budget; RATE_LIMITED when over it. */
export async function chargeChatTurn(deps: TServiceDeps, userId: string): Promise<void> {
  const max = deps.limits.chatTurnsPerMinute;
  const decision = await deps.repos.rateLimits.hit(`chat:user:${userId}`, {
    windowMs: MINUTE_MS,
    max,
    now: deps.now(),
  });
  if (!decision.allowed) {
    throw new DomainError(
      "RATE_LIMITED",
      `too many chat turns: at most ${max} per minute, retry in ${decision.retryAfterSeconds} s`,
      {
        retryAfterSeconds: decision.retryAfterSeconds,
      },
    );
  }
}

/**
 * Counts one read (a tRPC query, a REST GET) against the account's per-minute budget;
 * RATE_LIMITED when over it. Bounds what one account can make the server read, alongside the
 * batch limits that bound a single request.
 */
export async function chargeRead(deps: TServiceDeps, userId: string): Promise<void> {
  const max = deps.limits.readsPerMinute;
  const decision = await deps.repos.rateLimits.hit(`read:user:${userId}`, {
    windowMs: MINUTE_MS,
    max,
    now: deps.now(),
  });
  if (!decision.allowed) {
    throw new DomainError(
      "RATE_LIMITED",
      `too many reads: at most ${max} per minute per account, retry in ${decision.retryAfterSeconds} s`,
      { retryAfterSeconds: decision.retryAfterSeconds },
    );
  }
}

function signInKeys(email: string, ip: string): string[] {
  return [`signin:account:${email.trim().toLowerCase()}`, `signin:ip:${ip}`];
}

/**
 * Before a sign-in attempt: counts it, atomically, against the account and the IP, and refuses
 * with RATE_LIMITED when either is over `signInFailures` in the window. Counting first (and
 * refunding on success) means a burst of parallel guesses cannot all slip past the check.
 */
export async function reserveSignIn(deps: TServiceDeps, email: string, ip: string): Promise<void> {
  const { signInFailures: max, signInWindowMinutes } = deps.limits;
  const opts = { windowMs: signInWindowMinutes * MINUTE_MS, max, now: deps.now() };
  const decisions = [];
  for (const key of signInKeys(email, ip)) decisions.push(await deps.repos.rateLimits.hit(key, opts));
  const refused = decisions.find((d) => !d.allowed);
  if (refused) {
    throw new DomainError(
      "RATE_LIMITED",
      `too many failed sign-ins: at most ${max} in ${signInWindowMinutes} minutes, retry in ${refused.retryAfterSeconds} s`,
      { retryAfterSeconds: refused.retryAfterSeconds },
    );
  }
}

/** After a successful sign-in: the reserved attempt was not a failure. */
export async function refundSignIn(deps: TServiceDeps, email: string, ip: string): Promise<void> {
  for (const key of signInKeys(email, ip)) await deps.repos.rateLimits.refund(key);
}
