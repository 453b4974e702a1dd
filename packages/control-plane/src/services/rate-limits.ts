import { DomainError } from "@solserver/contracts";
import type { TServiceDeps } from "./deps";

const MINUTE_MS = 60_000;

/**
 * Counts one call against a per-minute budget (`key`, at most `max`); RATE_LIMITED with the wait
 * when over it: `too many <what>: at most <max> <per>, retry in <n> s`.
 */
async function chargePerMinute(deps: TServiceDeps, key: string, max: number, what: string, per: string): Promise<void> {
  const decision = await deps.repos.rateLimits.hit(key, { windowMs: MINUTE_MS, max, now: deps.now() });
  if (!decision.allowed) {
    throw new DomainError(
      "RATE_LIMITED",
      `too many ${what}: at most ${max} ${per}, retry in ${decision.retryAfterSeconds} s`,
      { retryAfterSeconds: decision.retryAfterSeconds },
    );
  }
}

/** Counts a chat turn against the account's per-minute budget; RATE_LIMITED when over it. */
export function chargeChatTurn(deps: TServiceDeps, userId: string): Promise<void> {
  return chargePerMinute(deps, `chat:user:${userId}`, deps.limits.chatTurnsPerMinute, "chat turns", "per minute");
}

/**
 * Counts one read (a tRPC query, a REST GET) against the account's per-minute budget;
 * RATE_LIMITED when over it. Bounds what one account can make the server read, alongside the
 * batch limits that bound a single request.
 */
export function chargeRead(deps: TServiceDeps, userId: string): Promise<void> {
  return chargePerMinute(deps, `read:user:${userId}`, deps.limits.readsPerMinute, "reads", "per minute per account");
}
