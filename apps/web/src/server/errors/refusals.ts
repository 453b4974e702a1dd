import { DomainError } from "@solserver/contracts";

// The refusals a transport makes before any service runs, shared by tRPC, REST and the auth
// routes so each text exists once (tests assert them byte for byte).

/** A cookie-authenticated write from another site (CSRF). better-auth's routes say only this much. */
export const CROSS_SITE_REFUSED = "cross-site request refused";

export function crossSiteRefused(): DomainError {
  return new DomainError("FORBIDDEN", `${CROSS_SITE_REFUSED}: send it from the dashboard's own origin`);
}

export function bodyTooLarge(limit: number): DomainError {
  return new DomainError("PAYLOAD_TOO_LARGE", `body: must be at most ${limit} bytes`, { field: "body" });
}

export function bodyTimedOut(seconds: number): DomainError {
  return new DomainError("REQUEST_TIMEOUT", `body: must arrive within ${seconds} s; send it at once`, {
    field: "body",
  });
}

export function bodyNotUtf8(): DomainError {
  return new DomainError("BAD_INPUT", "body: must be valid UTF-8", { field: "body" });
}

export function bodyNotJson(): DomainError {
  return new DomainError("BAD_INPUT", "body: must be valid JSON", { field: "body" });
}

/**
 * Exactly `application/json`, optionally with `charset=utf-8` (JSON is UTF-8): look-alikes such
 * as `application/jsonp` or `application/json-patch+json` mean another format and are refused.
 */
export function isJsonContentType(header: string | null): boolean {
  return header !== null && /^application\/json\s*(?:;\s*charset\s*=\s*"?utf-8"?\s*)?$/i.test(header.trim());
}

export function bodyNotJsonContentType(): DomainError {
  return new DomainError("UNSUPPORTED_MEDIA_TYPE", "body: Content-Type must be application/json", { field: "body" });
}
