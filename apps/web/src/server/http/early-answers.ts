import type * as http from "node:http";
import { refusalResponse } from "./refusal-response";
import { methodRefusal } from "./request-guard";
import { API_CSP, securityHeaders, servedOverHttps } from "./security-headers";

// Two answers are given on the Node server itself, before Next sees the request:
// - TRACE, a method the fetch API forbids: Next fails to build a Request for it and answers a
//   plain-text 500 before the proxy runs. It gets the same JSON 405 (and Allow) the proxy gives
//   any other method. (CONNECT never becomes a request event; Node's parser refuses TRACK.)
// - the liveness probe, GET /healthz: under load every hop through Next's pipeline (proxy,
//   routing, the route handler) may wait behind a chat turn's synchronous work, and a probe must
//   answer within its timeout. Answered here it waits for one turn of the event loop at most
//   (docs/performance.md, bench:load). The route file app/healthz answers the same where this
//   hook is not installed (next dev).
const FETCH_FORBIDDEN = new Set(["TRACE"]);

/** GET or HEAD /healthz, with or without a query string. */
function isLiveness(method: string, url: string | undefined): boolean {
  if (method !== "GET" && method !== "HEAD") return false;
  const path = (url ?? "").split("?")[0];
  return path === "/healthz";
}

/** The liveness answer (the route's: app/healthz/route.ts), with the API's headers (no-store among them). */
function answerLiveness(method: string, res: http.ServerResponse): void {
  const body = JSON.stringify({ status: "ok" });
  res
    .writeHead(200, {
      ...securityHeaders({ csp: API_CSP, api: true, https: servedOverHttps() }),
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
    })
    .end(method === "HEAD" ? undefined : body);
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

/** Wraps every Node HTTP server's request event (once): TRACE and liveness never reach Next. */
export function answerBeforeNext(httpModule: typeof http): void {
  const proto = httpModule.Server.prototype as http.Server & { solserverGuarded?: true };
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
      if (isLiveness(method, req.url)) {
        answerLiveness(method, res);
        return true;
      }
    }
    return emit.apply(this, [event, ...args] as Parameters<typeof emit>);
  } as typeof proto.emit;
}
