// What a failed tRPC call means for the page: the code the server sent (UNAUTHORIZED,
// FORBIDDEN, ...), read from the error's data without caring which query produced it.

export type TTrpcErrorData = {
  code?: string;
  httpStatus?: number;
  field?: string | null;
  retryAfterSeconds?: number | null;
};

export function trpcErrorData(error: unknown): TTrpcErrorData | null {
  if (error && typeof error === "object" && "data" in error) {
    const data = (error as { data: unknown }).data;
    if (data && typeof data === "object") return data as TTrpcErrorData;
  }
  return null;
}

export function trpcCode(error: unknown): string | null {
  return trpcErrorData(error)?.code ?? null;
}

export function isUnauthorized(error: unknown): boolean {
  return trpcCode(error) === "UNAUTHORIZED";
}

export function isForbidden(error: unknown): boolean {
  return trpcCode(error) === "FORBIDDEN";
}

/** 4xx answers say something about the request; asking again will not change them. */
export function isClientError(error: unknown): boolean {
  const status = trpcErrorData(error)?.httpStatus;
  return typeof status === "number" && status >= 400 && status < 500;
}

/**
 * The request never got an answer (the server is stopped, restarting or unreachable): a fetch
 * failure, with no status from the server.
 */
export function isNetworkError(error: unknown): boolean {
  if (!(error instanceof Error) || trpcErrorData(error)?.httpStatus !== undefined) return false;
  const cause = (error as { cause?: unknown }).cause;
  return error instanceof TypeError || cause instanceof TypeError || /fetch|network/i.test(error.message);
}

/** How long the browser waits for any call before it gives up and says so (providers.tsx). */
export const CALL_TIMEOUT_MS = 120_000;

/** The call was given up after CALL_TIMEOUT_MS without an answer (a server paused or overloaded). */
export function isTimedOut(error: unknown): boolean {
  let e: unknown = error;
  for (let depth = 0; e instanceof Error && depth < 4; depth++) {
    if (e.name === "TimeoutError") return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** What a failed call says to a person: the server's message, or that it could not be reached. */
export function errorText(error: { message: string }): string {
  if (isTimedOut(error))
    return `the server did not answer within ${CALL_TIMEOUT_MS / 60_000} minutes; it may still finish: reload the page to see`;
  return isNetworkError(error) ? "the server is not reachable; it is retried" : error.message;
}

/** The sign-in page, coming back to `path` afterwards. */
export function signInHref(path: string): string {
  return path && path !== "/" ? `/sign-in?next=${encodeURIComponent(path)}` : "/sign-in";
}
