// Calls to the test web server over HTTP as Next runs it: each REST route through its route
// handler, tRPC through its fetch handler, answers read whole (a server-sent event stream is read
// to its `final` event), and the error shapes of both transports.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { TWebServer } from "./helpers";

/** SOLSERVER_BASE_URL of the test server: its origin (and the 127.0.0.1 twin) is trusted. */
export const BASE_URL = "http://localhost:3000";

/** Headers of a request: `Cookie` (a browser session) and/or `Authorization`, `Origin` and others. */
export type THeaders = Record<string, string>;

export type THttpResult = { status: number; headers: Headers; text: string; json: unknown };

/** The events of a server-sent event stream's text, in order. */
export function sseEvents(text: string): { event: string; data: unknown }[] {
  return text
    .split("\n\n")
    .filter((block) => block.trim() !== "")
    .map((block) => {
      const lines = block.split("\n");
      const event = lines.find((l) => l.startsWith("event: "))?.slice(7) ?? "message";
      const data = lines
        .filter((l) => l.startsWith("data: "))
        .map((l) => l.slice(6))
        .join("\n");
      return { event, data: JSON.parse(data) as unknown };
    });
}

/**
 * A route's answer, read whole. For an event stream `json` is what a JSON route would have
 * answered: the `final` event's data, or `{ error }` from an `error` event.
 */
async function settle(res: Response): Promise<THttpResult> {
  const text = await res.text();
  let json: unknown = null;
  if ((res.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
    const events = sseEvents(text);
    const final = events.find((e) => e.event === "final");
    const error = events.find((e) => e.event === "error");
    return {
      status: res.status,
      headers: res.headers,
      text,
      json: final?.data ?? (error ? { error: error.data } : null),
    };
  }
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: res.status, headers: res.headers, text, json };
}

export type TRestRoute =
  | "POST /chat/respond"
  | "POST /chat/respond/stream"
  | "GET /umbra/proposals"
  | "POST /umbra/promote"
  | "GET /threads/[id]/memento"
  | "PUT /threads/[id]/memento"
  | "GET /threads/[id]/procedure"
  | "GET /procedures"
  | "POST /gate/evaluate"
  | "GET /healthz"
  | "GET /readyz";

/**
 * One REST call through its Next route handler. `body` is JSON-encoded unless it is a string;
 * for GET, `query` is the query string (with its "?").
 */
export async function rest(
  web: TWebServer,
  route: TRestRoute,
  opts: { headers?: THeaders; body?: unknown; query?: string } = {},
): Promise<THttpResult> {
  const headers = opts.headers ?? {};
  switch (route) {
    case "GET /umbra/proposals":
      return settle(
        await web.routes.proposals.GET(new Request(`${BASE_URL}/umbra/proposals${opts.query ?? ""}`, { headers })),
      );
    case "POST /chat/respond":
      return settle(await web.routes.chat.POST(jsonPost("/chat/respond", opts.body, headers)));
    case "POST /chat/respond/stream":
      return settle(await web.routes.chatStream.POST(jsonPost("/chat/respond/stream", opts.body, headers)));
    case "POST /umbra/promote":
      return settle(await web.routes.promote.POST(jsonPost("/umbra/promote", opts.body, headers)));
    case "POST /gate/evaluate":
      return settle(await web.routes.gate.POST(jsonPost("/gate/evaluate", opts.body, headers)));
    case "GET /threads/[id]/memento": {
      // `query` carries the thread id for this route.
      const id = opts.query ?? "";
      const req = new Request(`${BASE_URL}/threads/${id}/memento`, { headers });
      return settle(await web.routes.memento.GET(req, { params: Promise.resolve({ id }) }));
    }
    case "GET /healthz":
      return settle(await web.routes.healthz.GET());
    case "GET /readyz":
      return settle(await web.routes.readyz.GET());
    case "GET /procedures":
      return settle(await web.routes.procedures.GET(new Request(`${BASE_URL}/procedures`, { headers })));
    case "GET /threads/[id]/procedure": {
      // `query` carries the thread id for this route.
      const id = opts.query ?? "";
      const req = new Request(`${BASE_URL}/threads/${id}/procedure`, { headers });
      return settle(await web.routes.procedure.GET(req, { params: Promise.resolve({ id }) }));
    }
    case "PUT /threads/[id]/memento": {
      // `body` is { thread_id, version, memento }: the id goes in the path, the version in If-Match.
      const { thread_id: id, version, memento } = opts.body as { thread_id: string; version: number; memento: unknown };
      const req = new Request(`${BASE_URL}/threads/${id}/memento`, {
        method: "PUT",
        headers: { "content-type": "application/json", "if-match": `"${version}"`, ...headers },
        body: JSON.stringify(memento),
      });
      return settle(await web.routes.memento.PUT(req, { params: Promise.resolve({ id }) }));
    }
  }
}

