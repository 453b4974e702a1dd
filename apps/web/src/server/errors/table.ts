import type { DomainError, TDomainErrorCode } from "@solserver/contracts";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server";

/** How one kind of error travels; `message` when every error of the kind says the same thing. */
type TWireError = { trpc: TRPC_ERROR_CODE_KEY; http: number; message?: string };

/**
 * The one table of what an error becomes on the wire, for every path that answers one: tRPC
 * procedures send the tRPC code (tRPC derives the HTTP status from it, so PRECONDITION_REQUIRED is
 * 400 there), and REST routes, the tRPC body-limit answer and the auth routes send the HTTP
 * status. `INTERNAL` is anything that is not a DomainError: its own message is never sent.
 */
export const ERROR_TABLE = {
  BAD_INPUT: { trpc: "BAD_REQUEST", http: 400 },
  NOT_FOUND: { trpc: "NOT_FOUND", http: 404 },
  CONFLICT: { trpc: "CONFLICT", http: 409 },
  UNSUPPORTED: { trpc: "BAD_REQUEST", http: 400 },
  UNAUTHENTICATED: { trpc: "UNAUTHORIZED", http: 401 },
  FORBIDDEN: { trpc: "FORBIDDEN", http: 403 },
  RATE_LIMITED: { trpc: "TOO_MANY_REQUESTS", http: 429 },
  PAYLOAD_TOO_LARGE: { trpc: "PAYLOAD_TOO_LARGE", http: 413 },
  REQUEST_TIMEOUT: { trpc: "TIMEOUT", http: 408 },
  PRECONDITION_FAILED: { trpc: "PRECONDITION_FAILED", http: 412 },
  PRECONDITION_REQUIRED: { trpc: "BAD_REQUEST", http: 428 },
  UPSTREAM: { trpc: "BAD_GATEWAY", http: 502 },
  UNAVAILABLE: { trpc: "SERVICE_UNAVAILABLE", http: 503 },
  METHOD_NOT_ALLOWED: { trpc: "METHOD_NOT_SUPPORTED", http: 405 },
  UNSUPPORTED_MEDIA_TYPE: { trpc: "UNSUPPORTED_MEDIA_TYPE", http: 415 },
  // tRPC has no code for these two: its clients see BAD_REQUEST, HTTP clients the exact status.
  URI_TOO_LONG: { trpc: "BAD_REQUEST", http: 414 },
  HEADERS_TOO_LARGE: { trpc: "BAD_REQUEST", http: 431 },
  INTERNAL: { trpc: "INTERNAL_SERVER_ERROR", http: 500, message: "Internal server error" },
} as const satisfies Record<TDomainErrorCode | "INTERNAL", TWireError>;

/** The headers an error carries on any HTTP answer: Retry-After when it says when to come back. */
export function errorHeaders(error: DomainError): Record<string, string> | undefined {
  return error.retryAfterSeconds === undefined ? undefined : { "Retry-After": String(error.retryAfterSeconds) };
}
