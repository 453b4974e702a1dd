import { DomainError, MAX_HEADER_BYTES, MAX_URL_BYTES } from "@solserver/contracts";
import { allowedMethods } from "./api-routes";

// Refusals made at the edge, before routing: what Next itself would answer with a bare 431, a
// plain-text 500 (a malformed percent-escape in the path, the TRACE method) or a body-less 405.
// Each is a DomainError, answered as JSON by the proxy.

const utf8Length = (text: string) => Buffer.byteLength(text, "utf8");

/** The request target as sent (path and query), from the raw URL. */
function target(url: URL): string {
  return `${url.pathname}${url.search}`;
}

/** Sum of the header block: each line is `name: value\r\n`. */
function headerBytes(headers: Headers): number {
  let size = 0;
  for (const [name, value] of headers) size += utf8Length(name) + utf8Length(value) + 4;
  return size;
}

/** The first path segment whose percent-escapes are not valid UTF-8, or null. */
function malformedSegment(pathname: string): string | null {
  for (const segment of pathname.split("/")) {
    try {
      decodeURIComponent(segment);
    } catch {
      return segment;
    }
  }
  return null;
}

export type TRefusal = { error: DomainError; headers?: Record<string, string> };

/** Why this request is refused before it reaches a route, or null when it may go on. */
export function refuseRequest(req: Request): TRefusal | null {
  const url = new URL(req.url);
  const length = utf8Length(target(url));
  if (length > MAX_URL_BYTES) {
    return {
      error: new DomainError(
        "URI_TOO_LONG",
        `url: must be at most ${MAX_URL_BYTES} bytes (path and query), got ${length}: send large input in a POST body`,
        { field: "url" },
      ),
    };
  }
  const size = headerBytes(req.headers);
  if (size > MAX_HEADER_BYTES) {
    return {
      error: new DomainError(
        "HEADERS_TOO_LARGE",
        `headers: must be at most ${MAX_HEADER_BYTES} bytes in all, got ${size}`,
        { field: "headers" },
      ),
    };
  }
  const bad = malformedSegment(url.pathname);
  if (bad !== null) {
    return {
      error: new DomainError("BAD_INPUT", `path: "${bad.slice(0, 100)}" is not valid percent-encoded UTF-8`, {
        field: "path",
      }),
    };
  }
  return methodRefusal(req.method, url.pathname);
}

/** 405 naming what the path answers (and listing it in Allow), or null when the method is one of them. */
export function methodRefusal(method: string, pathname: string): TRefusal | null {
  const allowed = allowedMethods(pathname);
  if (allowed.includes(method.toUpperCase())) return null;
  return {
    error: new DomainError(
      "METHOD_NOT_ALLOWED",
      `method: ${method.slice(0, 20)} is not allowed here; allowed: ${allowed.join(", ")}`,
      { field: "method" },
    ),
    headers: { Allow: allowed.join(", ") },
  };
}
