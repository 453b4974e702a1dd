// The webhook executor and checkpoint notifications (issue 25) against real HTTP receivers on
// 127.0.0.1: signing, retries and idempotency, timeouts, the answer contract, the private-network
// rule, and the example receiver driving examples/webhook-step.yaml end to end.
import { type ChildProcess, spawn } from "node:child_process";
import { createHmac, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { createInterface } from "node:readline";
import { decide, loadWorkflowOrThrow, startRun, type TRunState, type TWorkflow } from "@solserver/checkpoint";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { driveRun } from "../src/workflows/driver";
import { checkpointLink, notifyCheckpoint } from "../src/workflows/notify";
import {
  nonPublicAddressKind,
  privateNetworksAllowed,
  publicFetch,
  type TWebhookStepOptions,
  WebhookError,
  webhookStep,
} from "../src/workflows/webhook-step";

const EXAMPLES = path.resolve(import.meta.dirname, "../../checkpoint/examples");
const SECRET = "test-secret-0123456789abcdef";
const RUN_ID = "WR-42";

type TReceived = { method: string; url: string; headers: IncomingHttpHeaders; body: string };
type THandler = (request: TReceived, response: ServerResponse, n: number) => void;

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
});

/** A receiver on 127.0.0.1 recording every request; `handle` answers (or never does). */
async function receiver(handle: THandler) {
  const received: TReceived[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      received.push(request);
      handle(request, res, received.length);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, port, received };
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
}

/** What a receiver does: recompute the HMAC over "<timestamp>.<raw body>", compare in constant time. */
function signatureValid(headers: IncomingHttpHeaders, raw: string, secret = SECRET): boolean {
  const timestamp = Number(headers["x-solserver-timestamp"]);
  if (!Number.isInteger(timestamp) || Math.abs(Date.now() / 1000 - timestamp) > 300) return false;
  const expected = Buffer.from(`sha256=${createHmac("sha256", secret).update(`${timestamp}.${raw}`).digest("hex")}`);
  const given = Buffer.from(String(headers["x-solserver-signature"] ?? ""));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const WORKFLOW = loadWorkflowOrThrow(`
name: hook-test
variables:
  service: http://127.0.0.1:1
  team: docs
phases:
  - id: check
    run:
      webhook: "{{service}}/check?token=abc"
      secret_env: SOLSERVER_WEBHOOK_SECRET_TEST
      retries: 2
`);

/** A run waiting for the webhook phase, its executor adjusted (timeouts under 1s are for tests only). */
function stateFor(
  url: string,
  executor: { secret_env?: string | null; timeout_ms?: number; retries?: number } = {},
): TRunState {
  const state = startRun(WORKFLOW, { variables: { service: url }, context: { draft: "Hello" } });
  if (state.next.kind !== "run_phase" || state.next.executor?.kind !== "webhook") throw new Error("no webhook phase");
  Object.assign(state.next.executor, executor);
  return state;
}

type TSleeps = number[];
function options(extra: Partial<TWebhookStepOptions> = {}, sleeps: TSleeps = []): TWebhookStepOptions {
  return {
    runId: RUN_ID,
    env: { SOLSERVER_WEBHOOK_SECRET_TEST: SECRET },
    allowPrivateNetworks: true,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    ...extra,
  };
}

async function failure(promise: Promise<unknown>): Promise<WebhookError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebhookError);
  const message = (error as WebhookError).message;
  expect(message).not.toContain("\n");
  expect(message).not.toContain(SECRET);
  return error as WebhookError;
}

