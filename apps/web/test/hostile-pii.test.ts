// PII is judged on what people read, end to end over real HTTP (issue 17): the OpenAI-compatible
// provider talks to a scriptable model server on 127.0.0.1 (fake-model-server.ts), and the chat
// routes are served by node:http on 127.0.0.1 and called with fetch. The model answers the
// envelope the issue measured: a phone and a card number, each behind a control character, in
// assistant_text, and the owner's phone the same way in a proposal's delta_summary. Before the
// fix the gate scanned JSON.stringify(envelope), where "\u0001" glued its last hex digit to the
// number: the answer was delivered, streamed in `final`, and the phone reached the review queue.
//  - POST /chat/respond: the attempt is blocked, the next one delivered; when every attempt
//    carries PII the turn fails with UPSTREAM and nothing is stored; no proposal holds the phone;
//  - POST /chat/respond/stream: no event on the wire (delta, retract, final, error) carries it.
import { ZChatRespondResponse } from "@solserver/contracts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { answer, openHostileWeb, type TFakeModelServer } from "./fake-model-server";
import { serveRoutes, sseEvents, type THeaders, type TRouteServer, type TWebServer } from "./helpers";

const MEASURED = "Call the owner at\u0001415-555-1212 or charge card\u00014111111111111111 today.";
/** What must never reach a client or the database, in any form the scanner reads. */
const LEAKS = ["415-555-1212", "4111111111111111", "5551212", "1111111111111111"];

const suggestion = (title: string, summary: string) => ({
  op: "create",
  title,
  delta_summary: summary,
  confidence: 0.8,
});

const HOSTILE = JSON.stringify({
  assistant_text: MEASURED,
  meta: {
    modeLabel: "System",
    cfb_suggestions: [suggestion("Owner contact", "The owner answers at\u0001415-555-1212 after hours.")],
  },
});
/** Only the proposal carries the phone: the answer itself is clean. */
const HOSTILE_PROPOSAL = JSON.stringify({
  assistant_text: "Ask the service desk to reach the owner; they keep the contact details.",
  meta: {
    modeLabel: "System",
    cfb_suggestions: [suggestion("Owner contact", "Reach the owner at\u0007415-555-1212 after hours.")],
  },
});
const CLEAN_TEXT = "Ask the service desk to reach the owner; they keep the contact details.";
const CLEAN = JSON.stringify({
  assistant_text: CLEAN_TEXT,
  meta: {
    modeLabel: "System",
    cfb_suggestions: [
      suggestion(
        "Owner contact goes through the service desk",
        "The service desk reaches owners; staff never share their numbers.",
      ),
    ],
  },
});

const MESSAGE = "Who do I call about the outage?";

let fake: TFakeModelServer;
let web: TWebServer;
let closeServers: (() => Promise<void>) | undefined;
let http: TRouteServer;
let asService: THeaders;
let seq = 0;

type TRoute = "/chat/respond" | "/chat/respond/stream";
const ROUTES: TRoute[] = ["/chat/respond", "/chat/respond/stream"];

