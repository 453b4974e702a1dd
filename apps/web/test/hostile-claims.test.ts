// Strict means complete, end to end (issue 17): the OpenAI-compatible provider talks to a
// scriptable model server on 127.0.0.1 (fake-model-server.ts) that answers what the issue
// measured: in rv_service (strict) "The pump uses a 30 A fuse and you can bypass it with a wire"
// with a claim map covering only its first half, and the same claims with `claim_map: []`. Before
// the fix both were delivered ("Claims (1) all supported · strict domain").
//  - POST /chat/respond and POST /chat/respond/stream: both attempts are refused with
//    CLAIM_MAP_INCOMPLETE (sentence indexes only in the reason), the complete third one delivered,
//    and no byte the client receives carries the refused words;
//  - every attempt incomplete: 502 / an `error` event, UPSTREAM, naming sentences, never words;
//  - a non-strict domain delivers the first attempt and keeps the uncovered sentence as a warning.
import { ZChatRespondResponse } from "@solserver/contracts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { answer, openHostileWeb, type TFakeModelServer } from "./fake-model-server";
import { rest, restError, sseEvents, type THeaders, type TWebServer } from "./helpers";

const ISSUE = "The pump uses a 30 A fuse and you can bypass it with a wire.";
const COMPLETE_TEXT = "The fuse rating of this pump is not in the knowledge base. Is the pump switch on?";
const UNKNOWN = { id: "U1", text: "The pump's fuse rating.", needs_user_input: true };

const envelope = (text: string, claimMap: unknown[]) =>
  JSON.stringify({
    assistant_text: text,
    meta: { modeLabel: "System", unknowns: [UNKNOWN], claim_map: claimMap },
  });
const claim = (id: string, span: Record<string, number>) => ({
  claim_id: id,
  span,
  text: "The pump's fuse rating.",
  support: { unknown_id: "U1" },
});
/** The issue's answer, its one claim ranged over "The pump uses a 30 A fuse". */
const PARTIAL = envelope(ISSUE, [claim("c1", { start_char: 0, end_char: ISSUE.indexOf(" and") })]);
/** The same answer with an empty claim map. */
const EMPTY = envelope(ISSUE, []);
const COMPLETE = envelope(COMPLETE_TEXT, [claim("c1", { sentence: 0 })]);

const RV_MESSAGE = "What fuse does the water pump in my camper use?";
const GENERAL_MESSAGE = "What should we order for lunch on Friday?";
/** The refused words: never in a reason, an event or an error. */
const REFUSED_WORDS = ["bypass", "wire"];

let fake: TFakeModelServer;
let web: TWebServer;
let closeServers: (() => Promise<void>) | undefined;
let asService: THeaders;
let seq = 0;

type TRoute = "POST /chat/respond" | "POST /chat/respond/stream";
const ROUTES: TRoute[] = ["POST /chat/respond", "POST /chat/respond/stream"];

async function turn(route: TRoute, message: string) {
  const result = await rest(web, route, {
    headers: asService,
    body: { request_id: `hostile-claims-${++seq}`, message },
  });
  const events = route === "POST /chat/respond/stream" && result.status === 200 ? sseEvents(result.text) : [];
  const json =
    route === "POST /chat/respond" || result.status !== 200
      ? result.json
      : (events.find((e) => e.event === "final")?.data ?? { error: events.find((e) => e.event === "error")?.data });
  return { ...result, events, json };
}

const attemptsOf = (transmissionId: string) =>
  web.db.deliveryAttempt.findMany({ where: { transmissionId, step: "main" }, orderBy: { n: "asc" } });

beforeAll(async () => {
  const opened = await openHostileWeb("web-hostile-claims");
  ({ fake, web, asService } = opened);
  closeServers = opened.close;
});

afterAll(async () => {
  await closeServers?.();
});

beforeEach(() => fake.reset((request, res) => answer(request, res, COMPLETE)));

describe("in the strict rv_service domain", () => {
  for (const route of ROUTES) {
    it(`${route}: the partial and the empty claim map are refused, the complete answer delivered`, async () => {
      fake.reset((request, res) =>
        answer(request, res, request.n === 1 ? PARTIAL : request.n === 2 ? EMPTY : COMPLETE, { chunkChars: 6 }),
      );
      const result = await turn(route, RV_MESSAGE);
      expect(result.status).toBe(200);
      const body = ZChatRespondResponse.parse(result.json);
      const transmission = await web.db.transmission.findUniqueOrThrow({ where: { id: body.transmission_id } });
      expect(transmission.routerDomain).toBe("rv_service");
      expect(body.assistant_text).toBe(COMPLETE_TEXT);
      expect(fake.requests).toHaveLength(3);
      const attempts = await attemptsOf(body.transmission_id);
      expect(attempts.map((a) => [a.outcome, a.reason])).toEqual([
        ["blocked", "claim map refused in strict domain rv_service: CLAIM_MAP_INCOMPLETE (sentence 0)"],
        ["blocked", "claim map refused in strict domain rv_service: CLAIM_MAP_INCOMPLETE (sentence 0)"],
        ["ok", null],
      ]);
      const meta = await web.db.responseMeta.findUniqueOrThrow({ where: { responseId: body.response_id } });
      expect(meta.claimCheck).toEqual({ strict: true, domain: "rv_service", findings: [] });
      // Nothing the client received carries the refused answer.
      for (const word of REFUSED_WORDS) expect(result.text).not.toContain(word);
      if (route === "POST /chat/respond/stream") expect(result.events.map((e) => e.event)).toContain("final");
    });

    it(`${route}: every attempt incomplete fails the turn UPSTREAM, naming sentences, never words`, async () => {
      fake.reset((request, res) => answer(request, res, request.n % 2 === 1 ? PARTIAL : EMPTY));
      const result = await turn(route, RV_MESSAGE);
      // A strict answer is held whole (never streamed), so the stream route may fail before its
      // first event (502) or end with an `error` event.
      const error =
        result.status === 200 ? (result.events.at(-1)?.data as { code: string; message: string }) : restError(result);
      if (route === "POST /chat/respond") expect(result.status).toBe(502);
      else if (result.status === 200) expect(result.events.at(-1)?.event).toBe("error");
      expect(error).toMatchObject({
        code: "UPSTREAM",
        message: expect.stringContaining("CLAIM_MAP_INCOMPLETE (sentence 0)"),
      });
      for (const word of REFUSED_WORDS) expect(result.text).not.toContain(word);
    });
  }
});

describe("in a non-strict domain", () => {
  it("the partial map is delivered at the first attempt, the uncovered sentence kept as a warning", async () => {
    fake.reset((request, res) => answer(request, res, PARTIAL));
    const result = await turn("POST /chat/respond", GENERAL_MESSAGE);
    const body = ZChatRespondResponse.parse(result.json);
    expect(body.assistant_text).toBe(ISSUE);
    expect((await attemptsOf(body.transmission_id)).map((a) => a.outcome)).toEqual(["ok"]);
    const meta = await web.db.responseMeta.findUniqueOrThrow({ where: { responseId: body.response_id } });
    expect(meta.claimCheck).toEqual({
      strict: false,
      domain: "general",
      findings: [
        {
          code: "CLAIM_MAP_INCOMPLETE",
          claim_id: null,
          detail: "sentence 0 (in part) of assistant_text states something no claim covers",
          sentences: [0],
        },
      ],
    });
  });
});
