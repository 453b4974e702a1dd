// The model cannot pick its own rules, end to end (issue 17): the OpenAI-compatible provider
// talks to a scriptable model server on 127.0.0.1 (fake-model-server.ts) whose every answer names
// `domainHints: ["ops"]`, as the issue measured (one such answer moved an RV thread out of the
// strict domain for good, and the mismatch counter stayed at 1). Through POST /chat/respond and
// POST /chat/respond/stream:
//  - an RV thread stays in rv_service turn after turn, follow-ups without a domain word included;
//  - each answer counts one more domain_mismatch (rv_service → ops), once per turn;
//  - the selector's trace names the hints it did not follow on a turn its words do not route;
//  - the person's own words still move the thread (a message about the pager and the outage).
import { ZChatRespondResponse } from "@solserver/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answer, openHostileWeb, type TFakeModelServer } from "./fake-model-server";
import { rest, sseEvents, type THeaders, type TWebServer } from "./helpers";

const TEXT = "I cannot tell from what I have.";
/** A valid strict answer (one sentence, covered by a claim on a declared unknown) that says it is about ops. */
const OPS_HINTED = JSON.stringify({
  assistant_text: TEXT,
  meta: {
    modeLabel: "Operations",
    domainHints: ["ops"],
    unknowns: [{ id: "U1", text: "Which pump model it is.", needs_user_input: true }],
    claim_map: [{ claim_id: "c1", span: { sentence: 0 }, text: TEXT, support: { unknown_id: "U1" } }],
  },
});

let fake: TFakeModelServer;
let web: TWebServer;
let closeServers: (() => Promise<void>) | undefined;
let asService: THeaders;
let seq = 0;

type TRoute = "POST /chat/respond" | "POST /chat/respond/stream";

async function turn(route: TRoute, message: string, threadId?: string) {
  const result = await rest(web, route, {
    headers: asService,
    body: { request_id: `hostile-routing-${++seq}`, message, ...(threadId ? { thread_id: threadId } : {}) },
  });
  expect(result.status).toBe(200);
  const json =
    route === "POST /chat/respond" ? result.json : sseEvents(result.text).find((e) => e.event === "final")?.data;
  const body = ZChatRespondResponse.parse(json);
  const transmission = await web.db.transmission.findUniqueOrThrow({ where: { id: body.transmission_id } });
  const selector = await web.db.traceEvent.findFirstOrThrow({
    where: { phase: "selector", transmissionId: body.transmission_id },
  });
  return { body, domain: transmission.routerDomain, selector: selector.summary };
}

const mismatches = async () =>
  (
    await web.db.repetitionCounter.findUnique({
      where: { kind_routerDomain_key: { kind: "domain_mismatch", routerDomain: "rv_service", key: "ops" } },
    })
  )?.count ?? 0;

beforeAll(async () => {
  const opened = await openHostileWeb("web-hostile-routing", {
    SOLSERVER_MODEL_MAX_ATTEMPTS: "1",
  });
  ({ fake, web, asService } = opened);
  closeServers = opened.close;
  fake.reset((request, res) => answer(request, res, OPS_HINTED, { chunkChars: 5 }));
});

afterAll(async () => {
  await closeServers?.();
});

describe("a model whose every answer names ops", () => {
  it("keeps an RV thread in rv_service on both routes, counting each answer as a mismatch", async () => {
    const routes: TRoute[] = ["POST /chat/respond", "POST /chat/respond/stream"];
    const first = await turn("POST /chat/respond", "The water pump in my camper hums but no water comes out.");
    expect(first.domain).toBe("rv_service");
    expect(await mismatches()).toBe(1);
    const threadId = first.body.thread_id;
    const followUps = ["ok, what next?", "still nothing", "the switch is on", "did that, same thing"];
    for (const [i, message] of followUps.entries()) {
      const next = await turn(routes[i % 2] as TRoute, message, threadId);
      expect(next.domain, message).toBe("rv_service");
      // Routed by its own words, or unrouted: then the hints are named as not followed.
      expect(next.selector).toMatch(/^Routed to rv_service \(classifier|domainHints for ops not followed$/);
      expect(await mismatches()).toBe(i + 2);
    }
  });

  it("the person's own words still move the thread", async () => {
    const rv = await turn("POST /chat/respond", "My RV's fridge stopped cooling overnight.");
    expect(rv.domain).toBe("rv_service");
    const ops = await turn(
      "POST /chat/respond",
      "I got paged: the deploy caused an outage in production.",
      rv.body.thread_id,
    );
    expect(ops.domain).toBe("ops");
  });
});
