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
