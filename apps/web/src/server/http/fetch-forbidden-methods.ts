import type * as http from "node:http";
import { refusalResponse } from "./refusal-response";
import { methodRefusal } from "./request-guard";
import { API_CSP, securityHeaders, servedOverHttps } from "./security-headers";

// TRACE is a method the fetch API forbids: Next fails to build a Request for it and answers a
// plain-text 500 before the proxy runs. It is answered here instead, on the Node server itself,
// with the same JSON 405 (and Allow) the proxy gives any other method. (CONNECT never becomes a
// request event, and Node's parser refuses TRACK with a 400 of its own.)
const FETCH_FORBIDDEN = new Set(["TRACE"]);

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

/** Wraps every Node HTTP server's request event (once): TRACE never reaches Next. */
export function refuseFetchForbiddenMethods(httpModule: typeof http): void {
  const proto = httpModule.Server.prototype as http.Server & { solserverGuarded?: true };
  if (proto.solserverGuarded) return;
  proto.solserverGuarded = true;
  const emit = proto.emit;
  proto.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]): boolean {
    if (event === "request") {
      const [req, res] = args as [http.IncomingMessage, http.ServerResponse];
      if (FETCH_FORBIDDEN.has((req.method ?? "").toUpperCase())) {
        void answer(req, res).catch(() => res.destroy());
        return true;
      }
    }
    return emit.apply(this, [event, ...args] as Parameters<typeof emit>);
  } as typeof proto.emit;
}
