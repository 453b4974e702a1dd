import type * as http from "node:http";
import { servedOverHttps } from "@/env";
import { refusalResponse } from "./refusal-response";
import { methodRefusal } from "./request-guard";
import { API_CSP, securityHeaders } from "./security-headers";

// Two answers are given on the Node server itself, before Next sees the request:
// - TRACE, a method the fetch API forbids: Next fails to build a Request for it and answers a
//   plain-text 500 before the proxy runs. It gets the same JSON 405 (and Allow) the proxy gives
//   any other method. (CONNECT never becomes a request event; Node's parser refuses TRACK.)
// - the health probes, GET /healthz and GET /readyz: under load every hop through Next's pipeline
//   (proxy, routing, the route handler) may wait behind a chat turn's synchronous work, and a
//   probe must answer within its timeout. Answered here, liveness waits for one turn of the event
//   loop at most and readiness for its one read (docs/performance.md, bench:load). The route
//   files app/healthz and app/readyz answer the same where this hook is not installed (next dev).
const FETCH_FORBIDDEN = new Set(["TRACE"]);

/** The readiness probe's question (server/readiness.ts): ready, and what each check found. */
export type TReadiness = () => Promise<{ ok: boolean; checks: Record<string, string> }>;

/** Which probe a GET or HEAD asks for, with or without a query string; null for anything else. */
function probeOf(method: string, url: string | undefined): "healthz" | "readyz" | null {
  if (method !== "GET" && method !== "HEAD") return null;
  const path = (url ?? "").split("?")[0];
  return path === "/healthz" || path === "/readyz" ? (path.slice(1) as "healthz" | "readyz") : null;
}

/** A probe's answer (the routes': app/healthz, app/readyz), with the API's headers (no-store among them). */
function answerProbe(method: string, res: http.ServerResponse, ok: boolean, checks?: Record<string, string>): void {
  const status = ok ? "ok" : "unavailable";
  const body = JSON.stringify(checks ? { status, checks } : { status });
  res
    .writeHead(ok ? 200 : 503, {
      ...securityHeaders({ csp: API_CSP, api: true, https: servedOverHttps() }),
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
    })
    .end(method === "HEAD" ? undefined : body);
}

async function readiness(ready: TReadiness): ReturnType<TReadiness> {
  try {
    return await ready();
  } catch (error) {
    console.error("readiness probe:", error);
    return { ok: false, checks: { database: "unavailable" } };
  }
}

async function answer(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const pathname = (req.url ?? "/").split("?")[0] ?? "/";
  const refusal = methodRefusal(req.method ?? "", pathname);
  if (!refusal) return void res.writeHead(405).end();
  const response = refusalResponse(pathname, refusal);
  const headers = {
    ...Object.fromEntries(response.headers),
    ...securityHeaders({ csp: API_CSP, api: true, https: servedOverHttps() }),
  };
  res.writeHead(response.status, headers).end(await response.text());
}

/**
 * Wraps every Node HTTP server's request event (once): TRACE and the probes never reach Next.
 * Without `ready`, /readyz is left to its route.
 */
export function answerBeforeNext(httpModule: typeof http, ready?: TReadiness): void {
  const proto = httpModule.Server.prototype as http.Server & { solserverGuarded?: true; solserverReady?: TReadiness };
  // A later call may hand over the readiness question (the wrapper below reads it per request).
  if (ready) proto.solserverReady = ready;
  if (proto.solserverGuarded) return;
  proto.solserverGuarded = true;
  const emit = proto.emit;
  proto.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]): boolean {
    if (event === "request") {
      const [req, res] = args as [http.IncomingMessage, http.ServerResponse];
      const method = (req.method ?? "").toUpperCase();
      if (FETCH_FORBIDDEN.has(method)) {
        void answer(req, res).catch(() => res.destroy());
        return true;
      }
      const probe = probeOf(method, req.url);
      if (probe === "healthz") {
        answerProbe(method, res, true);
        return true;
      }
      const askReady = proto.solserverReady;
      if (probe === "readyz" && askReady) {
        void readiness(askReady).then(({ ok, checks }) => answerProbe(method, res, ok, checks));
        return true;
      }
    }
    return emit.apply(this, [event, ...args] as Parameters<typeof emit>);
  } as typeof proto.emit;
}
