import "server-only";
import {
  actorFromBearer,
  actorFromSession,
  clientAddressOf,
  proxyMatcher,
  type TActor,
  type TProxyMatcher,
} from "@solserver/control-plane";
import { serverEnv } from "@/server/server-env";
import type { TServer } from "./control-plane";
import { PEER_ADDRESS_HEADER } from "./peer-address";

export type TRequestIdentity = {
  actor: TActor;
  /** A cookie-authenticated write from another site (CSRF): refused with FORBIDDEN. */
  crossSiteWrite: boolean;
};

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Whether a cookie-authenticated request comes from our own pages: its Origin is one of the
 * trusted origins, or the browser says Sec-Fetch-Site: same-origin. A write with neither is
 * refused; browsers send Origin on every cross-site POST, so a missing one is not trusted either.
 */
export function isSameOrigin(req: Request, trustedOrigins: readonly string[]): boolean {
  const origin = req.headers.get("origin");
  if (origin !== null) return trustedOrigins.includes(origin);
  return req.headers.get("sec-fetch-site") === "same-origin";
}

/**
 * Who sent the request: an API token (Authorization: Bearer) wins; else the session cookie;
 * else anonymous. Done per request inside the handler, never in Next middleware, so a
 * middleware bypass (e.g. a forged x-middleware-subrequest header) opens nothing.
 */
export async function identify(req: Request, server: TServer): Promise<TRequestIdentity> {
  const authorization = req.headers.get("authorization");
  if (authorization !== null) {
    const match = /^Bearer ([A-Za-z0-9_-]{1,200})$/.exec(authorization.trim());
    const actor: TActor = match?.[1] ? await actorFromBearer(server.deps, match[1]) : { kind: "anonymous" };
    return { actor, crossSiteWrite: false };
  }
  const session = await server.auth.api.getSession({ headers: req.headers });
  if (!session) return { actor: { kind: "anonymous" }, crossSiteWrite: false };
  const actor = await actorFromSession(server.deps, session.user.id);
  const crossSiteWrite = !SAFE_METHODS.has(req.method) && !isSameOrigin(req, serverEnv().trustedOrigins);
  return { actor, crossSiteWrite };
}

let trusted: { entries: readonly string[]; isTrusted: TProxyMatcher } | undefined;

/**
 * The client's address for per-address limits: the socket's (stamped by peer-address.ts), or,
 * behind a proxy listed in SOLSERVER_TRUSTED_PROXIES, the hop that proxy saw. X-Forwarded-For
 * from anyone else is ignored: a client could write any address there.
 */
export function clientIp(req: Request): string {
  const entries = serverEnv().trustedProxies;
  if (trusted?.entries !== entries) trusted = { entries, isTrusted: proxyMatcher(entries) };
  return clientAddressOf(req.headers.get(PEER_ADDRESS_HEADER), req.headers.get("x-forwarded-for"), trusted.isTrusted);
}
