// The model server's answers are input like any other (issue 17, "provider input is validated
// like user input"), driven through POST /chat/respond and POST /chat/respond/stream with the
// OpenAI-compatible provider pointed at a scriptable server on 127.0.0.1 (fake-model-server.ts):
//  - usage figures that are not counts ("12", 12.5, -5, "lots") are read or ignored with a
//    warning on the attempt, never a failed turn;
//  - an answer that streams past the deadline is a `timeout` attempt, retried after the backoff;
//  - Retry-After that is not a sane wait (-5, "soon") means the backoff, a huge one is capped;
//  - a resend of a request_id whose turn is still running waits for it: one model call, one turn;
//  - a runaway streamed answer is followed only up to the output limit.
import { OUTPUT_LIMITS, ZChatRespondResponse } from "@solserver/contracts";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { answer, fail, openHostileWeb, type TFakeModelServer } from "./fake-model-server";
import { rest, restError, sseEvents, type THeaders, type TWebServer } from "./helpers";

/** The provider's deadline per attempt; small so the deadline tests stay quick. */
const TIMEOUT_MS = 1000;
/** The provider's first backoff (DEFAULT_RETRY_DELAY_MS in openai-compatible.ts). */
const FIRST_BACKOFF_MS = 250;

let fake: TFakeModelServer;
let web: TWebServer;
let closeServers: (() => Promise<void>) | undefined;
let asService: THeaders;
let seq = 0;
const requestId = () => `hostile-${++seq}`;

/** A plain, valid envelope (a general-domain answer without claims or proposals). */
const envelope = (text = "Rotate the credentials from the secrets manager, then restart the workers.") =>
  JSON.stringify({ assistant_text: text, meta: { modeLabel: "System" } });

const MESSAGE = "How do we rotate the database credentials?";

/** The main model attempts stored for a transmission, in order. */
function attemptsOf(transmissionId: string) {
  return web.db.deliveryAttempt.findMany({ where: { transmissionId, step: "main" }, orderBy: { n: "asc" } });
}

/** The attempts traced by the latest failed turn (a failed turn stores no transmission). */
async function failedTurnAttempts(): Promise<{ outcome: string; reason: string | null }[]> {
  const run = await web.db.traceRun.findFirstOrThrow({
    where: { kind: "turn", status: "failed" },
    orderBy: { startedAt: "desc" },
    include: { events: { where: { phase: "attempt" }, orderBy: { seq: "asc" } } },
  });
  return run.events.map((e) => e.metadata as { outcome: string; reason: string | null });
}

type TRoute = "POST /chat/respond" | "POST /chat/respond/stream";
const ROUTES: TRoute[] = ["POST /chat/respond", "POST /chat/respond/stream"];

async function turn(route: TRoute, body: Record<string, unknown> = {}) {
  const result = await rest(web, route, {
    headers: asService,
    body: { request_id: requestId(), message: MESSAGE, ...body },
  });
  const events = route === "POST /chat/respond/stream" && result.status === 200 ? sseEvents(result.text) : [];
  return { ...result, events };
}

beforeAll(async () => {
  const opened = await openHostileWeb("web-hostile-provider", {
    SOLSERVER_MODEL_TIMEOUT_MS: String(TIMEOUT_MS),
  });
  ({ fake, web, asService } = opened);
  closeServers = opened.close;
});

afterAll(async () => {
  await closeServers?.();
});

beforeEach(() => fake.reset((request, res) => answer(request, res, envelope())));

describe("usage figures that are not token counts", () => {
  const cases: { usage: Record<string, unknown>; tokensIn: number | null; warning: RegExp }[] = [
    {
      usage: { prompt_tokens: "12", completion_tokens: 7 },
      tokensIn: 12,
      warning: /usage\.prompt_tokens "12" read as 12/,
    },
    {
      usage: { prompt_tokens: 12.5, completion_tokens: 7 },
      tokensIn: 13,
      warning: /usage\.prompt_tokens 12\.5 read as 13/,
    },
    { usage: { prompt_tokens: -5, completion_tokens: 7 }, tokensIn: null, warning: /usage\.prompt_tokens -5 ignored/ },
    {
      usage: { prompt_tokens: "lots", completion_tokens: 7 },
      tokensIn: null,
      warning: /usage\.prompt_tokens "lots" ignored/,
    },
  ];
  for (const route of ROUTES) {
    for (const c of cases) {
      it(`${route}: ${JSON.stringify(c.usage.prompt_tokens)} is delivered, with a warning on the attempt`, async () => {
        fake.reset((request, res) => answer(request, res, envelope(), { usage: c.usage }));
        const result = await turn(route);
        expect(result.status).toBe(200);
        const body = ZChatRespondResponse.parse(result.json);
        expect(fake.requests).toHaveLength(1);
        const [attempt, ...more] = await attemptsOf(body.transmission_id);
        expect(more).toEqual([]);
        expect(attempt).toMatchObject({ outcome: "ok", tokensIn: c.tokensIn, tokensOut: 7 });
        expect(attempt?.reason).toMatch(/^warning: /);
        expect(attempt?.reason).toMatch(c.warning);
      });
    }
  }

  it("counts that are counts leave no warning", async () => {
    const body = ZChatRespondResponse.parse((await turn("POST /chat/respond")).json);
    expect(await attemptsOf(body.transmission_id)).toMatchObject([
      { outcome: "ok", tokensIn: 11, tokensOut: 7, reason: null },
    ]);
  });
});

