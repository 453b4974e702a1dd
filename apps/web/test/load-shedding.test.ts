// Load shedding (issue 20) over a real socket: the route handlers behind node:http, a bound of 2
// requests at work with 1 waiting, and a model server that holds its answers until the test lets
// them go, so the bound is reached exactly when the test says.
//  - past the bound and the queue: 503 with Retry-After, in REST's and tRPC's error shapes,
//    before the request is identified or its body read (nothing is written);
//  - a waiter that waits too long is refused the same way; the queue drains as slots free up;
//  - a streamed turn holds its slot until the turn ends, not just until its first event;
//  - /healthz and /readyz never queue: they answer at once with the bound full.
import type { ServerResponse } from "node:http";
import { warmUp } from "@solserver/control-plane";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadSheddingStats } from "@/server/load-shedding";
import { answer, openHostileWeb, type TFakeModelServer, type TFakeRequest } from "./fake-model-server";
import { rowCounts, serveRoutes, type THeaders, type TRouteServer, type TWebServer } from "./helpers";

// Long enough that the checks a test makes while a request waits in the queue finish within it on
// a busy machine (1.5 s was not, at load 20 on 2 cores); one test waits it out.
const WAIT_MS = 10_000;
const RETRY_AFTER = String(Math.ceil(WAIT_MS / 1000));

let fake: TFakeModelServer;
let web: TWebServer;
let http: TRouteServer;
let asService: THeaders;
let closeServers: (() => Promise<void>) | undefined;
let seq = 0;

/** Model calls waiting for the test to let them answer. */
let held: { request: TFakeRequest; res: ServerResponse }[] = [];
const envelope = JSON.stringify({
  assistant_text: "Restart the workers after rotating it.",
  meta: { modeLabel: "System" },
});

function releaseModel() {
  for (const { request, res } of held.splice(0)) void answer(request, res, envelope);
}

