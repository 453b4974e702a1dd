// POST /chat/respond/stream over real HTTP: the Next route handlers (the streamed one and the
// plain JSON one) behind a node:http server on 127.0.0.1 that hands each response body to the
// socket chunk by chunk, read by an http.request client as the bytes arrive. The offline model
// pauses SOLSERVER_OFFLINE_STREAM_DELAY_MS between chunks, so the answer really arrives over time:
//  - `delta` events come at different times before `final`, join to a prefix of its text,
//    `final` is the whole response (ids, proposals, memento version) and `memento` follows with
//    the thread's updated memento at that version;
//  - an answer that would contain a phone number never shows it and ends with an `error` event;
//  - a client that disconnects mid-answer does not stop the turn: it is stored whole and the
//    same request_id replays it on POST /chat/respond;
//  - refusals before the turn starts are plain JSON errors with their status (401, 400, 403, 409);
//  - POST /chat/respond keeps its JSON shape.
import { request } from "node:http";
import { type TChatRespondResponse, ZChatRespondResponse, ZThreadMementoRecord } from "@solserver/contracts";
import { offlineEnvelope } from "@solserver/control-plane";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BASE_URL,
  FOREIGN_ORIGIN,
  openWebServer,
  serveRoutes,
  sseEvents,
  type THeaders,
  type TRouteServer,
  type TWebServer,
} from "./helpers";

const CHUNK_DELAY_MS = 20;

let web: TWebServer;
let http: TRouteServer;
let origin: string;
let asService: THeaders;
let asBrowser: THeaders;
let seq = 0;
const requestId = () => `stream-${++seq}`;

// ---- the client: http.request, events as they arrive --------------------------------------------

type TArrival = { event: string; data: Record<string, unknown>; at: number };
type TCall = { status: number; contentType: string; events: TArrival[]; json: unknown; disconnected: boolean };

/**
 * POSTs `body` as JSON and reads the answer as it arrives: the events of an event stream with the
 * time each one arrived, or the JSON body. `leaveAfterFirstDelta` destroys the request (the
 * client goes away) as soon as the first delta is in.
 */
function post(path: string, body: unknown, headers: THeaders, leaveAfterFirstDelta = false): Promise<TCall> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const req = request(
      `${origin}${path}`,
      { method: "POST", headers: { "content-type": "application/json", ...headers } },
      (res) => {
        const contentType = res.headers["content-type"] ?? "";
        const call: TCall = { status: res.statusCode ?? 0, contentType, events: [], json: null, disconnected: false };
        let buffer = "";
        res.setEncoding("utf8");
        res.on("data", (piece: string) => {
          buffer += piece;
          if (!contentType.startsWith("text/event-stream")) return;
          for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
            const [event] = sseEvents(buffer.slice(0, end + 2));
            buffer = buffer.slice(end + 2);
            if (event)
              call.events.push({
                event: event.event,
                data: event.data as Record<string, unknown>,
                at: performance.now(),
              });
          }
          if (leaveAfterFirstDelta && call.events.some((e) => e.event === "delta")) {
            call.disconnected = true;
            req.destroy();
            resolve(call);
          }
        });
        res.on("end", () => {
          if (!contentType.startsWith("text/event-stream")) call.json = JSON.parse(buffer);
          resolve(call);
        });
        res.on("error", (error) => {
          if (!call.disconnected) reject(error);
        });
      },
    );
    req.on("error", (error) => {
      if (!leaveAfterFirstDelta) reject(error);
    });
    req.end(payload);
  });
}

const deltas = (call: TCall) => call.events.filter((e) => e.event === "delta");
const shownText = (call: TCall) =>
  deltas(call)
    .map((e) => e.data.text as string)
    .join("");
const finalOf = (call: TCall) => call.events.find((e) => e.event === "final")?.data as TChatRespondResponse | undefined;
const errorBody = (value: unknown) =>
  (value as { error: { code: string; message: string; field: string | null } }).error;

/** The offline model's answer to a first message of a thread, with an empty knowledge base. */
const offlineAnswer = (message: string) => offlineEnvelope({ message, history: [], cfbs: [] }).assistant_text;

const LONG_MESSAGE =
  "We decided to move the analytics warehouse to Postgres next quarter. Remember that the reporting dashboards refresh every morning. How do we rotate the database credentials?";

