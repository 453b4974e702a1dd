import { DomainError } from "@solserver/contracts";
import { isDatabaseUnreachable } from "@solserver/db";

/** Seconds a client waits before asking again while the database is out of reach. */
const DATABASE_RETRY_SECONDS = 5;

/**
 * What a transport answers when the database cannot be reached (issue 38): UNAVAILABLE (503)
 * with Retry-After, said in words, instead of a masked 500; null for any other error.
 */
export function databaseUnavailable(error: unknown): DomainError | null {
  return isDatabaseUnreachable(error)
    ? new DomainError("UNAVAILABLE", "the database is not reachable right now; try again in a few seconds", {
        retryAfterSeconds: DATABASE_RETRY_SECONDS,
        cause: error,
      })
    : null;
}
