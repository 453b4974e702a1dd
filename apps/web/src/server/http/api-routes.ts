// The API routes (route.ts files) and the methods each answers, for the proxy: a path here is an
// API answer (JSON, no-store, a tight CSP), any other path is a dashboard page (GET and HEAD).
// A test (apps/web/test/request-edge.test.ts) holds this table to the route files' exports.

import { trimEndWhile } from "@solserver/contracts";

type TApiRoute = { pattern: RegExp; methods: readonly string[] };

const API_ROUTES: readonly TApiRoute[] = [
  { pattern: /^\/api\/trpc\/[^/]+$/, methods: ["GET", "POST"] },
  { pattern: /^\/api\/auth\/.+$/, methods: ["GET", "POST"] },
  { pattern: /^\/chat\/respond$/, methods: ["POST"] },
  { pattern: /^\/chat\/respond\/stream$/, methods: ["POST"] },
  { pattern: /^\/umbra\/proposals$/, methods: ["GET"] },
  { pattern: /^\/umbra\/promote$/, methods: ["POST"] },
  { pattern: /^\/gate\/evaluate$/, methods: ["POST"] },
  { pattern: /^\/procedures$/, methods: ["GET"] },
  { pattern: /^\/threads\/[^/]+\/memento$/, methods: ["GET", "PUT"] },
  { pattern: /^\/threads\/[^/]+\/procedure$/, methods: ["GET"] },
  // Health probes (server/probes.ts): JSON, no-store, never shed.
  { pattern: /^\/healthz$/, methods: ["GET"] },
  { pattern: /^\/readyz$/, methods: ["GET"] },
];

/** The API route a raw path belongs to, or null for a page (or a framework asset). */
export function apiRouteOf(pathname: string): TApiRoute | null {
  const path = pathname.length > 1 ? trimEndWhile(pathname, (c) => c === "/") : pathname;
  return API_ROUTES.find((route) => route.pattern.test(path)) ?? null;
}

/**
 * What a path answers, as an Allow header would list it: an API route's own methods, with HEAD
 * beside GET and the OPTIONS Next answers for every route handler; a page GET and HEAD.
 */
export function allowedMethods(pathname: string): string[] {
  const route = apiRouteOf(pathname);
  if (!route) return ["GET", "HEAD"];
  const methods = new Set(route.methods);
  if (methods.has("GET")) methods.add("HEAD");
  methods.add("OPTIONS");
  return [...methods];
}
