// Every turn exported as an OpenTelemetry trace (issue 39), received by a real OTLP/HTTP server
// on 127.0.0.1 that decodes what the official exporter sends: a `chat turn` span that joins the
// caller's W3C trace, a span per step, a span per model attempt with the GenAI semantic
// conventions' attributes, and Solserver's ids. With the collector down a turn still succeeds
// and the lost spans are counted.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTelemetry, respondToTurn, type TTelemetry } from "../src/index";
import { openTestControlPlane, type TTestActor } from "../src/testing";

type TAttr = { key: string; value: Record<string, unknown> };
type TSpan = { traceId: string; spanId: string; parentSpanId?: string; name: string; attributes: TAttr[] };

let receiver: Server;
let bodies: { resourceSpans: { resource: { attributes: TAttr[] }; scopeSpans: { spans: TSpan[] }[] }[] }[] = [];
let telemetry: TTelemetry;
let opened: Awaited<ReturnType<typeof openTestControlPlane>>;
let user: TTestActor;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => {
      body += chunk.toString("utf8");
    });
    req.on("end", () => {
      if (req.url === "/v1/traces" && req.headers["content-type"]?.includes("json")) bodies.push(JSON.parse(body));
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{}");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const { port } = receiver.address() as AddressInfo;
  telemetry = openTelemetry({ tracesUrl: `http://127.0.0.1:${port}/v1/traces`, serviceName: "solserver-test" });
  opened = await openTestControlPlane({ label: "otel", telemetry });
  user = await opened.account("user");
});
afterAll(async () => {
  await telemetry.shutdown();
  receiver.close();
  await opened.close();
});

const value = (attrs: readonly TAttr[], key: string) => {
  const v = attrs.find((a) => a.key === key)?.value;
  return v?.stringValue ?? v?.intValue ?? v?.boolValue ?? v?.arrayValue;
};

describe("OpenTelemetry export of a turn", () => {
  it("sends the turn as a trace under the caller's span: steps, model attempts, ids", async () => {
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const callerSpan = "00f067aa0ba902b7";
    const res = await respondToTurn(
      { ...opened.as(user), traceparent: `00-${traceId}-${callerSpan}-01` },
      { request_id: "otel-1", message: "We decided the build cache is wiped every Friday." },
    );
    await telemetry.flush();
    const spans = bodies.flatMap((b) => b.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));
    expect(value(bodies[0]?.resourceSpans[0]?.resource.attributes ?? [], "service.name")).toBe("solserver-test");
    const root = spans.find((s) => s.name === "chat turn");
    expect(root).toMatchObject({ traceId, parentSpanId: callerSpan });
    const attrs = root?.attributes ?? [];
    expect(value(attrs, "solserver.thread_id")).toBe(res.thread_id);
    expect(value(attrs, "solserver.packet_id")).toBe(res.packet_id);
    expect(value(attrs, "solserver.transmission_id")).toBe(res.transmission_id);
    expect(value(attrs, "solserver.response_id")).toBe(res.response_id);
    expect(value(attrs, "solserver.attempt_id")).toEqual(expect.any(String));
    // The orchestrator's steps, each a child of the turn, in order.
    const steps = spans.filter((s) => s.parentSpanId === root?.spanId).map((s) => s.name);
    expect(steps).toEqual(["admit", "plan", "gather", "answer", "learn", "store"]);
    // One model attempt, under `answer`, in the GenAI conventions.
    const answer = spans.find((s) => s.name === "answer");
    const [attempt, ...more] = spans.filter((s) => s.parentSpanId === answer?.spanId);
    expect(more).toEqual([]);
    expect(attempt?.traceId).toBe(traceId);
    const a = attempt?.attributes ?? [];
    expect(value(a, "gen_ai.operation.name")).toBe("chat");
    expect(value(a, "gen_ai.provider.name")).toBe(opened.deps.model.name);
    expect(value(a, "gen_ai.request.model")).toEqual(expect.any(String));
    expect(value(a, "gen_ai.response.finish_reasons")).toEqual({ values: [{ stringValue: "stop" }] });
    expect(value(a, "solserver.attempt.n")).toBe(1);
    expect(value(a, "solserver.attempt.delivered")).toBe(true);
  });

  it("starts a trace of its own without a traceparent (or with a malformed one)", async () => {
    bodies = [];
    await respondToTurn(
      { ...opened.as(user), traceparent: "garbage" },
      { request_id: "otel-2", message: "What do we do on Fridays?" },
    );
    await telemetry.flush();
    const root = bodies
      .flatMap((b) => b.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)))
      .find((s) => s.name === "chat turn");
    expect(root?.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(root?.parentSpanId ?? "").toBe("");
  });

  it("a collector that is down fails no turn; the lost spans are counted", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const down = openTelemetry({ tracesUrl: `http://127.0.0.1:${port}/v1/traces`, serviceName: "solserver-test" });
    const other = await openTestControlPlane({ label: "otel-down", telemetry: down });
    try {
      const who = await other.account("user");
      const res = await respondToTurn(other.as(who), {
        request_id: "otel-3",
        message: "We decided to test on Mondays.",
      });
      expect(res.assistant_text.length).toBeGreaterThan(0);
      await down.flush();
      // (a batch the processor's timer sent mid-turn may still be failing when the flush returns)
      await expect.poll(() => down.failedSpans()).toBeGreaterThanOrEqual(7);
    } finally {
      await down.shutdown();
      await other.close();
    }
  });
});
