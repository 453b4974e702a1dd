// The request edge (issue 20, points 1, 2 and 5): batch limits on tRPC, the proxy's refusals
// (URL and header size, malformed percent-escapes, methods a path does not answer) and the
// security headers it puts on every answer, TRACE over a real socket, strict JSON content types
// and the text rules (invisible-only messages, lone surrogates) over the REST and tRPC routes.
import { readdirSync, statSync } from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { MAX_BATCH_CALLS, MAX_BATCH_ROWS, MAX_HEADER_BYTES, MAX_URL_BYTES, TOO_DEEP_RULE } from "@solserver/contracts";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { proxy } from "@/proxy";
import { allowedMethods, apiRouteOf } from "@/server/http/api-routes";
import { answerBeforeNext } from "@/server/http/early-answers";
import {
  BASE_URL,
  jsonPost,
  openWebServer,
  rowCounts,
  type THeaders,
  type TWebServer,
  trpcHttp,
  trpcHttpError,
} from "./helpers";

let web: TWebServer;
let alice: THeaders;

beforeAll(async () => {
  web = await openWebServer("web-request-edge");
  alice = await web.bearer(await web.account("jam", "edge-jam"), await web.account("user", "edge-alice"));
});

afterAll(async () => {
  await web?.close();
});

/** A batched tRPC GET of `calls` (path → input) through the route handler. */
async function batchGet(calls: [string, unknown][], headers: THeaders = alice) {
  const paths = calls.map(([p]) => p).join(",");
  const input = Object.fromEntries(calls.map(([, i], n) => [String(n), i]));
  const url = `${BASE_URL}/api/trpc/${paths}?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`;
  const res = await web.routes.trpc.GET(new Request(url, { headers }));
  return { status: res.status, json: (await res.json()) as unknown };
}

describe("tRPC batch limits", () => {
  it(`answers a batch of ${MAX_BATCH_CALLS} calls`, async () => {
    const res = await batchGet(Array.from({ length: MAX_BATCH_CALLS }, () => ["threads.list", { limit: 10 }]));
    expect(res.status).toBe(200);
    expect(res.json).toHaveLength(MAX_BATCH_CALLS);
  });

  it(`refuses ${MAX_BATCH_CALLS + 1} calls in one request, naming the rule, before any runs`, async () => {
    const res = await batchGet(Array.from({ length: MAX_BATCH_CALLS + 1 }, () => ["threads.list", {}]));
    expect(res.status).toBe(400);
    expect(res.json).toEqual({
      error: {
        message: `batch: at most ${MAX_BATCH_CALLS} calls per request, got ${MAX_BATCH_CALLS + 1}: send them in several requests`,
        code: -32600,
        data: { code: "BAD_REQUEST", httpStatus: 400 },
      },
    });
  });

  it(`refuses a batch asking for more than ${MAX_BATCH_ROWS} rows (calls × page limit), GET or POST`, async () => {
    const calls: [string, unknown][] = Array.from({ length: 11 }, () => ["threads.list", { limit: 100 }]);
    const res = await batchGet(calls);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.json)).toContain(`batch: at most ${MAX_BATCH_ROWS} rows per request`);
    expect(JSON.stringify(res.json)).toContain("got 1100");

    const before = await rowCounts(web.db);
    const post = await web.routes.trpc.POST(
      jsonPost(
        `/api/trpc/${Array.from({ length: 11 }, () => "chat.respond").join(",")}?batch=1`,
        Object.fromEntries(Array.from({ length: 11 }, (_, n) => [String(n), { limit: 100 }])),
        alice,
      ),
    );
    expect(post.status).toBe(400);
    expect(await rowCounts(web.db)).toEqual(before);
  });

  it("a single call is not a batch: its own schema caps its limit", async () => {
    const res = await trpcHttp(web, "threads.list", "query", { limit: 101 }, alice);
    expect(res.status).toBe(400);
    expect(trpcHttpError(res).data.field).toBe("limit");
  });
});

describe("strict JSON content types on REST routes", () => {
  const post = (type: string) =>
    web.routes.chat.POST(
      new Request(`${BASE_URL}/chat/respond`, {
        method: "POST",
        headers: { ...alice, "content-type": type },
        body: JSON.stringify({ request_id: `edge-ct-${type.length}-${Math.random()}`, message: "We chose JSON." }),
      }),
    );

  it.each(["application/jsonp", "application/json-patch+json", "application/json; charset=latin1", "text/json"])(
    "%s -> 415 UNSUPPORTED_MEDIA_TYPE naming the rule",
    async (type) => {
      const res = await post(type);
      expect(res.status).toBe(415);
      expect(await res.json()).toEqual({
        error: {
          code: "UNSUPPORTED_MEDIA_TYPE",
          message: "body: Content-Type must be application/json",
          field: "body",
        },
      });
    },
  );

  it.each(["application/json", "Application/JSON; charset=UTF-8", 'application/json;charset="utf-8"'])(
    "%s is accepted",
    async (type) => {
      expect((await post(type)).status).toBe(200);
    },
  );
});