describe("webhookStep: the request", () => {
  it("POSTs the run's context with the documented headers, signed so the receiver can verify it", async () => {
    const hook = await receiver((req, res) => {
      if (!signatureValid(req.headers, req.body)) return json(res, 401, { error: "bad signature" });
      json(res, 200, { data: { findings: 2 } });
    });
    const before = Math.floor(Date.now() / 1000);
    const result = await webhookStep(options())({ state: stateFor(hook.url), phaseId: "check" });
    expect(result).toEqual({ data: { findings: 2 } });

    expect(hook.received).toHaveLength(1);
    const [request] = hook.received;
    if (!request) throw new Error("no request");
    expect(request.method).toBe("POST");
    expect(request.url).toBe("/check?token=abc");
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["user-agent"]).toBe("solserver-workflows");
    expect(request.headers["idempotency-key"]).toBe(`${RUN_ID}:check:1:1`);
    const timestamp = Number(request.headers["x-solserver-timestamp"]);
    expect(timestamp).toBeGreaterThanOrEqual(before);
    expect(timestamp).toBeLessThanOrEqual(before + 5);
    expect(request.headers["x-solserver-signature"]).toMatch(/^sha256=[0-9a-f]{64}$/);
    const body = JSON.parse(request.body);
    expect(Object.keys(body)).toEqual([
      "run_id",
      "workflow",
      "phase_id",
      "iteration",
      "attempt",
      "context",
      "variables",
    ]);
    expect(body).toMatchObject({
      run_id: RUN_ID,
      workflow: "hook-test",
      phase_id: "check",
      iteration: 1,
      attempt: 1,
      context: { draft: "Hello", skip_phases: [], checkpoints: [] },
      variables: { service: hook.url, team: "docs" },
    });

    // A tampered body with the same headers is rejected by the same check, as is another key.
    const tampered = request.body.replace('"Hello"', '"Goodbye"');
    expect(tampered).not.toBe(request.body);
    expect(signatureValid(request.headers, tampered)).toBe(false);
    expect(signatureValid(request.headers, request.body, "another-key")).toBe(false);
    const replay = await fetch(`${hook.url}/check`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-solserver-timestamp": String(request.headers["x-solserver-timestamp"]),
        "x-solserver-signature": String(request.headers["x-solserver-signature"]),
      },
      body: tampered,
    });
    expect(replay.status).toBe(401);
  });

  it("sends unsigned when no secret_env is named", async () => {
    const hook = await receiver((_req, res) => res.writeHead(204).end());
    const result = await webhookStep(options({ env: {} }))({
      state: stateFor(hook.url, { secret_env: null }),
      phaseId: "check",
    });
    expect(result).toEqual({});
    expect(hook.received[0]?.headers["x-solserver-signature"]).toBeUndefined();
    expect(hook.received[0]?.headers["x-solserver-timestamp"]).toMatch(/^\d+$/);
  });

  it("fails without sending when secret_env names a variable the server lacks", async () => {
    const hook = await receiver((_req, res) => json(res, 200, {}));
    for (const env of [{}, { SOLSERVER_WEBHOOK_SECRET_TEST: "" }]) {
      const error = await failure(webhookStep(options({ env }))({ state: stateFor(hook.url), phaseId: "check" }));
      expect(error.message).toMatch(/secret_env SOLSERVER_WEBHOOK_SECRET_TEST is not set in the server's environment/);
      expect(error.deliveries).toBe(0);
    }
    expect(hook.received).toHaveLength(0);
  });
});

