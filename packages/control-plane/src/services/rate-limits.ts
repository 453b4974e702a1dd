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

function signInKeys(email: string, ip: string): string[] {
  return [`signin:account:${email.trim().toLowerCase()}`, `signin:ip:${ip}`];
}

/**
 * Before a sign-in attempt: RATE_LIMITED when the account or the IP already had
 * `signInFailures` failed attempts in the window. Successful sign-ins do not count.
 */
export async function guardSignIn(deps: TServiceDeps, email: string, ip: string): Promise<void> {
  const { signInFailures: max, signInWindowMinutes } = deps.limits;
  for (const key of signInKeys(email, ip)) {
    const state = await deps.repos.rateLimits.peek(key, {
      windowMs: signInWindowMinutes * MINUTE_MS,
      max,
      now: deps.now(),
    });
    if (!state.allowed) {
      throw new DomainError(
        "RATE_LIMITED",
        `too many failed sign-ins: at most ${max} in ${signInWindowMinutes} minutes, retry in ${state.retryAfterSeconds} s`,
        { retryAfterSeconds: state.retryAfterSeconds },
      );
    }
  }
}

/** After a failed sign-in: one more failure for the account and for the IP. */
export async function recordSignInFailure(deps: TServiceDeps, email: string, ip: string): Promise<void> {
  const { signInFailures: max, signInWindowMinutes } = deps.limits;
  for (const key of signInKeys(email, ip)) {
    await deps.repos.rateLimits.hit(key, { windowMs: signInWindowMinutes * MINUTE_MS, max, now: deps.now() });
  }
}