async function until(condition: () => boolean, what: string) {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function chat(path = "/chat/respond") {
  return fetch(`${http.origin}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...asService },
    body: JSON.stringify({ request_id: `shed-${++seq}`, message: "How do we rotate the database credentials?" }),
  });
}
const get = (path: string, headers: THeaders = asService) => fetch(`${http.origin}${path}`, { headers });

/** Two chat turns at work (both waiting on the model): the bound is full. */
async function fillSlots() {
  const turns = [chat(), chat()];
  await until(() => held.length === 2, "two model calls");
  expect(loadSheddingStats()).toMatchObject({ active: 2, queued: 0 });
  return turns;
}

beforeAll(async () => {
  const opened = await openHostileWeb("web-load-shedding", {
    SOLSERVER_MAX_CONCURRENT_REQUESTS: "2",
    SOLSERVER_MAX_QUEUED_REQUESTS: "1",
    SOLSERVER_MAX_QUEUE_WAIT_MS: String(WAIT_MS),
    SOLSERVER_MODEL_MAX_ATTEMPTS: "1",
    // Without the sentence model, and warmed up as a started server is: /readyz must say ready.
    SOLSERVER_EMBEDDINGS: "off",
  });
  ({ fake, web, asService } = opened);
  await warmUp(web.deps);
  closeServers = opened.close;
  http = await serveRoutes({
    "/chat/respond": web.routes.chat.POST,
    "/chat/respond/stream": web.routes.chatStream.POST,
    "/umbra/proposals": web.routes.proposals.GET,
    "/api/trpc/system.health": web.routes.trpc.GET,
    "/healthz": async () => web.routes.healthz.GET(),
    "/readyz": web.routes.readyz.GET,
  });
});

afterAll(async () => {
  releaseModel();
  await http?.close();
  await closeServers?.();
});

beforeEach(() => {
  fake.reset((request, res) => {
    held.push({ request, res });
  });
  held = [];
});

describe("past the bound and the queue", () => {
  it("answers 503 with Retry-After in REST's and tRPC's shapes, writing nothing; the queue drains", async () => {
    const turns = await fillSlots();
    const queued = get("/umbra/proposals");
    await until(() => loadSheddingStats().queued === 1, "a queued request");

    const before = await rowCounts(web.db);
    const shed = await chat();
    expect(shed.status).toBe(503);
    expect(shed.headers.get("retry-after")).toBe(RETRY_AFTER);
    expect(await shed.json()).toEqual({
      error: { code: "UNAVAILABLE", message: `server busy: try again in ${RETRY_AFTER} s`, field: null },
    });

    const trpc = await get("/api/trpc/system.health");
    expect(trpc.status).toBe(503);
    expect(trpc.headers.get("retry-after")).toBe(RETRY_AFTER);
    expect(await trpc.json()).toMatchObject({
      error: {
        message: `server busy: try again in ${RETRY_AFTER} s`,
        data: { code: "SERVICE_UNAVAILABLE", httpStatus: 503 },
      },
    });

    // Refused before the caller is identified: no credentials give the same answer, not a 401.
    expect((await get("/umbra/proposals", {})).status).toBe(503);
    expect(await rowCounts(web.db)).toEqual(before);
    expect(held).toHaveLength(2);

    releaseModel();
    for (const res of await Promise.all(turns)) expect(res.status).toBe(200);
    expect((await queued).status).toBe(200);
    expect(loadSheddingStats()).toMatchObject({ active: 0, queued: 0 });
    // Capacity is back: the next turn goes through.
    const next = chat();
    await until(() => held.length === 1, "the next model call");
    releaseModel();
    expect((await next).status).toBe(200);
  });

  it("refuses a request that waited longer than SOLSERVER_MAX_QUEUE_WAIT_MS", async () => {
    const turns = await fillSlots();
    const { shed } = loadSheddingStats();
    const waiting = get("/umbra/proposals");
    // Queued (the queue had room), then refused while both slots stayed busy: its wait ran out.
    await until(() => loadSheddingStats().queued === 1, "the queued request");
    const waited = await waiting;
    expect(waited.status).toBe(503);
    expect(waited.headers.get("retry-after")).toBe(RETRY_AFTER);
    expect(loadSheddingStats()).toMatchObject({ active: 2, queued: 0, shed: shed + 1 });
    releaseModel();
    for (const res of await Promise.all(turns)) expect(res.status).toBe(200);
  });

  it("a streamed turn holds its slot until the turn ends, not just until its first event", async () => {
    const text = "Rotate the credentials from the secrets manager, then restart every worker one by one. ";
    const long = JSON.stringify({ assistant_text: text.repeat(4), meta: { modeLabel: "System" } });
    fake.reset((request, res) => {
      // Most of a long answer at once (the stream guard holds back only its last few words), the
      // rest when the test lets it go.
      res.writeHead(200, { "content-type": "text/event-stream" });
      const piece = JSON.stringify({
        id: "c",
        object: "chat.completion.chunk",
        created: 1,
        model: "hostile",
        choices: [{ index: 0, delta: { content: long.slice(0, -40) }, finish_reason: null }],
      });
      res.write(`data: ${piece}\n\n`);
      held.push({ request, res });
    });
    const res = await chat("/chat/respond/stream");
    expect(res.status).toBe(200);
    await until(() => held.length === 1, "the streamed model call");
    expect(loadSheddingStats().active).toBe(1);
    // Finish the model's answer (the rest of the envelope, then the end of the stream).
    const [call] = held.splice(0);
    if (!call) throw new Error("no model call");
    const rest = JSON.stringify({
      id: "c",
      object: "chat.completion.chunk",
      created: 1,
      model: "hostile",
      choices: [{ index: 0, delta: { content: long.slice(-40) }, finish_reason: "stop" }],
    });
    call.res.end(`data: ${rest}\n\ndata: [DONE]\n\n`);
    expect(await res.text()).toContain("event: final");
    await until(() => loadSheddingStats().active === 0, "the slot back");
  });
});

describe("the health probes", () => {
  it("/healthz and /readyz answer at once while the bound and the queue are full", async () => {
    const turns = await fillSlots();
    const queued = get("/umbra/proposals");
    await until(() => loadSheddingStats().queued === 1, "a queued request");
    for (const path of ["/healthz", "/readyz"]) {
      const res = await get(path, {});
      expect(res.status, path).toBe(200);
      expect(res.headers.get("cache-control"), path).toBe("no-store");
      expect(await res.json(), path).toMatchObject({ status: "ok" });
    }
    expect(loadSheddingStats()).toMatchObject({ active: 2, queued: 1 });
    releaseModel();
    await Promise.all(turns);
    await queued;
  });

  it("/readyz is 503 (and says which check failed, nothing more) when the database does not answer", async () => {
    const { repos } = web.deps;
    const ping = repos.system.ping;
    repos.system.ping = () => Promise.reject(new Error("SQLITE_CANTOPEN: /secret/path.db"));
    try {
      const res = await get("/readyz", {});
      expect(res.status).toBe(503);
      const body = await res.text();
      expect(JSON.parse(body)).toMatchObject({ status: "unavailable", checks: { database: "unavailable" } });
      expect(body).not.toContain("secret");
      // A database that hangs is not ready either, once the short timeout runs out.
      repos.system.ping = () => new Promise(() => {});
      const hung = await get("/readyz", {});
      expect(hung.status).toBe(503);
    } finally {
      repos.system.ping = ping;
    }
    expect((await get("/readyz", {})).status).toBe(200);
  });
});