beforeAll(async () => {
  web = await openWebServer("web-chat-stream", { SOLSERVER_OFFLINE_STREAM_DELAY_MS: String(CHUNK_DELAY_MS) });
  http = await serveRoutes({
    "/chat/respond/stream": (req) => web.routes.chatStream.POST(req),
    "/chat/respond": (req) => web.routes.chat.POST(req),
  });
  origin = http.origin;
  const jam = await web.account("jam");
  const user = await web.account("user");
  asService = await web.bearer(jam, user);
  asBrowser = await web.browser(user);
});

afterAll(async () => {
  await http?.close();
  await web?.close();
});

describe("POST /chat/respond/stream", () => {
  it("sends deltas over time, then the whole response as final and the updated memento", async () => {
    const call = await post("/chat/respond/stream", { request_id: requestId(), message: LONG_MESSAGE }, asService);
    expect(call.status).toBe(200);
    expect(call.contentType).toMatch(/^text\/event-stream/);
    expect(call.events.map((e) => e.event).filter((e) => e !== "delta")).toEqual(["final", "memento"]);
    const firstNonDelta = call.events.findIndex((e) => e.event !== "delta");
    expect(call.events.slice(firstNonDelta).map((e) => e.event)).toEqual(["final", "memento"]);

    const pieces = deltas(call);
    expect(pieces.length).toBeGreaterThanOrEqual(3);
    expect(pieces.every((e) => e.data.n === 1)).toBe(true);
    // They arrived while the model wrote, not in one burst.
    expect(new Set(pieces.map((e) => Math.round(e.at))).size).toBeGreaterThanOrEqual(3);
    expect((pieces.at(-1)?.at ?? 0) - (pieces[0]?.at ?? 0)).toBeGreaterThanOrEqual(2 * CHUNK_DELAY_MS);

    const final = ZChatRespondResponse.parse(finalOf(call));
    expect(final.assistant_text).toBe(offlineAnswer(LONG_MESSAGE));
    expect(final.assistant_text.startsWith(shownText(call))).toBe(true);
    expect(shownText(call).length).toBeLessThan(final.assistant_text.length);
    expect(final).toMatchObject({
      packet_id: expect.stringMatching(/^P-\d+$/),
      transmission_id: expect.stringMatching(/^T-\d+$/),
      attempt_id: expect.stringMatching(/^A-\d+$/),
      response_id: expect.stringMatching(/^R-\d+$/),
      replayed: false,
      ui_hints: { has_proposals: true },
    });
    expect(final.ui_hints.proposal_previews.map((p) => p.title)).toEqual([
      "Move the analytics warehouse to Postgres next quarter",
      "The reporting dashboards refresh every morning",
    ]);
    expect(final.thread_memento_version).toEqual(expect.any(Number));
    const memento = ZThreadMementoRecord.parse(call.events.at(-1)?.data);
    expect(memento).toMatchObject({ thread_id: final.thread_id, version: final.thread_memento_version });
    const stored = await web.db.threadMemento.findUniqueOrThrow({ where: { threadId: final.thread_id } });
    expect(stored.version).toBe(final.thread_memento_version);
  });

  it("never shows a phone number the answer would contain, and ends with an UPSTREAM error", async () => {
    const id = requestId();
    const message =
      "How do we rotate the database credentials for the reporting replica? Should I call 415 555 1212 about the outage?";
    expect(offlineAnswer(message)).toContain("415 555 1212");
    const call = await post("/chat/respond/stream", { request_id: id, message }, asService);
    // The clean first sentence streamed before the number was written: the answer is a stream.
    expect(call.status).toBe(200);
    expect(deltas(call).length).toBeGreaterThan(0);
    expect(shownText(call)).not.toMatch(/\d/);
    expect(offlineAnswer(message).startsWith(shownText(call))).toBe(true);
    expect(call.events.some((e) => e.event === "final")).toBe(false);
    const last = call.events.at(-1);
    expect(last?.event).toBe("error");
    expect(last?.data).toMatchObject({ code: "UPSTREAM", message: expect.stringContaining("PII detected") });
    // What was shown of the refused attempt is retracted before the error.
    expect(call.events.at(-2)).toMatchObject({
      event: "retract",
      data: { n: 1, reason: "this attempt was not delivered" },
    });
    // What the events carry, not when they arrived (a time stamp may hold any digits).
    expect(JSON.stringify(call.events.map((e) => [e.event, e.data]))).not.toContain("1212");
    expect(await web.db.packet.count({ where: { requestId: id } })).toBe(0);
  });

  it("a client that disconnects mid-answer: the turn is stored whole and the request_id replays it", async () => {
    const id = requestId();
    const message = `${LONG_MESSAGE} Who owns the warehouse migration?`;
    const call = await post("/chat/respond/stream", { request_id: id, message }, asService, true);
    expect(call.disconnected).toBe(true);
    expect(call.events.some((e) => e.event === "final")).toBe(false);

    const packet = await waitFor(() => web.db.packet.findFirst({ where: { requestId: id } }));
    const transmission = await web.db.transmission.findFirstOrThrow({
      where: { packetId: packet.id },
      include: { responses: true },
    });
    expect(transmission.status).toBe("done");
    const stored = transmission.responses[0]?.assistantText ?? "";
    expect(stored).toBe(offlineAnswer(message));
    expect(stored.startsWith(shownText(call))).toBe(true);
    expect(shownText(call).length).toBeLessThan(stored.length);

    const replay = await post("/chat/respond", { request_id: id, message }, asService);
    expect(replay.status).toBe(200);
    expect(replay.json).toMatchObject({
      replayed: true,
      packet_id: packet.id,
      transmission_id: transmission.id,
      assistant_text: stored,
    });
    // Replayed, not answered again: still one packet for the key.
    expect(await web.db.packet.count({ where: { requestId: id } })).toBe(1);
  });

  describe("refusals before the turn starts are plain JSON with their status", () => {
    it.each([
      [
        "no account",
        () => ({}),
        { request_id: "r-anon", message: "Hello there, what now?" },
        401,
        "UNAUTHENTICATED",
        null,
      ],
      ["a body without a message", () => asService, { request_id: "r-bad" }, 400, "BAD_INPUT", "message"],
      [
        "a cookie write from another site",
        () => ({ ...asBrowser, origin: FOREIGN_ORIGIN }),
        { request_id: "r-csrf", message: "Hello there, what now?" },
        403,
        "FORBIDDEN",
        null,
      ],
    ])("%s", async (_name, headers, body, status, code, field) => {
      const call = await post("/chat/respond/stream", body, headers());
      expect(call.status).toBe(status);
      expect(call.contentType).toMatch(/^application\/json/);
      expect(call.events).toEqual([]);
      expect(errorBody(call.json)).toMatchObject({ code, field });
    });

    it("a reused request_id with another message is CONFLICT 409", async () => {
      const id = requestId();
      const first = await post("/chat/respond/stream", { request_id: id, message: LONG_MESSAGE }, asService);
      expect(finalOf(first)).toBeDefined();
      const again = await post(
        "/chat/respond/stream",
        { request_id: id, message: "Something else entirely" },
        asService,
      );
      expect(again.status).toBe(409);
      expect(errorBody(again.json)).toMatchObject({ code: "CONFLICT", field: "request_id" });
    });

    it("the same cookie from the dashboard's own origin is served as a stream", async () => {
      const call = await post(
        "/chat/respond/stream",
        { request_id: requestId(), message: "Hello there, what now?" },
        { ...asBrowser, origin: BASE_URL },
      );
      expect(call.status).toBe(200);
      expect(finalOf(call)?.replayed).toBe(false);
    });
  });
});

describe("POST /chat/respond", () => {
  it("keeps its JSON shape: the same fields as a streamed final, no events", async () => {
    const streamed = finalOf(
      await post("/chat/respond/stream", { request_id: requestId(), message: LONG_MESSAGE }, asService),
    );
    const call = await post("/chat/respond", { request_id: requestId(), message: LONG_MESSAGE }, asService);
    expect(call.status).toBe(200);
    expect(call.contentType).toMatch(/^application\/json/);
    expect(call.events).toEqual([]);
    const body = ZChatRespondResponse.parse(call.json);
    expect(Object.keys(call.json as object).sort()).toEqual(Object.keys(streamed ?? {}).sort());
    expect(body.assistant_text).toBe(streamed?.assistant_text);
    expect(body).toMatchObject({ replayed: false, ui_hints: { has_proposals: true } });
  });
});

/** Polls `read` until it gives a value (the turn of a client that left finishes on its own). */
async function waitFor<T>(read: () => Promise<T | null>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`nothing after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
