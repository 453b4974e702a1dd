import type * as http from "node:http";

// The first request to a route evaluates its code: each route is bundled with its own copy of the
// product's modules, and evaluating them holds the event loop for up to a second per route. A
// first turn after /readyz said ready would pay that, and so would every probe and request
// queued behind it. So once the server listens, the process asks each API route and the review
// page once itself, over loopback and without credentials (each answers 401 or a redirect, with
// its code loaded), and /readyz waits for it (server/readiness.ts). The routes open the control
// plane (getServer) on the way, so its service dependencies are made by the routes' own copy of
// the product's code, whose caches every turn then finds warm; `then` runs after (the knowledge
// index, the router, the sentence model).
const WARM_UPS: readonly { method: "GET" | "POST"; path: string }[] = [
  { method: "POST", path: "/chat/respond" },
  { method: "POST", path: "/chat/respond/stream" },
  { method: "POST", path: "/api/trpc/chat.respond" },
  { method: "GET", path: "/umbra/proposals" },
  { method: "POST", path: "/umbra/promote" },
  { method: "POST", path: "/gate/evaluate" },
  { method: "GET", path: "/procedures" },
  { method: "GET", path: "/threads/warm-up/memento" },
  { method: "GET", path: "/threads/warm-up/procedure" },
  { method: "GET", path: "/review" },
];

/** How long one warm-up request may take before the next is sent (a route that hangs is a bug, not a reason to stay unready). */
const WARM_UP_TIMEOUT_MS = 60_000;

type TWarmState = { state: "off" | "loading" | "ok" };
// On globalThis: the readiness check reads it from whichever module copy answers /readyz.
const holder = globalThis as unknown as { solserverRouteWarmUp?: TWarmState };
holder.solserverRouteWarmUp ??= { state: "off" };
const warm = holder.solserverRouteWarmUp;

/** The routes' warm-up: null where none runs (next dev, tests), else "loading" until every route answered once. */
export function routeWarmUp(): "loading" | "ok" | null {
  return warm.state === "off" ? null : warm.state;
}

/**
 * Warms the routes of the first server of the process that listens or is asked anything (the
 * hook may be installed after Next's server started listening: its first probe then starts it).
 */
export function warmRoutesOnStart(httpModule: typeof http, then: () => Promise<void>): void {
  const proto = httpModule.Server.prototype as http.Server & { solserverWarmHooked?: true };
  if (proto.solserverWarmHooked) return;
  proto.solserverWarmHooked = true;
  warm.state = "loading";
  const emit = proto.emit;
  proto.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]): boolean {
    if (!started && (event === "listening" || event === "request")) void warmRoutes(this, then);
    return emit.apply(this, [event, ...args] as Parameters<typeof emit>);
  } as typeof proto.emit;
}

let started = false;
async function warmRoutes(server: http.Server, then: () => Promise<void>): Promise<void> {
  const address = server.address();
  if (started || address === null || typeof address === "string") return;
  started = true;
  const host =
    address.address === "::" || address.address === "0.0.0.0"
      ? "127.0.0.1"
      : address.family === "IPv6"
        ? `[${address.address}]`
        : address.address;
  for (const { method, path } of WARM_UPS) {
    try {
      const res = await fetch(`http://${host}:${address.port}${path}`, {
        method,
        redirect: "manual",
        signal: AbortSignal.timeout(WARM_UP_TIMEOUT_MS),
        ...(method === "POST" ? { headers: { "content-type": "application/json" }, body: "{}" } : {}),
      });
      await res.arrayBuffer();
    } catch (error) {
      console.warn(`warm-up: ${method} ${path}: ${(error as Error).message}`);
    }
  }
  warm.state = "ok";
  await then().catch((error: unknown) => console.error("warm-up:", (error as Error).message));
}