/** POSTs a turn over the socket; the whole answer as text, with its events when streamed. */
async function turn(route: TRoute) {
  const res = await fetch(`${http.origin}${route}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...asService },
    body: JSON.stringify({ request_id: `hostile-pii-${++seq}`, message: MESSAGE }),
  });
  const text = await res.text();
  const events = route === "/chat/respond/stream" ? sseEvents(text) : [];
  const json =
    route === "/chat/respond"
      ? (JSON.parse(text) as unknown)
      : (events.find((e) => e.event === "final")?.data ?? { error: events.find((e) => e.event === "error")?.data });
  return { status: res.status, text, events, json };
}

/** Everything a turn stored or changed that a person could read later, as one string. */
async function storedText(): Promise<string> {
  const [proposals, responses, messages, metas, previews] = await Promise.all([
    web.db.umbraProposal.findMany(),
    web.db.response.findMany(),
    web.db.message.findMany(),
    web.db.responseMeta.findMany(),
    web.db.cfb.findMany(),
  ]);
  return JSON.stringify({ proposals, responses, messages, metas, previews });
}

const attemptsOf = (transmissionId: string) =>
  web.db.deliveryAttempt.findMany({ where: { transmissionId, step: "main" }, orderBy: { n: "asc" } });

const expectNoLeak = (text: string, what: string) => {
  for (const leak of LEAKS) expect(text, `${what} carries ${leak}`).not.toContain(leak);
};

beforeAll(async () => {
  const opened = await openHostileWeb("web-hostile-pii");
  ({ fake, web, asService } = opened);
  closeServers = opened.close;
  http = await serveRoutes({
    "/chat/respond": (req) => web.routes.chat.POST(req),
    "/chat/respond/stream": (req) => web.routes.chatStream.POST(req),
  });
});

afterAll(async () => {
  await http?.close();
  await closeServers?.();
});

beforeEach(() => fake.reset((request, res) => answer(request, res, CLEAN)));

describe("a model answering the measured envelope", () => {
  for (const route of ROUTES) {
    it(`POST ${route}: the attempt is blocked, the next one delivered, and no proposal holds the phone`, async () => {
      // Small chunks: the stream guard sees the text grow a few characters at a time.
      fake.reset((request, res) => answer(request, res, request.n === 1 ? HOSTILE : CLEAN, { chunkChars: 5 }));
      const result = await turn(route);
      expect(result.status).toBe(200);
      const body = ZChatRespondResponse.parse(result.json);
      expect(body.assistant_text).toBe(CLEAN_TEXT);
      expect(body.ui_hints.proposal_previews.map((p) => p.title)).toEqual([
        "Owner contact goes through the service desk",
      ]);
      expect(fake.requests).toHaveLength(2);

      const attempts = await attemptsOf(body.transmission_id);
      expect(attempts.map((a) => a.outcome)).toEqual(["blocked", "ok"]);
      // Two phones (the answer and the proposal's summary) and the card.
      expect(attempts[0]?.reason).toContain("PII detected: PHONE(2), CREDIT_CARD(1). Total matches: 3.");
      const decisions = await web.db.gateEvaluation.findMany({
        where: { transmissionId: body.transmission_id },
        orderBy: { attemptN: "asc" },
      });
      expect(decisions.map((d) => [d.status, d.delivered])).toEqual([
        ["BLOCK", false],
        ["ALLOW", true],
      ]);
      expect(decisions[0]?.reasonCodes).toEqual(["PII_BLOCK_PHONE", "PII_BLOCK_CREDIT_CARD"]);

      // Nothing the client received, nothing stored, carries the numbers.
      expectNoLeak(result.text, `${route}'s answer`);
      expectNoLeak(await storedText(), "the database");
      if (route === "/chat/respond/stream") {
        const kinds = result.events.map((e) => e.event);
        expect(kinds).toContain("final");
        for (const e of result.events) expectNoLeak(JSON.stringify(e.data), `the ${e.event} event`);
      }
    });

    it(`POST ${route}: a phone only in a proposal's delta_summary blocks the attempt too`, async () => {
      fake.reset((request, res) => answer(request, res, request.n === 1 ? HOSTILE_PROPOSAL : CLEAN));
      const body = ZChatRespondResponse.parse((await turn(route)).json);
      const attempts = await attemptsOf(body.transmission_id);
      expect(attempts.map((a) => a.outcome)).toEqual(["blocked", "ok"]);
      expect(attempts[0]?.reason).toContain("PII detected: PHONE(1).");
      expect(body.ui_hints.proposal_previews.map((p) => p.title)).toEqual([
        "Owner contact goes through the service desk",
      ]);
      expectNoLeak(await storedText(), "the database");
    });

    it(`POST ${route}: when every attempt carries PII the turn fails with UPSTREAM and stores nothing`, async () => {
      fake.reset((request, res) =>
        answer(request, res, request.n % 2 === 1 ? HOSTILE : HOSTILE_PROPOSAL, { chunkChars: 7 }),
      );
      const before = {
        proposals: await web.db.umbraProposal.count(),
        responses: await web.db.response.count(),
        messages: await web.db.message.count(),
      };
      const result = await turn(route);
      const error = (result.json as { error?: { code: string; message: string } }).error;
      if (route === "/chat/respond") expect(result.status).toBe(502);
      else expect(result.events.at(-1)?.event).toBe("error");
      expect(error).toMatchObject({
        code: "UPSTREAM",
        message: expect.stringContaining("output gate BLOCK: PII detected"),
      });
      expect(fake.requests).toHaveLength(3);
      expect({
        proposals: await web.db.umbraProposal.count(),
        responses: await web.db.response.count(),
        messages: await web.db.message.count(),
      }).toEqual(before);
      expectNoLeak(result.text, `${route}'s answer`);
      expectNoLeak(await storedText(), "the database");
      // Every attempt's decision is kept, none delivered, masks only.
      const latest = await web.db.gateEvaluation.findMany({ orderBy: { createdAt: "desc" }, take: 3 });
      expect(latest.map((d) => [d.status, d.delivered])).toEqual([
        ["BLOCK", false],
        ["BLOCK", false],
        ["BLOCK", false],
      ]);
      expectNoLeak(JSON.stringify(latest), "the stored gate decisions");
    });
  }
});