describe("text rules where user text enters", () => {
  const respond = (body: string) => web.routes.chat.POST(jsonPost("/chat/respond", body, alice));

  it.each([
    ["zero-width spaces", "\u200b\u200b\u200b"],
    ["bidi controls", "\u202e\u2066\u2069"],
    ["a BOM, a word joiner and spaces", "\ufeff \u2060 "],
  ])("a message of only %s is refused naming message, nothing written", async (_name, message) => {
    const before = await rowCounts(web.db);
    const res = await respond(JSON.stringify({ request_id: `edge-inv-${Math.random()}`, message }));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: {
        code: "BAD_INPUT",
        message: "message: must contain visible characters, not only invisible ones (zero-width, bidi controls)",
        field: "message",
      },
    });
    expect(await rowCounts(web.db)).toEqual(before);
  });

  it("a lone surrogate in a REST body is refused naming its field (not stored as U+FFFD)", async () => {
    const before = await rowCounts(web.db);
    // JSON.stringify would escape it the same way: the raw text carries the escape itself.
    const res = await respond('{"request_id":"edge-sur-1","message":"broken \\ud800 text"}');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: {
        code: "BAD_INPUT",
        message: "message: must not contain a lone surrogate (an unpaired UTF-16 code unit)",
        field: "message",
      },
    });
    const nested = await respond(
      '{"request_id":"edge-sur-2","message":"fine","context":{"thread_memento":{"summary":"x\\udc00"}}}',
    );
    expect(nested.status).toBe(400);
    expect(((await nested.json()) as { error: { field: string } }).error.field).toBe("context.thread_memento.summary");
    expect(await rowCounts(web.db)).toEqual(before);
  });

  it("a lone surrogate in a tRPC input is refused naming its field; a real pair passes", async () => {
    const res = await trpcHttp(
      web,
      "chat.respond",
      "mutation",
      '{"request_id":"edge-sur-3","message":"a\\ud83d"}',
      alice,
    );
    expect(res.status).toBe(400);
    expect(trpcHttpError(res)).toMatchObject({
      message: "message: must not contain a lone surrogate (an unpaired UTF-16 code unit)",
      data: { field: "message", domainCode: "BAD_INPUT" },
    });
    const ok = await trpcHttp(
      web,
      "chat.respond",
      "mutation",
      { request_id: "edge-sur-4", message: "rocket \u{1f680}" },
      alice,
    );
    expect(ok.status).toBe(200);
  });

  // 20,000 levels of [[[…]]]: 40 KB, under the body limit. The walk is iterative and stops at
  // MAX_INPUT_DEPTH, so the answer is a 400 naming where, never a stack overflow's 500.
  const DEEP = `{"request_id":"edge-deep","message":${"[".repeat(20_000)}${"]".repeat(20_000)}}`;

  it("a body nested deeper than MAX_INPUT_DEPTH is refused naming where, on REST and tRPC", async () => {
    const before = await rowCounts(web.db);
    const res = await respond(DEEP);
    expect(res.status).toBe(400);
    const error = ((await res.json()) as { error: { code: string; message: string; field: string } }).error;
    expect(error.code).toBe("BAD_INPUT");
    expect(error.message).toBe(`${error.field}: ${TOO_DEEP_RULE}`);
    expect(error.field).toMatch(/^message(\.0){63}$/);
    const trpc = await trpcHttp(web, "chat.respond", "mutation", DEEP, alice);
    expect(trpc.status).toBe(400);
    expect(trpcHttpError(trpc).data).toMatchObject({ domainCode: "BAD_INPUT", field: error.field });
    expect(await rowCounts(web.db)).toEqual(before);
  });

  it("an anonymous tRPC call is refused for who it is before its input is read", async () => {
    const res = await trpcHttp(web, "chat.respond", "mutation", DEEP);
    expect(res.status).toBe(401);
    expect(trpcHttpError(res).data).toMatchObject({ code: "UNAUTHORIZED" });
  });
});

// ---- the proxy ---------------------------------------------------------------------------------

function viaProxy(pathAndQuery: string, init: { method?: string; headers?: THeaders } = {}) {
  return proxy(new NextRequest(`http://127.0.0.1:3000${pathAndQuery}`, init));
}

