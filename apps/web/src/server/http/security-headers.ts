// The security headers of every answer. Pages get a nonce-based CSP (Next reads the nonce from
// the request's CSP header and puts it on its own scripts, so no inline script runs without it);
// API answers get a CSP that allows nothing and `Cache-Control: no-store` (they carry account
// data and must not be kept by a browser or a shared cache). Both refuse to be framed.

/** A fresh nonce per page request: 16 random bytes, base64. */
export function newNonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
}

/** The dashboard's CSP: only our own scripts (and those Next marks with this nonce). */
export function pageCsp(nonce: string, opts: { https: boolean; dev: boolean }): string {
  return [
    "default-src 'self'",
    // 'unsafe-eval' only under `next dev`: React rebuilds server error stacks with eval there.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${opts.dev ? " 'unsafe-eval'" : ""}`,
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(opts.https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

/** An API answer is data, never a document: nothing may load from it, nothing may frame it. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/** The headers every answer carries, page or API. */
export function securityHeaders(opts: { csp: string; api: boolean; https: boolean }): Record<string, string> {
  return {
    "Content-Security-Policy": opts.csp,
    // For browsers without frame-ancestors: the approve / reject dashboard is never framed.
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    ...(opts.https ? { "Strict-Transport-Security": "max-age=31536000; includeSubDomains" } : {}),
    ...(opts.api ? { "Cache-Control": "no-store" } : {}),
  };
}
