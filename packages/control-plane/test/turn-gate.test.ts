// The output gate (seed 002) in the turn pipeline, on a real SQLite file with the
// OpenAI-compatible provider talking to a local chat-completions server over real sockets: each
// attempt is judged, a BLOCKed attempt is never delivered and never becomes a proposal, the next
// attempt is tried, and every decision is stored and traced.
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { isDomainError, ZGateEvaluateRequest, ZGateEvaluationListQuery } from "@solserver/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluateGate, listGateEvaluations, parseInput, respondToTurn } from "../src/index";
import { createOpenAICompatibleModel } from "../src/model/openai-compatible";
import type { TModelProvider } from "../src/model/provider";
import { openTestControlPlane, type TTestActor } from "../src/testing";

let server: Server;
let baseURL: string;
/** The assistant message content of each answer, in order; the last one repeats. */
let answers: string[] = [];
let served = 0;

function envelope(text: string, suggestion?: string) {
  return JSON.stringify({
    assistant_text: text,
    meta: {
      modeLabel: "System",
      domainHints: [],
      used_cfb_ids: [],
      ignored_cfb_ids: [],
      unknowns: [],
      cfb_suggestions: suggestion
        ? [
            {
              op: "create",
              title: suggestion,
              delta_summary: suggestion,
              confidence: 0.8,
            },
          ]
        : [],
    },
  });
}

function reply(res: ServerResponse, content: string) {
  res.writeHead(200, { "content-type": "application/json" });
  res.end(
    JSON.stringify({
      id: "chatcmpl-gate",
      object: "chat.completion",
      created: 1_700_000_000,
      model: "gate-model",
      choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
      usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
    }),
  );
}

const LEAK = envelope("Sure, write to john.doe@example.com or call 415-555-1212.", "Escalate to john.doe@example.com");
const CLEAN = envelope("Sure, open a ticket in the support portal.", "Escalations go through the support portal");

