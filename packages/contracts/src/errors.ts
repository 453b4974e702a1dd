// Domain error codes, shared by services (which throw them) and transports (which map them).
export const DOMAIN_ERROR_CODES = [
  "BAD_INPUT", // the request is well-formed JSON but breaks a rule (names the field)
  "NOT_FOUND", // a referenced entity does not exist
  "CONFLICT", // the state moved: already promoted, request_id reused with another body
  "UNSUPPORTED", // a known action that this build does not perform yet
  "UNAUTHENTICATED", // nobody is signed in, and the call needs someone who is
  "FORBIDDEN", // the caller may not touch this entity
  "RATE_LIMITED", // too many requests (carries retryAfterSeconds)
  "PAYLOAD_TOO_LARGE", // a request body over the size limit
  "PRECONDITION_FAILED", // an If-Match (ETag) that is no longer current
  "PRECONDITION_REQUIRED", // a conditional write sent without If-Match
  "UPSTREAM", // the model provider failed or returned an envelope that breaks the contract
  "UNAVAILABLE", // the server is at capacity: shed before any work (carries retryAfterSeconds)
  "METHOD_NOT_ALLOWED", // an HTTP method the path does not answer (carries Allow)
  "UNSUPPORTED_MEDIA_TYPE", // a body that is not sent as application/json
  "URI_TOO_LONG", // a request line (path and query) over the URL limit
  "HEADERS_TOO_LARGE", // request headers over the header limit
  "REQUEST_TIMEOUT", // a request body not received in time (a slow sender)
] as const;
export type TDomainErrorCode = (typeof DOMAIN_ERROR_CODES)[number];

/**
 * Marks a DomainError whichever copy of this module made it: Next bundles instrumentation.ts apart
 * from the route handlers, so a server opened there throws another copy's class, which
 * `instanceof` would not recognise.
 */
const DOMAIN_ERROR = Symbol.for("solserver.DomainError");

/**
 * The one error type services throw on purpose. Transports (tRPC, REST) map `code` to their own
 * status; anything else that escapes a service is unexpected and its message is masked.
 */
export class DomainError extends Error {
  readonly code: TDomainErrorCode;
  /** The input field the problem is about, when there is one (e.g. "proposal_id"). */
  readonly field: string | undefined;
  /** For RATE_LIMITED and UNAVAILABLE: seconds until a retry can succeed (sent as Retry-After). */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    code: TDomainErrorCode,
    message: string,
    options?: { field?: string | undefined; cause?: unknown; retryAfterSeconds?: number },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "DomainError";
    Object.defineProperty(this, DOMAIN_ERROR, { value: true });
    this.code = code;
    this.field = options?.field;
    this.retryAfterSeconds =
      options?.retryAfterSeconds === undefined ? undefined : clampRetryAfter(options.retryAfterSeconds);
  }
}

/** Longest wait a Retry-After asks for: an hour. */
export const MAX_RETRY_AFTER_SECONDS = 3600;

/**
 * Retry-After as sent: whole seconds in [1, MAX_RETRY_AFTER_SECONDS]. A computed 0, a negative or
 * a fractional wait (clock skew, a window just ending) would tell a client to retry at once or
 * never; NaN becomes the longest wait.
 */
export function clampRetryAfter(seconds: number): number {
  if (!Number.isFinite(seconds)) return MAX_RETRY_AFTER_SECONDS;
  return Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, Math.ceil(seconds)));
}

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof Error && (error as unknown as Record<symbol, unknown>)[DOMAIN_ERROR] === true;
}

/** The REST façade's error body: `{ "error": { "code", "message", "field" } }`. */
export type TRestError = { error: { code: TDomainErrorCode | "INTERNAL"; message: string; field: string | null } };