describe("webhookStep: retries", () => {
  it("retries a 500 once, with the same idempotency key, and takes the 200", async () => {
    const hook = await receiver((_req, res, n) =>
      n === 1 ? json(res, 500, { error: "database\nis down" }) : json(res, 200, { data: { findings: 0 } }),
    );
    const sleeps: TSleeps = [];
    const result = await webhookStep(options({}, sleeps))({ state: stateFor(hook.url), phaseId: "check" });
    expect(result).toEqual({ data: { findings: 0 } });
    expect(hook.received).toHaveLength(2);
    const keys = hook.received.map((r) => r.headers["idempotency-key"]);
    expect(keys).toEqual([`${RUN_ID}:check:1:1`, `${RUN_ID}:check:1:1`]);
    expect(hook.received.every((r) => signatureValid(r.headers, r.body))).toBe(true);
    expect(hook.received[0]?.body).toBe(hook.received[1]?.body);
    expect(sleeps).toEqual([500]);
  });

  it("backs off exponentially with jitter, capped, and gives up after the retries with the last status", async () => {
    const hook = await receiver((_req, res) => json(res, 503, { error: "busy" }));
    const sleeps: TSleeps = [];
    let turn = 0;
    const random = () => [0, 0.999, 0.5, 0.5][turn++ % 4] ?? 0.5;
    const error = await failure(
      webhookStep(options({ random, maxBackoffMs: 2000 }, sleeps))({
        state: stateFor(hook.url, { retries: 4 }),
        phaseId: "check",
      }),
    );
    expect(hook.received).toHaveLength(5);
    // nominal 500, 1000, 2000, 2000 (capped), each ±25 %
    expect(sleeps).toEqual([375, 1250, 2000, 2000]);
    expect(error.status).toBe(503);
    expect(error.deliveries).toBe(5);
    expect(error.message).toBe(
      `webhook ${hook.url}/check: answered 503 Service Unavailable: {"error":"busy"} (5 deliveries, no retries left)`,
    );
  });

  it("honours Retry-After on a 429, up to its cap", async () => {
    const hook = await receiver((_req, res, n) =>
      n === 1
        ? json(res, 429, {}, { "retry-after": "2" })
        : n === 2
          ? json(res, 429, {}, { "retry-after": "3600" })
          : json(res, 200, { ok: true }),
    );
    const sleeps: TSleeps = [];
    const result = await webhookStep(options({ maxRetryAfterMs: 10_000 }, sleeps))({
      state: stateFor(hook.url),
      phaseId: "check",
    });
    expect(result).toEqual({ data: { ok: true } });
    expect(sleeps).toEqual([2000, 10_000]);
  });

  it("never repeats a 2xx, even when its body is refused", async () => {
    const ok = await receiver((_req, res) => json(res, 200, { data: { n: 1 } }));
    await webhookStep(options())({ state: stateFor(ok.url, { retries: 3 }), phaseId: "check" });
    expect(ok.received).toHaveLength(1);

    const html = await receiver((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end("<h1>OK</h1>"));
    const error = await failure(webhookStep(options())({ state: stateFor(html.url), phaseId: "check" }));
    expect(error.message).toBe(`webhook ${html.url}/check: answered 200 with a body that is not JSON: <h1>OK</h1>`);
    expect(html.received).toHaveLength(1);
  });

  it("does not retry a 400 and fails with its status", async () => {
    const hook = await receiver((_req, res) => json(res, 400, { error: "missing field draft" }));
    const sleeps: TSleeps = [];
    const error = await failure(webhookStep(options({}, sleeps))({ state: stateFor(hook.url), phaseId: "check" }));
    expect(hook.received).toHaveLength(1);
    expect(sleeps).toEqual([]);
    expect(error.status).toBe(400);
    expect(error.message).toBe(
      `webhook ${hook.url}/check: answered 400 Bad Request: {"error":"missing field draft"} (1 delivery, not retried)`,
    );
  });

  it("keeps the key out of a failure message, even when the receiver echoes it", async () => {
    const hook = await receiver((_req, res) => json(res, 403, { error: `key ${SECRET} is revoked` }));
    const error = await failure(webhookStep(options())({ state: stateFor(hook.url), phaseId: "check" }));
    expect(error.message).toContain('{"error":"key [secret] is revoked"}');
  });

  it("does not follow (or retry) a redirect", async () => {
    const elsewhere = await receiver((_req, res) => json(res, 200, {}));
    const hook = await receiver((_req, res) => res.writeHead(307, { location: `${elsewhere.url}/x` }).end());
    const error = await failure(webhookStep(options())({ state: stateFor(hook.url), phaseId: "check" }));
    expect(error.message).toContain("answered 307 Temporary Redirect to");
    expect(error.message).toContain("(redirects are not followed)");
    expect(hook.received).toHaveLength(1);
    expect(elsewhere.received).toHaveLength(0);
  });

  it("times out a receiver that never answers, retries with backoff, and fails naming the timeout", async () => {
    const hook = await receiver(() => {
      // never answers
    });
    const sleeps: TSleeps = [];
    const error = await failure(
      webhookStep(options({ backoffMs: 50 }, sleeps))({
        state: stateFor(hook.url, { timeout_ms: 300, retries: 2 }),
        phaseId: "check",
      }),
    );
    // Three deliveries, each given up after its timeout; 50 ms, then 100 ms of backoff between.
    expect(hook.received).toHaveLength(3);
    expect(sleeps).toEqual([50, 100]);
    expect(error.status).toBeNull();
    expect(error.message).toBe(`webhook ${hook.url}/check: no answer within 300 ms (3 deliveries, no retries left)`);
  });

  it("retries a refused connection, then fails naming the network error", async () => {
    const gone = await receiver(() => {});
    const server = servers.pop();
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    const sleeps: TSleeps = [];
    const error = await failure(webhookStep(options({}, sleeps))({ state: stateFor(gone.url), phaseId: "check" }));
    expect(sleeps).toHaveLength(2);
    expect(error.message).toMatch(/ECONNREFUSED.*\(3 deliveries, no retries left\)$/);
  });
});

describe("webhookStep: the answer", () => {
  async function answer(status: number, body: string | undefined) {
    const hook = await receiver((_req, res) => {
      res.writeHead(status, body === undefined ? {} : { "content-type": "application/json" }).end(body);
    });
    return webhookStep(options())({ state: stateFor(hook.url), phaseId: "check" });
  }

  it("returns data and variables from an envelope, the whole object otherwise, nothing for an empty body", async () => {
    await expect(
      answer(200, JSON.stringify({ data: { findings: 3 }, variables: { reviewer: "ana" } })),
    ).resolves.toEqual({ data: { findings: 3 }, variables: { reviewer: "ana" } });
    await expect(answer(200, JSON.stringify({ variables: { reviewer: "ana" } }))).resolves.toEqual({
      variables: { reviewer: "ana" },
    });
    await expect(answer(201, JSON.stringify({ findings: 1, data: [1] }))).resolves.toEqual({
      data: { findings: 1, data: [1] },
    });
    await expect(answer(200, "  ")).resolves.toEqual({});
    await expect(answer(204, undefined)).resolves.toEqual({});
  });

  it("drives a run: the answer's data is what the checkpoint's condition reads", async () => {
    const hook = await receiver((_req, res) => json(res, 200, { data: { findings: 2 }, variables: { ruleset: "x" } }));
    const state = await driveRun(WORKFLOW, stateFor(hook.url), {
      steps: { webhook: webhookStep(options()) },
      now: () => new Date("2026-01-01T00:00:00Z"),
    });
    expect(state.status).toBe("done");
    expect((state.context as Record<string, unknown>).findings).toBe(2);
    expect(state.variables.ruleset).toBe("x");
  });

  it("fails on an answer that is not a JSON object, sets the runner's keys, or is too large", async () => {
    const cases: [string, RegExp][] = [
      ["[1,2]", /answered 200 but answer must be a JSON object, not an array$/],
      ['"ok"', /answer must be a JSON object, not string$/],
      [JSON.stringify({ data: "yes" }), /answer\.data must be a JSON object, not string$/],
      [JSON.stringify({ checkpoints: [] }), /answer\.checkpoints is reserved for the runner$/],
      [JSON.stringify({ data: { phases: {} } }), /answer\.data\.phases is reserved for the runner$/],
      ['{"__proto__": {"x": 1}}', /__proto__/],
    ];
    for (const [body, message] of cases) {
      const error = await failure(answer(200, body));
      expect(error.message).toMatch(message);
      expect(error.status).toBe(200);
    }
    const big = await receiver((_req, res) => json(res, 200, { data: { blob: "x".repeat(5000) } }));
    const error = await failure(
      webhookStep(options({ maxAnswerBytes: 1000 }))({ state: stateFor(big.url), phaseId: "check" }),
    );
    expect(error.message).toMatch(/answered 200 OK with a body larger than 1000 bytes \(1 delivery, not retried\)$/);
    expect(big.received).toHaveLength(1);
  });

  it("refuses a phase that is not a webhook", async () => {
    const state = stateFor("http://127.0.0.1:1");
    await failure(webhookStep(options())({ state, phaseId: "other" }));
  });
});

describe("webhookStep: whose secret signs", () => {
  it("a run stored before the prefix rule: any other variable is refused, set or not, and nothing sent", async () => {
    const hook = await receiver((_req, res) => json(res, 200, {}));
    for (const name of [
      "DATABASE_URL",
      "SOLSERVER_MODEL_API_KEY",
      "BETTER_AUTH_SECRET",
      "PGPASSWORD",
      "HOME",
      "UNSET_X",
    ]) {
      const step = webhookStep(options({ allowPrivateNetworks: true, env: { [name]: "hunter2" } }));
      const state = stateFor(hook.url);
      const next = state.next;
      if (next.kind !== "run_phase" || next.executor?.kind !== "webhook") throw new Error("expected a webhook phase");
      const signed = { ...state, next: { ...next, executor: { ...next.executor, secret_env: name } } };
      const error = await failure(step({ state: signed, phaseId: "check" }));
      // The same words whether the variable is set or not: no oracle on the server's environment.
      expect(error.message).toBe(
        `secret_env ${name} cannot sign webhooks: only variables starting with SOLSERVER_WEBHOOK_SECRET_ do`,
      );
    }
    expect(hook.received).toHaveLength(0);
  });
});

describe("webhookStep: private networks", () => {
  it("the connection itself refuses a name that resolves to a private address (DNS rebinding)", async () => {
    // The check before a delivery resolves the name once; fetch resolves it again to connect. The
    // public-only connection checks that second answer: "localhost" stands in for a name whose
    // second answer is 127.0.0.1.
    const hook = await receiver((_req, res) => json(res, 200, {}));
    const error = await publicFetch(`http://localhost:${hook.port}/`, { method: "POST", body: "{}" }).then(
      () => null,
      (e: unknown) => e as Error & { cause?: Error },
    );
    expect(error?.cause?.message ?? error?.message).toMatch(
      /localhost resolves to (127\.0\.0\.1|::1), a loopback address/,
    );
    expect(hook.received).toHaveLength(0);
  });

  it("refuses loopback addresses without the option, and sends nothing", async () => {
    const hook = await receiver((_req, res) => json(res, 200, {}));
    const urls = [
      hook.url,
      `http://localhost:${hook.port}`,
      `http://[::ffff:127.0.0.1]:${hook.port}`,
      `http://[::1]:1`,
    ];
    for (const url of urls) {
      const error = await failure(
        webhookStep(options({ allowPrivateNetworks: false }))({ state: stateFor(url), phaseId: "check" }),
      );
      expect(error.message).toMatch(
        /loopback address; webhooks to private networks are refused unless SOLSERVER_WORKFLOW_WEBHOOKS_PRIVATE=1/,
      );
      expect(error.deliveries).toBe(0);
    }
    expect(hook.received).toHaveLength(0);
    // With the option, the same receiver is reached (every other test runs this way).
    await webhookStep(options({ allowPrivateNetworks: true }))({
      state: stateFor(`http://localhost:${hook.port}`),
      phaseId: "check",
    });
    expect(hook.received).toHaveLength(1);
  });

  it("checks every address a name resolves to", async () => {
    const lookup = async () => [
      { address: "93.184.215.14", family: 4 },
      { address: "fd12:3456::1", family: 6 },
    ];
    const fetchSpy = async (): Promise<Response> => {
      throw new Error("must not be called");
    };
    const error = await failure(
      webhookStep(options({ allowPrivateNetworks: false, lookup, fetch: fetchSpy }))({
        state: stateFor("https://hooks.example.com"),
        phaseId: "check",
      }),
    );
    expect(error.message).toContain("hooks.example.com resolves to fd12:3456::1, a private (unique local) address");
  });

  it("classifies addresses", () => {
    const cases: [string, string | undefined][] = [
      ["127.0.0.1", "loopback"],
      ["127.255.0.9", "loopback"],
      ["10.1.2.3", "private"],
      ["172.31.255.255", "private"],
      ["172.32.0.1", undefined],
      ["192.168.1.1", "private"],
      ["169.254.169.254", "link-local"],
      ["100.100.0.1", "shared (carrier-grade NAT)"],
      ["0.0.0.0", "unspecified"],
      ["255.255.255.255", "reserved"],
      ["8.8.8.8", undefined],
      ["93.184.215.14", undefined],
      ["::1", "loopback"],
      ["::", "unspecified"],
      ["::ffff:127.0.0.1", "IPv4-mapped loopback"],
      ["::ffff:7f00:1", "IPv4-mapped loopback"],
      ["[::ffff:a9fe:a9fe]", "IPv4-mapped link-local"],
      ["::ffff:8.8.8.8", undefined],
      ["64:ff9b::10.0.0.1", "NAT64 private"],
      ["2002:c0a8:0101::1", "6to4 private"],
      ["fd00::1", "private (unique local)"],
      ["fe80::1%eth0", "link-local"],
      ["ff02::1", "multicast"],
      ["2606:4700:4700::1111", undefined],
      ["example.com", undefined],
    ];
    for (const [address, kind] of cases) expect([address, nonPublicAddressKind(address)]).toEqual([address, kind]);
    expect(privateNetworksAllowed({ SOLSERVER_WORKFLOW_WEBHOOKS_PRIVATE: "1" })).toBe(true);
    expect(privateNetworksAllowed({ SOLSERVER_WORKFLOW_WEBHOOKS_PRIVATE: "0" })).toBe(false);
    expect(privateNetworksAllowed({})).toBe(false);
  });
});

describe("notifyCheckpoint", () => {
  const NOTIFIED = loadWorkflowOrThrow(`
name: notified
notify:
  webhook: http://127.0.0.1:1/hook
  secret_env: SOLSERVER_WEBHOOK_SECRET_TEST
phases:
  - id: review
    checkpoint:
      prompt: Ship it?
      assignees: { role: jam }
      timeout: { after: 2h, option: Stop }
      options:
        - label: Ship
          on_select: { action: continue }
        - label: Stop
          with_feedback: true
          on_select: { action: abort }
`);

  function waiting(url: string): { workflow: TWorkflow; state: TRunState } {
    const workflow: TWorkflow = {
      ...NOTIFIED,
      notify: { webhook: `${url}/hook`, secret_env: "SOLSERVER_WEBHOOK_SECRET_TEST" },
    };
    const state = startRun(workflow, { now: new Date("2026-03-01T10:00:00Z") });
    expect(state.status).toBe("awaiting_decision");
    return { workflow, state };
  }

  it("delivers the checkpoint.waiting body, signed, with the link to the decision", async () => {
    const hook = await receiver((req, res) =>
      signatureValid(req.headers, req.body) ? res.writeHead(204).end() : json(res, 401, {}),
    );
    const { workflow, state } = waiting(hook.url);
    const result = await notifyCheckpoint({
      runId: RUN_ID,
      workflow,
      state,
      baseURL: "https://sol.example.com/",
      env: { SOLSERVER_WEBHOOK_SECRET_TEST: SECRET },
      allowPrivateNetworks: true,
    });
    expect(result).toEqual({ delivered: true });
    expect(hook.received).toHaveLength(1);
    const [request] = hook.received;
    expect(request?.url).toBe("/hook");
    expect(request?.headers["idempotency-key"]).toBe(`${RUN_ID}:review:1:checkpoint.waiting:0`);
    expect(JSON.parse(request?.body ?? "")).toEqual({
      event: "checkpoint.waiting",
      run_id: RUN_ID,
      workflow: "notified",
      phase_id: "review",
      prompt: "Ship it?",
      options: ["Ship", "Stop"],
      assignees: { role: "jam" },
      deadline: "2026-03-01T12:00:00.000Z",
      url: "https://sol.example.com/workflows#checkpoint-WR-42",
    });
    expect(checkpointLink("http://localhost:3000", "WR-7")).toBe("http://localhost:3000/workflows#checkpoint-WR-7");
  });

  it("retries a 500, and never throws when the receiver is down, private, or the key is missing", async () => {
    const flaky = await receiver((_req, res, n) => (n === 1 ? json(res, 500, {}) : json(res, 200, { ignored: true })));
    const sleeps: TSleeps = [];
    const base = { runId: RUN_ID, env: { SOLSERVER_WEBHOOK_SECRET_TEST: SECRET }, allowPrivateNetworks: true };
    const sleep = async (ms: number) => {
      sleeps.push(ms);
    };
    expect(await notifyCheckpoint({ ...base, ...waiting(flaky.url), sleep })).toEqual({ delivered: true });
    expect(flaky.received).toHaveLength(2);
    expect(flaky.received[0]?.headers["idempotency-key"]).toBe(flaky.received[1]?.headers["idempotency-key"]);

    const gone = await receiver(() => {});
    const server = servers.pop();
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    const down = await notifyCheckpoint({ ...base, ...waiting(gone.url), sleep });
    expect(down.delivered).toBe(false);
    expect(down.error).toMatch(
      /^notify: webhook http:\/\/127\.0\.0\.1:\d+\/hook: ECONNREFUSED.*\(3 deliveries, no retries left\)$/,
    );

    const hook = await receiver((_req, res) => json(res, 200, {}));
    const refused = await notifyCheckpoint({ ...base, ...waiting(hook.url), allowPrivateNetworks: false });
    expect(refused).toMatchObject({ delivered: false, error: expect.stringContaining("loopback address") });
    const unsigned = await notifyCheckpoint({ ...base, ...waiting(hook.url), env: {} });
    expect(unsigned).toMatchObject({
      delivered: false,
      error: expect.stringContaining("secret_env SOLSERVER_WEBHOOK_SECRET_TEST"),
    });
    expect(hook.received).toHaveLength(0);

    const { workflow, state } = waiting(hook.url);
    expect(await notifyCheckpoint({ ...base, workflow: { name: workflow.name }, state })).toEqual({ delivered: false });
    const done = { ...state, status: "done" as const, pending: null };
    expect(await notifyCheckpoint({ ...base, workflow, state: done })).toEqual({
      delivered: false,
      error: "the run is not waiting at a checkpoint",
    });
  });
});

describe("examples/webhook-receiver.mjs with examples/webhook-step.yaml", () => {
  let child: ChildProcess | undefined;
  afterAll(() => {
    child?.kill();
  });

  it("verifies the server's signature and answers what the definition's checkpoint reads", async () => {
    const KEY = "example-key-for-the-receiver";
    child = spawn(process.execPath, [path.join(EXAMPLES, "webhook-receiver.mjs")], {
      env: { PATH: process.env.PATH, SOLSERVER_WEBHOOK_SECRET_STYLE: KEY, PORT: "0" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    const url = await new Promise<string>((resolve, reject) => {
      lines.once("line", (line: string) => {
        const found = /http:\/\/\S+/.exec(line)?.[0];
        if (found) resolve(found);
        else reject(new Error(line));
      });
      child?.once("exit", (code) => reject(new Error(`receiver exited ${code}`)));
    });

    // Wrongly signed: refused by the receiver, a 401 the step does not retry.
    const workflow = loadWorkflowOrThrow(readFileSync(path.join(EXAMPLES, "webhook-step.yaml"), "utf8"));
    const now = () => new Date();
    const wrong = startRun(workflow, { variables: { service: url } });
    const refused = await failure(
      webhookStep({
        runId: "WR-1",
        env: { SOLSERVER_WEBHOOK_SECRET_STYLE: "not-the-key" },
        allowPrivateNetworks: true,
      })({
        state: wrong,
        phaseId: "style_check",
      }),
    );
    expect(refused.status).toBe(401);

    const steps = {
      webhook: webhookStep({ runId: "WR-2", env: { SOLSERVER_WEBHOOK_SECRET_STYLE: KEY }, allowPrivateNetworks: true }),
    };
    let state = await driveRun(workflow, startRun(workflow, { variables: { service: url } }), { steps, now });
    expect(state.status).toBe("awaiting_decision");
    expect(state.pending?.phase_id).toBe("triage");
    expect((state.context as Record<string, unknown>).findings).toBe(2);

    state = await driveRun(workflow, decide(workflow, state, { label: "Check again", now: now() }), { steps, now });
    expect(state.status).toBe("done");
    expect(state.context).toMatchObject({ findings: 0, published: true });
  });
});
