import "server-only";
import { DomainError, LONE_SURROGATE_RULE, loneSurrogatePath } from "@solserver/contracts";

/**
 * Refuses a request whose data holds a lone surrogate anywhere (a key or a value), naming where:
 * checked once per transport (REST body, tRPC input) before any schema, so no string field can
 * store one as U+FFFD.
 */
export function refuseLoneSurrogates(data: unknown): void {
  const field = loneSurrogatePath(data);
  if (field) throw new DomainError("BAD_INPUT", `${field}: ${LONE_SURROGATE_RULE}`, { field });
}