/** A JSON POST to `path` on the test server. */
export function jsonPost(path: string, body: unknown, headers: THeaders = {}): Request {
  return new Request(`${BASE_URL}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/**
 * One tRPC call over HTTP through the app's route handler (context from the request: token,
 * cookie or nobody; body cap; Retry-After). Queries are GETs, mutations POSTs.
 */
export async function trpcHttp(
  web: TWebServer,
  path: string,
  type: "query" | "mutation",
  input: unknown,
  headers: THeaders = {},
): Promise<THttpResult> {
  const url = `${BASE_URL}/api/trpc/${path}`;
  if (type === "query") {
    const query = input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`;
    return settle(await web.routes.trpc.GET(new Request(`${url}${query}`, { headers })));
  }
  return settle(
    await web.routes.trpc.POST(
      new Request(url, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: typeof input === "string" ? input : JSON.stringify(input ?? null),
      }),
    ),
  );
}

/** The `{ error: { code, message, field } }` of a REST answer. */
export function restError(result: THttpResult): { code: string; message: string; field: string | null } {
  const error = (result.json as { error?: { code: string; message: string; field: string | null } } | null)?.error;
  if (!error) throw new Error(`expected a REST error body, got ${result.text}`);
  return error;
}

/** The `error` of a tRPC HTTP answer: its message and data (code, httpStatus, domainCode, field ...). */
export function trpcHttpError(result: THttpResult): {
  message: string;
  data: { code: string; httpStatus: number; domainCode?: string | null; field?: string | null };
} {
  const error = (result.json as { error?: ReturnType<typeof trpcHttpError> } | null)?.error;
  if (!error) throw new Error(`expected a tRPC error body, got ${result.text}`);
  return error;
}

/** The `result.data` of a successful tRPC HTTP answer. */
export function trpcHttpData<T = Record<string, unknown>>(result: THttpResult): T {
  const data = (result.json as { result?: { data: T } } | null)?.result;
  if (!data) throw new Error(`expected a tRPC result, got ${result.status} ${result.text}`);
  return data.data;
}

// ---- route handlers behind a real socket ---------------------------------------------------------

/** A fetch Request for an incoming node request (body read whole: requests are small JSON). */
async function toRequest(origin: string, req: IncomingMessage): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  const body = chunks.length > 0 ? Buffer.concat(chunks) : null;
  return new Request(`${origin}${req.url}`, { method: req.method ?? "GET", headers, body });
}

/** Writes a fetch Response to the socket piece by piece; a client that leaves cancels the body. */
async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  const reader = response.body?.getReader();
  if (!reader) return void res.end();
  res.on("close", () => {
    if (!res.writableFinished) void reader.cancel();
  });
  for (;;) {
    const { done, value } = await reader.read();
    if (done || res.destroyed) break;
    res.write(value);
  }
  res.end();
}

export type TRouteServer = { server: Server; origin: string; close(): Promise<void> };

/**
 * The given route handlers (by exact path) behind a node:http server on 127.0.0.1, answering as
 * they write: a client reads a streamed answer as it arrives, over a real socket.
 */
export async function serveRoutes(routes: Record<string, (req: Request) => Promise<Response>>): Promise<TRouteServer> {
  let origin = "";
  const server = createServer((req, res) => {
    const handler = routes[req.url ?? ""];
    if (!handler) return void res.writeHead(404).end();
    void toRequest(origin, req)
      .then(handler)
      .then((response) => writeResponse(response, res))
      .catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    server,
    origin,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
