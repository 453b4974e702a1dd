import { isDomainError, type TDomainErrorCode } from "@solserver/contracts";
import type { TIssueLike } from "@solserver/control-plane";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server";

/** The one place domain error codes become transport codes (tRPC and, via HTTP status, REST). */
export const DOMAIN_TO_TRPC: Record<TDomainErrorCode, TRPC_ERROR_CODE_KEY> = {
  BAD_INPUT: "BAD_REQUEST",
  NOT_FOUND: "NOT_FOUND",
  CONFLICT: "CONFLICT",
  UNSUPPORTED: "BAD_REQUEST",
  UNAUTHENTICATED: "UNAUTHORIZED",
  FORBIDDEN: "FORBIDDEN",
  RATE_LIMITED: "TOO_MANY_REQUESTS",
  PAYLOAD_TOO_LARGE: "PAYLOAD_TOO_LARGE",
  PRECONDITION_FAILED: "PRECONDITION_FAILED",
  PRECONDITION_REQUIRED: "BAD_REQUEST",
  UPSTREAM: "BAD_GATEWAY",
};

export const DOMAIN_TO_HTTP: Record<TDomainErrorCode, number> = {
  BAD_INPUT: 400,
  NOT_FOUND: 404,
  CONFLICT: 409,
  UNSUPPORTED: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  RATE_LIMITED: 429,
  PAYLOAD_TOO_LARGE: 413,
  PRECONDITION_FAILED: 412,
  PRECONDITION_REQUIRED: 428,
  UPSTREAM: 502,
};

export const MASKED_MESSAGE = "Internal server error";

/** zod (or Standard Schema) issues from a validation failure, if that is what `cause` is. */
export function validationIssues(cause: unknown): TIssueLike[] | null {
  if (cause && typeof cause === "object" && "issues" in cause && Array.isArray(cause.issues)) {
    return cause.issues as TIssueLike[];
  }
  return null;
}

export { isDomainError };