describe("an answer still streaming at the deadline", () => {
  it("is a timeout attempt, retried after the backoff, and the client drops what it saw of it", async () => {
    const text = [
      "Rotate the credentials from the secrets manager, one service at a time, then restart every worker.",
      "Check each service's health before you move on to the next one, and keep the old credentials until",
      "every worker runs with the new ones; then revoke the old ones and note the rotation in the runbook.",
    ].join(" ");
    fake.reset((request, res) =>
      request.n === 1
        ? // About 35 chunks 60 ms apart: well past the 1 s deadline, with enough text before it to
          // show (a few hundred characters, even on a loaded machine).
          answer(request, res, envelope(text), { chunkChars: 10, chunkDelayMs: 60 })
        : answer(request, res, envelope(text)),
    );
    const result = await turn("POST /chat/respond/stream");
    expect(result.status).toBe(200);
    const body = ZChatRespondResponse.parse(result.json);
    expect(body.assistant_text).toBe(text);
    const attempts = await attemptsOf(body.transmission_id);
    expect(attempts.map((a) => a.outcome)).toEqual(["timeout", "ok"]);
    // The second request waited the backoff, as the attempt says (no stopwatch: the decided wait).
    expect(attempts[0]?.reason).toBe(
      `no complete answer within ${TIMEOUT_MS} ms; next attempt in ${FIRST_BACKOFF_MS} ms`,
    );
    // What the client saw of attempt 1 was taken back before attempt 2's text.
    const kinds = result.events.map((e) => `${e.event}:${(e.data as { n?: number }).n ?? ""}`);
    const retract = kinds.indexOf("retract:1");
    expect(kinds.indexOf("delta:1")).toBeGreaterThanOrEqual(0);
    expect(retract).toBeGreaterThan(kinds.lastIndexOf("delta:1"));
    expect(kinds.indexOf("final:")).toBeGreaterThan(retract);
  });

  it("POST /chat/respond: the same, without a stream", async () => {
    fake.reset(async (request, res) => {
      if (request.n === 1) await new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS + 300));
      await answer(request, res, envelope());
    });
    const body = ZChatRespondResponse.parse((await turn("POST /chat/respond")).json);
    const attempts = await attemptsOf(body.transmission_id);
    expect(attempts.map((a) => a.outcome)).toEqual(["timeout", "ok"]);
    expect(attempts[0]?.reason).toBe(
      `no complete answer within ${TIMEOUT_MS} ms; next attempt in ${FIRST_BACKOFF_MS} ms`,
    );
  });
});

describe("Retry-After from the model server", () => {
  const waits: { header: Record<string, string>; wait: number }[] = [
    // Not a wait: the backoff applies instead of asking again at once.
    { header: { "retry-after": "-5" }, wait: FIRST_BACKOFF_MS },
    { header: { "retry-after": "soon" }, wait: FIRST_BACKOFF_MS },
    { header: { "retry-after-ms": "-1" }, wait: FIRST_BACKOFF_MS },
    // A sane one is honoured.
    { header: { "retry-after": "1" }, wait: 1000 },
  ];
  for (const w of waits) {
    it(`${JSON.stringify(w.header)} on a 429 waits ${w.wait} ms before the next attempt`, async () => {
      fake.reset((request, res) => (request.n === 1 ? fail(res, 429, w.header) : answer(request, res, envelope())));
      const body = ZChatRespondResponse.parse((await turn("POST /chat/respond")).json);
      const attempts = await attemptsOf(body.transmission_id);
      expect(attempts.map((a) => a.outcome)).toEqual(["http_error", "ok"]);
      expect(attempts[0]?.reason).toMatch(new RegExp(`; next attempt in ${w.wait} ms$`));
    });
  }

  it("a 503 on every attempt fails the turn with 502 and every attempt recorded", async () => {
    fake.reset((_request, res) => fail(res, 503, { "retry-after": "-5" }));
    const result = await turn("POST /chat/respond");
    expect(result.status).toBe(502);
    expect(restError(result)).toMatchObject({
      code: "UPSTREAM",
      message: "model openai-compatible:hostile failed to answer",
    });
    expect(fake.requests).toHaveLength(3);
    expect((await failedTurnAttempts()).map((a) => a.outcome)).toEqual(["http_error", "http_error", "http_error"]);
  });
});