let opened: Awaited<ReturnType<typeof openTestControlPlane>>;
let owner: TTestActor;
let n = 0;
const turn = (message: string, thread_id?: string) =>
  respondToTurn(opened.as(owner), { request_id: `gate-${++n}`, message, ...(thread_id ? { thread_id } : {}) });

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      served++;
      reply(res, answers[Math.min(served, answers.length) - 1] ?? CLEAN);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  const model = createOpenAICompatibleModel({
    baseURL,
    apiKey: "local",
    model: "gate-model",
    timeoutMs: 2000,
    maxAttempts: 2,
    retryDelayMs: 0,
  });
  opened = await openTestControlPlane({ label: "turn-gate", model, limits: { chatTurnsPerMinute: 1000 } });
  owner = await opened.account("user");
});
afterAll(async () => {
  await opened?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

const serve = (...contents: string[]) => {
  answers = contents;
  served = 0;
};

describe("output gate on every model attempt", () => {
  it("blocks a leaking attempt, delivers the next clean one, and stores both decisions", async () => {
    serve(LEAK, CLEAN);
    const res = await turn("How do I escalate an outage?");
    expect(res.assistant_text).toBe("Sure, open a ticket in the support portal.");
    // Only the delivered attempt's suggestion became a proposal.
    expect(res.ui_hints.proposal_previews.map((p) => p.title)).toEqual(["Escalations go through the support portal"]);

    const attempts = await opened.db.deliveryAttempt.findMany({
      where: { transmissionId: res.transmission_id, step: "main" },
      orderBy: { n: "asc" },
    });
    expect(attempts.map((a) => [a.n, a.outcome])).toEqual([
      [1, "blocked"],
      [2, "ok"],
    ]);
    // The email is in the answer, the suggestion's title and its delta summary.
    expect(attempts[0]?.reason).toContain("PII detected: EMAIL(3), PHONE(1). Total matches: 4.");
    expect(res.attempt_id).toBe(attempts[1]?.id);

    const stored = await opened.db.gateEvaluation.findMany({
      where: { transmissionId: res.transmission_id },
      orderBy: { attemptN: "asc" },
    });
    expect(stored.map((e) => [e.attemptN, e.status, e.delivered, e.source])).toEqual([
      [1, "BLOCK", false, "turn"],
      [2, "ALLOW", true, "turn"],
    ]);
    expect(stored[0]?.reasonCodes).toEqual(["PII_BLOCK_EMAIL", "PII_BLOCK_PHONE"]);
    // Stored decisions never hold the leaked values themselves.
    expect(JSON.stringify(stored)).not.toContain("john.doe@example.com");

    const gateEvents = (await opened.repos.traces.forTransmission(res.transmission_id)).filter(
      (e) => e.phase === "gate",
    );
    expect(gateEvents.map((e) => [e.status, (e.metadata as { n: number }).n])).toEqual([
      ["failed", 1],
      ["completed", 2],
    ]);
    expect(gateEvents[0]?.summary).toMatch(/^Output gate BLOCK on attempt 1: PII detected/);
  });

  it("blocks a phone or card number at the start of a line (a \\n escape in the envelope's JSON)", async () => {
    serve(envelope("Call the owner:\n415-555-1212 today, or pay with\n4111111111111111 please."), CLEAN);
    const res = await turn("Who do I call about the outage?");
    expect(res.assistant_text).toBe("Sure, open a ticket in the support portal.");
    const [first] = await opened.db.deliveryAttempt.findMany({
      where: { transmissionId: res.transmission_id, step: "main" },
      orderBy: { n: "asc" },
    });
    expect(first?.outcome).toBe("blocked");
    expect(first?.reason).toContain("PHONE(1), CREDIT_CARD(1)");
  });

  it("fails the turn with the gate's reasons when every attempt is blocked, storing nothing but the decisions", async () => {
    serve(LEAK);
    const packetsBefore = await opened.db.packet.count();
    const error = await turn("Who handles escalations?").catch((e: unknown) => e);
    expect(isDomainError(error) && error.code).toBe("UPSTREAM");
    expect((error as Error).message).toContain("output gate BLOCK: PII detected: EMAIL(3), PHONE(1)");
    expect(await opened.db.packet.count()).toBe(packetsBefore);
    const blocked = await opened.db.gateEvaluation.findMany({ where: { transmissionId: null, source: "turn" } });
    expect(blocked.map((e) => [e.attemptN, e.status, e.delivered])).toEqual([
      [1, "BLOCK", false],
      [2, "BLOCK", false],
    ]);
    expect(blocked.every((e) => e.actorId === owner.userId)).toBe(true);
  });

  it("compares an answer with the previous one when the question is asked again, and only then", async () => {
    serve(CLEAN);
    const first = await turn("Where do tickets go?");
    const longer = envelope(`${"A much longer answer about the support portal and its queues. ".repeat(6)}`);
    // Another question: its answer is another length by nature, and nothing is said of drift.
    serve(longer);
    const other = await turn("And who triages the queues?", first.thread_id);
    const otherGate = (await opened.repos.traces.forTransmission(other.transmission_id)).find((e) => e.phase === "gate")
      ?.metadata as { baseline: string; reason_codes: string[] };
    expect(otherGate.baseline).toBe(first.response_id);
    expect(otherGate.reason_codes.filter((c) => c.startsWith("DRIFT"))).toEqual([]);
    // The same question again, answered five times longer: that is drift.
    serve(CLEAN);
    const again = await turn("Where do tickets go?", first.thread_id);
    serve(longer);
    const second = await turn("where do the tickets go", again.thread_id);
    const events = await opened.repos.traces.forTransmission(second.transmission_id);
    const gate = events.find((e) => e.phase === "gate")?.metadata as {
      baseline: string;
      status: string;
      reason_codes: string[];
    };
    expect(gate.baseline).toBe(again.response_id);
    // Drift only warns in the pipeline: the answer is delivered.
    expect(gate.status).toBe("WARN");
    expect(gate.reason_codes).toContain("DRIFT_WARN_LENGTH_DELTA");
    expect(second.assistant_text).toContain("A much longer answer");
  });

  it("does not compare an acknowledgement's length with the previous answer (a skip turn)", async () => {
    serve(envelope(`${"A long answer about the support portal and how its queues are triaged. ".repeat(6)}`));
    const first = await turn("How are support queues triaged?");
    serve(envelope("You're welcome."));
    const ack = await turn("ok thanks", first.thread_id);
    const events = await opened.repos.traces.forTransmission(ack.transmission_id);
    expect(events.find((e) => e.phase === "breakpoint")?.summary).toContain("SKIP");
    const gate = events.find((e) => e.phase === "gate")?.metadata as { status: string; reason_codes: string[] };
    expect(gate.reason_codes.filter((c) => c.startsWith("DRIFT"))).toEqual([]);
    expect(gate.status).toBe("ALLOW");
    // The same short answer after the same long one, to the question asked again, is compared, and warns.
    serve(envelope(`${"A long answer about the support portal and how its queues are triaged. ".repeat(6)}`));
    const other = await turn("How are support queues triaged?");
    serve(envelope("You're welcome."));
    const real = await turn("How are the support queues triaged?", other.thread_id);
    const realGate = (await opened.repos.traces.forTransmission(real.transmission_id)).find((e) => e.phase === "gate")
      ?.metadata as { reason_codes: string[] };
    expect(realGate.reason_codes.some((c) => c.startsWith("DRIFT"))).toBe(true);
  });

  it("compares the answer after an acknowledgement with the answer before it, not with the pleasantry", async () => {
    const long = envelope(`${"A long answer about the support portal and how its queues are triaged. ".repeat(6)}`);
    serve(long);
    const first = await turn("How are support queues triaged?");
    serve(envelope("You're welcome."));
    await turn("ok thanks", first.thread_id);
    serve(long);
    const next = await turn("And how are the billing queues triaged?", first.thread_id);
    const gate = (await opened.repos.traces.forTransmission(next.transmission_id)).find((e) => e.phase === "gate")
      ?.metadata as { baseline: string; status: string; reason_codes: string[] };
    expect(gate.baseline).toBe(first.response_id);
    expect(gate.reason_codes.filter((c) => c.startsWith("DRIFT"))).toEqual([]);
  });

  it("lists a user's own evaluations and everyone's for a Jam editor", async () => {
    const jam = await opened.account("jam");
    const other = await opened.account("user");
    const mine = await listGateEvaluations(opened.as(owner), parseInput(ZGateEvaluationListQuery, { limit: 100 }));
    expect(mine.items.length).toBeGreaterThanOrEqual(5);
    expect(
      (await listGateEvaluations(opened.as(other), parseInput(ZGateEvaluationListQuery, { limit: 100 }))).items,
    ).toEqual([]);
    const all = await listGateEvaluations(
      opened.as(jam),
      parseInput(ZGateEvaluationListQuery, { status: "BLOCK", limit: 100 }),
    );
    expect(all.items.length).toBeGreaterThanOrEqual(3);
    expect(all.items.every((e) => e.status === "BLOCK")).toBe(true);
  });
});

describe("gate.evaluate service", () => {
  it("evaluates and stores a comparison under the caller, with the seed's Test 3 numbers", async () => {
    const res = await evaluateGate(
      opened.as(owner),
      parseInput(ZGateEvaluateRequest, {
        baseline: { output: "Hello! How can I help with your account today?", cost_usd: 1.0 },
        candidate: { output: "Contact me at hi@example.com and I will follow up.", cost_usd: 1.4 },
        label: "seed test 3",
      }),
    );
    expect(res.decision.status).toBe("BLOCK");
    expect(res.decision.reasons).toEqual([
      "Cost increased by 40.0% (>=40%).",
      "PII detected: EMAIL(1). Total matches: 1.",
    ]);
    const listed = await listGateEvaluations(
      opened.as(owner),
      parseInput(ZGateEvaluationListQuery, { source: "api", limit: 5 }),
    );
    expect(listed.items[0]).toMatchObject({ evaluation_id: res.evaluation_id, label: "seed test 3", status: "BLOCK" });
  });

  it("takes a preset and waivers, as the CLI does; a bad waiver is BAD_INPUT naming the field", async () => {
    const pair = {
      baseline: { output: "Your order ships Monday.", cost_usd: 1 },
      candidate: { output: "Your order ships on Monday.", cost_usd: 1.25 },
    };
    expect((await evaluateGate(opened.as(owner), parseInput(ZGateEvaluateRequest, pair))).decision.status).toBe("WARN");
    const chatbot = await evaluateGate(
      opened.as(owner),
      parseInput(ZGateEvaluateRequest, { ...pair, preset: "chatbot" }),
    );
    expect(chatbot.decision.status).toBe("ALLOW");
    const waiver = {
      codes: ["COST_WARN_INCREASE"],
      reason: "cache lands next sprint",
      owner: "ana",
      expires_at: "2999-01-01",
    };
    const waived = await evaluateGate(
      opened.as(owner),
      parseInput(ZGateEvaluateRequest, { ...pair, config: { waivers: [waiver] } }),
    );
    expect(waived.decision.status).toBe("ALLOW");
    expect(waived.decision.waivers?.applied.map((w) => w.matched)).toEqual([["COST_WARN_INCREASE"]]);
    // Expiry is judged against the server's clock.
    const expired = await evaluateGate(
      opened.as(owner),
      parseInput(ZGateEvaluateRequest, { ...pair, config: { waivers: [{ ...waiver, expires_at: "2020-01-01" }] } }),
    );
    expect(expired.decision.status).toBe("WARN");
    expect(expired.decision.waivers?.expired).toHaveLength(1);
    const error = await evaluateGate(
      opened.as(owner),
      parseInput(ZGateEvaluateRequest, { ...pair, config: { waivers: [{ ...waiver, reason: "" }] } }),
    ).catch((e: unknown) => e);
    expect(isDomainError(error) && error.code).toBe("BAD_INPUT");
    expect(isDomainError(error) && error.field).toBe("config.waivers.0.reason");
    expect(() => parseInput(ZGateEvaluateRequest, { ...pair, preset: "chat" })).toThrow(/preset must be one of/);
  });

  it("refuses a record without an output as BAD_INPUT naming the field", async () => {
    const error = await Promise.resolve()
      .then(() =>
        evaluateGate(
          opened.as(owner),
          parseInput(ZGateEvaluateRequest, { baseline: { output: "x" }, candidate: { cost_usd: 1 } as never }),
        ),
      )
      .catch((e: unknown) => e);
    expect(isDomainError(error) && error.code).toBe("BAD_INPUT");
    expect(isDomainError(error) && error.field).toBe("candidate.output");
  });
});

describe("a provider that ignores the judge", () => {
  it("still has its answer judged before anyone sees it", async () => {
    const careless: TModelProvider = {
      name: "careless",
      async generate() {
        return { envelope: JSON.parse(LEAK), tokensIn: 1, tokensOut: 1 };
      },
    };
    const other = await openTestControlPlane({ label: "turn-gate-careless", model: careless });
    try {
      const who = await other.account("user");
      const error = await respondToTurn(other.as(who), { request_id: "careless-1", message: "Escalations?" }).catch(
        (e: unknown) => e,
      );
      expect(isDomainError(error) && error.code).toBe("UPSTREAM");
      expect(await other.db.packet.count()).toBe(0);
      expect(await other.db.gateEvaluation.count({ where: { status: "BLOCK", delivered: false } })).toBe(1);
    } finally {
      await other.close();
    }
  });

  it("applies an operator's waiver until it expires (SOLSERVER_GATE_CONFIG waivers)", async () => {
    const careless: TModelProvider = {
      name: "careless",
      async generate() {
        return { envelope: JSON.parse(envelope("Write to help@example.com.")), tokensIn: 1, tokensOut: 1 };
      },
    };
    const waiver = { codes: ["PII_BLOCK_EMAIL"], reason: "public help address", owner: "ops" };
    for (const [expires_at, delivered] of [
      ["2999-01-01", true],
      ["2020-01-01", false],
    ] as const) {
      const other = await openTestControlPlane({
        label: `turn-gate-waiver-${delivered}`,
        model: careless,
        gate: { waivers: [{ ...waiver, expires_at }] },
      });
      try {
        const who = await other.account("user");
        const res = await respondToTurn(other.as(who), {
          request_id: `waive-${delivered}`,
          message: "Escalations?",
        }).catch((e: unknown) => e);
        if (delivered) expect((res as { assistant_text: string }).assistant_text).toBe("Write to help@example.com.");
        else expect(isDomainError(res) && res.code).toBe("UPSTREAM");
      } finally {
        await other.close();
      }
    }
  });

  it("lets an operator's allowlist through (SOLSERVER_GATE_CONFIG overrides)", async () => {
    const careless: TModelProvider = {
      name: "careless",
      async generate() {
        return { envelope: JSON.parse(envelope("Write to help@example.com.")), tokensIn: 1, tokensOut: 1 };
      },
    };
    const other = await openTestControlPlane({
      label: "turn-gate-allow",
      model: careless,
      gate: { pii: { allowlist: ["*@example.com"] } },
    });
    try {
      const who = await other.account("user");
      const res = await respondToTurn(other.as(who), { request_id: "allow-1", message: "Escalations?" });
      expect(res.assistant_text).toBe("Write to help@example.com.");
    } finally {
      await other.close();
    }
  });
});