describe("the proxy's refusals, as JSON", () => {
  it(`a URL over ${MAX_URL_BYTES} bytes -> 414 URI_TOO_LONG`, async () => {
    const res = viaProxy(`/umbra/proposals?q=${"a".repeat(MAX_URL_BYTES)}`);
    expect(res.status).toBe(414);
    expect(await res.json()).toMatchObject({ error: { code: "URI_TOO_LONG", field: "url" } });
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it(`headers over ${MAX_HEADER_BYTES} bytes -> 431 HEADERS_TOO_LARGE (tRPC's shape under /api/trpc)`, async () => {
    const res = viaProxy("/api/trpc/system.health", { headers: { "x-filler": "b".repeat(MAX_HEADER_BYTES) } });
    expect(res.status).toBe(431);
    expect(await res.json()).toEqual({
      error: {
        message: expect.stringMatching(
          new RegExp(`^headers: must be at most ${MAX_HEADER_BYTES} bytes in all, got \\d+$`),
        ),
        code: -32600,
        data: { code: "BAD_REQUEST", httpStatus: 431 },
      },
    });
  });

  it.each(["/threads/%E0%A4%A/memento", "/cfbs/%E0%A4%A", "/api/trpc/%FF", "/%"])(
    "a malformed percent-escape in %s -> 400 naming the path",
    async (target) => {
      const res = viaProxy(target);
      expect(res.status).toBe(400);
      const body = JSON.stringify(await res.json());
      expect(body).toContain("is not valid percent-encoded UTF-8");
    },
  );

  it.each([
    ["DELETE", "/umbra/proposals", "GET, HEAD, OPTIONS"],
    ["PATCH", "/threads/T-1/memento", "GET, PUT, HEAD, OPTIONS"],
    ["POST", "/cfbs", "GET, HEAD"],
    ["PUT", "/api/trpc/system.health", "GET, POST, HEAD, OPTIONS"],
  ])("%s %s -> 405 with Allow: %s", async (method, target, allow) => {
    const res = viaProxy(target, { method });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe(allow);
    expect(JSON.stringify(await res.json())).toContain(`method: ${method} is not allowed here; allowed: ${allow}`);
  });

  it("lets a well-formed request through (encoded UTF-8 in the path is fine)", () => {
    for (const target of [
      "/threads/T-%C3%A9t%C3%A9/memento",
      "/cfbs",
      "/api/trpc/system.health?batch=1&input=%7B%7D",
    ]) {
      expect(viaProxy(target).headers.get("x-middleware-next")).toBe("1");
    }
  });
});

describe("security headers on every answer", () => {
  const frameAndSniff = (h: Headers) => ({
    xfo: h.get("x-frame-options"),
    nosniff: h.get("x-content-type-options"),
    referrer: h.get("referrer-policy"),
  });

  it("a page: a nonce CSP (new per request, handed to Next on the request), frame-ancestors 'none', no HSTS over http", () => {
    const first = viaProxy("/proposals/UP-0001");
    const csp = first.headers.get("content-security-policy") ?? "";
    const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toContain(`script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).not.toContain("upgrade-insecure-requests");
    // Next reads the nonce for its own scripts from the forwarded request's CSP header.
    expect(first.headers.get("x-middleware-request-content-security-policy")).toBe(csp);
    expect(frameAndSniff(first.headers)).toEqual({ xfo: "DENY", nosniff: "nosniff", referrer: "same-origin" });
    expect(first.headers.get("strict-transport-security")).toBeNull();
    expect(viaProxy("/proposals/UP-0001").headers.get("content-security-policy")).not.toBe(csp);
  });

  it.each([
    "/api/trpc/system.health",
    "/api/auth/get-session",
    "/umbra/proposals",
    "/threads/T-1/memento",
    "/chat/respond",
  ])("an API answer (%s): no-store, a CSP that allows nothing, nosniff, DENY", (target) => {
    const res = viaProxy(target, { method: apiRouteOf(target)?.methods[0] ?? "GET" });
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(frameAndSniff(res.headers)).toEqual({ xfo: "DENY", nosniff: "nosniff", referrer: "same-origin" });
  });

  it("HSTS and upgrade-insecure-requests only when SOLSERVER_BASE_URL is https", () => {
    const saved = process.env.SOLSERVER_BASE_URL;
    try {
      process.env.SOLSERVER_BASE_URL = "https://sol.example";
      const page = viaProxy("/");
      expect(page.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
      expect(page.headers.get("content-security-policy")).toContain("upgrade-insecure-requests");
      expect(viaProxy("/umbra/proposals").headers.get("strict-transport-security")).toBe(
        "max-age=31536000; includeSubDomains",
      );
    } finally {
      process.env.SOLSERVER_BASE_URL = saved;
    }
  });
});

describe("answers before Next, over a real socket: TRACE (Next cannot build a fetch Request for it) and liveness", () => {
  it("answers 405 JSON with Allow and the security headers; other methods reach the app", async () => {
    answerBeforeNext(http);
    const server = http.createServer((_req, res) => res.writeHead(204).end());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const send = (method: string, target: string) =>
      new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
        const req = http.request({ host: "127.0.0.1", port, method, path: target }, (res) => {
          let body = "";
          res.on("data", (c) => {
            body += c;
          });
          res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        });
        req.on("error", reject);
        req.end();
      });
    try {
      const trace = await send("TRACE", "/umbra/proposals");
      expect(trace.status).toBe(405);
      expect(trace.headers.allow).toBe("GET, HEAD, OPTIONS");
      expect(trace.headers["cache-control"]).toBe("no-store");
      expect(trace.headers["x-content-type-options"]).toBe("nosniff");
      expect(JSON.parse(trace.body)).toEqual({
        error: {
          code: "METHOD_NOT_ALLOWED",
          message: "method: TRACE is not allowed here; allowed: GET, HEAD, OPTIONS",
          field: "method",
        },
      });
      expect((await send("TRACE", "/")).headers.allow).toBe("GET, HEAD");
      expect((await send("GET", "/")).status).toBe(204);
      // The liveness probe is answered here too, never reaching the app (whose answer is 204).
      const live = await send("GET", "/healthz?probe=1");
      expect(live.status).toBe(200);
      expect(JSON.parse(live.body)).toEqual({ status: "ok" });
      expect(live.headers["cache-control"]).toBe("no-store");
      expect(live.headers["x-content-type-options"]).toBe("nosniff");
      const head = await send("HEAD", "/healthz");
      expect([head.status, head.body]).toEqual([200, ""]);
      // Only that path and those methods: the rest reach the app.
      expect((await send("POST", "/healthz")).status).toBe(204);
      expect((await send("GET", "/healthz/x")).status).toBe(204);
      expect((await send("GET", "/readyz")).status).toBe(204);
      // Given the readiness question, /readyz is answered here too: 200 or 503, a failure as 503.
      type TAnswer = { ok: boolean; checks: Record<string, string> };
      let answer: () => Promise<TAnswer> = async () => ({ ok: true, checks: { database: "ok" } });
      answerBeforeNext(http, () => answer());
      expect(await send("GET", "/readyz")).toMatchObject({
        status: 200,
        body: '{"status":"ok","checks":{"database":"ok"}}',
      });
      answer = async () => ({ ok: false, checks: { database: "ok", sentence_model: "loading" } });
      expect(await send("GET", "/readyz")).toMatchObject({
        status: 503,
        body: '{"status":"unavailable","checks":{"database":"ok","sentence_model":"loading"}}',
      });
      answer = async () => {
        throw new Error("database gone");
      };
      const failed = await send("GET", "/readyz");
      expect([failed.status, failed.headers["cache-control"]]).toEqual([503, "no-store"]);
    } finally {
      server.close();
    }
  });
});

describe("the API route table", () => {
  const appDir = path.resolve(__dirname, "../src/app");
  const routeFiles = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) return routeFiles(full);
      return name === "route.ts" ? [full] : [];
    });

  it("matches every route file and the methods it exports", async () => {
    const seen = await Promise.all(
      routeFiles(appDir).map(async (file) => {
        // A sample URL for the file: groups dropped, a dynamic segment filled in.
        const url = path
          .relative(appDir, path.dirname(file))
          .split(path.sep)
          .filter((s) => !/^\(.*\)$/.test(s))
          .map((s) => (s.startsWith("[...") ? "sign-in/email" : s.startsWith("[") ? "x" : s))
          .join("/");
        const mod = (await import(file)) as Record<string, unknown>;
        const exported = Object.keys(mod)
          .filter((name) => /^(GET|POST|PUT|PATCH|DELETE)$/.test(name))
          .sort();
        return { url: `/${url}`, exported, table: [...(apiRouteOf(`/${url}`)?.methods ?? [])].sort() };
      }),
    );
    expect(seen.length).toBeGreaterThanOrEqual(10);
    for (const route of seen) expect(route.exported, route.url).toEqual(route.table);
    expect(allowedMethods("/threads/x")).toEqual(["GET", "HEAD"]);
  });
});