describe("a resend of a request_id whose turn is still running", () => {
  for (const [first, resend] of [
    ["POST /chat/respond", "POST /chat/respond"],
    ["POST /chat/respond/stream", "POST /chat/respond"],
    ["POST /chat/respond/stream", "POST /chat/respond/stream"],
  ] as const) {
    it(`${first} then ${resend}: waits for the first, one model call, the same answer replayed`, async () => {
      fake.reset((request, res) => answer(request, res, envelope(), { chunkChars: 8, chunkDelayMs: 25 }));
      const body = { request_id: requestId(), message: MESSAGE };
      const one = rest(web, first, { headers: asService, body });
      // The resend is sent once the first is with the model (it answers in ~1 s of chunks): no
      // sleep orders them. Were the first done sooner, the resend would replay it all the same.
      await vi.waitFor(() => expect(fake.requests).toHaveLength(1));
      const two = rest(web, resend, { headers: asService, body });
      const [a, b] = await Promise.all([one, two]);
      expect([a.status, b.status]).toEqual([200, 200]);
      expect(fake.requests).toHaveLength(1);
      const firstBody = ZChatRespondResponse.parse(a.json);
      const resendBody = ZChatRespondResponse.parse(b.json);
      expect(firstBody.replayed).toBe(false);
      expect(resendBody).toMatchObject({ replayed: true, response_id: firstBody.response_id });
      // A streamed resend shows no text of its own: only the stored answer.
      if (resend === "POST /chat/respond/stream") {
        expect(sseEvents(b.text).map((e) => e.event)).not.toContain("delta");
      }
      expect(await web.db.transmission.count({ where: { packet: { requestId: body.request_id } } })).toBe(1);
    });
  }

  it("a resend with another message for the same request_id is refused once the first is stored", async () => {
    fake.reset((request, res) => answer(request, res, envelope(), { chunkChars: 8, chunkDelayMs: 25 }));
    const body = { request_id: requestId(), message: MESSAGE };
    const one = rest(web, "POST /chat/respond", { headers: asService, body });
    await vi.waitFor(() => expect(fake.requests).toHaveLength(1));
    const two = await rest(web, "POST /chat/respond", {
      headers: asService,
      body: { ...body, message: "Something else entirely" },
    });
    expect((await one).status).toBe(200);
    expect(two.status).toBe(409);
    expect(restError(two).field).toBe("request_id");
    expect(fake.requests).toHaveLength(1);
  });
});

describe("a runaway streamed answer", () => {
  it("is followed only up to the output limit, then refused as an invalid envelope", async () => {
    const runaway = "The pump keeps cycling because the check valve leaks back. ".repeat(4000);
    expect(runaway.length).toBeGreaterThan(10 * OUTPUT_LIMITS.assistantText);
    fake.reset((request, res) => answer(request, res, envelope(runaway), { chunkChars: 4096 }));
    const result = await rest(web, "POST /chat/respond/stream", {
      headers: asService,
      body: { request_id: requestId(), message: MESSAGE },
    });
    expect(result.status).toBe(200);
    const events = sseEvents(result.text);
    const shown = new Map<number, number>();
    for (const e of events) {
      const data = e.data as { n?: number; text?: string };
      if (e.event === "delta" && data.n !== undefined)
        shown.set(data.n, (shown.get(data.n) ?? 0) + (data.text?.length ?? 0));
    }
    for (const chars of shown.values()) expect(chars).toBeLessThanOrEqual(OUTPUT_LIMITS.assistantText);
    expect(events.at(-1)?.event).toBe("error");
    for (const n of shown.keys())
      expect(events.some((e) => e.event === "retract" && (e.data as { n: number }).n === n)).toBe(true);
    const attempts = await failedTurnAttempts();
    expect(attempts.map((a) => a.outcome)).toEqual(["invalid_envelope", "invalid_envelope", "invalid_envelope"]);
    expect(attempts[0]?.reason).toMatch(/assistant_text/);
  });
});
