import { type NextRequest, NextResponse } from "next/server";
import { isDevelopment, servedOverHttps } from "@/env";
import { apiRouteOf } from "@/server/http/api-routes";
import { refusalResponse } from "@/server/http/refusal-response";
import { refuseRequest } from "@/server/http/request-guard";
import { API_CSP, newNonce, pageCsp, securityHeaders } from "@/server/http/security-headers";

/**
 * Every request passes here first (Next 16's proxy, the former middleware): over-long URLs and
 * headers, malformed paths and unsupported methods are refused as JSON, and every answer gets
 * its security headers. Nothing here decides who may do what: each route checks its caller.
 */
export function proxy(request: NextRequest): Response {
  const { pathname } = new URL(request.url);
  const api = apiRouteOf(pathname) !== null;
  const https = servedOverHttps();
  const nonce = api ? null : newNonce();
  const csp = nonce ? pageCsp(nonce, { https, dev: isDevelopment() }) : API_CSP;
  const headers = securityHeaders({ csp, api, https });

  const refusal = refuseRequest(request);
  const response = refusal
    ? refusalResponse(pathname, refusal)
    : NextResponse.next({ request: { headers: forwarded(request.headers, nonce ? csp : null) } });
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  if (refusal) response.headers.set("Cache-Control", "no-store");
  return response;
}

/** The request as the page renders it: Next takes the nonce for its scripts from this CSP header. */
function forwarded(headers: Headers, csp: string | null): Headers {
  const next = new Headers(headers);
  if (csp) next.set("Content-Security-Policy", csp);
  return next;
}
