// The OpenAI-compatible provider against a real local HTTP server that speaks the
// chat-completions protocol: every try is an attempt, failures are recorded and never crash.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadServerEnv } from "../src/env";
import {
  createOpenAICompatibleModel,
  retryAfterMs,
  type TOpenAICompatibleOptions,
  tokenCount,
} from "../src/model/openai-compatible";
import { SYSTEM_INSTRUCTIONS } from "../src/model/prompt";
import { ModelAttemptsFailed, type TModelInput } from "../src/model/provider";
import { createModel } from "../src/model/registry";

const API_KEY = "sk-test-0123456789abcdef";

type TJsonSchema = { required?: string[]; properties: Record<string, TJsonSchema> };
/** The parts of a chat-completions request body the tests look at. */
type TChatBody = {
  model: string;
  messages: { role: string; content: string }[];
  response_format: { type: string; json_schema: { name: string; strict: boolean; schema: TJsonSchema } };
};
type TRequest = { method: string; url: string; headers: IncomingMessage["headers"]; body: TChatBody };
/** What the server does with the n-th request (1-based) of the current test. */
type TBehaviour = (n: number, res: ServerResponse) => void;

let server: Server;
let baseURL: string;
let behaviour: TBehaviour;
let received: TRequest[] = [];

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  if (res.destroyed) return;
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

/** A chat.completion whose assistant message is `content`. */
function completion(content: string, usage = { prompt_tokens: 120, completion_tokens: 34 }) {
  return {
    id: "chatcmpl-test",
    object: "chat.completion",
    created: 1_700_000_000,
    model: "test-model",
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  };
}

const ENVELOPE = {
  assistant_text: "According to CFB-0001, analytics run on Postgres.",
  meta: {
    modeLabel: "System",
    domainHints: ["data"],
    used_cfb_ids: ["CFB-0001"],
    ignored_cfb_ids: ["CFB-0002"],
    unknowns: [],
    cfb_suggestions: [],
  },
};
const ok = (res: ServerResponse, body: unknown = ENVELOPE) => send(res, 200, completion(JSON.stringify(body)));

const INPUT: TModelInput = {
  message: "Where do analytics run?",
  history: [
    { role: "user", content: "Hi" },
    { role: "assistant", content: "Hello." },
  ],
  cfbs: [
    {
      cfb_id: "CFB-0001",
      domain: "data",
      title: "Analytics database",
      summary: "Analytics workloads run on Postgres.",
      tags: ["analytics"],
      entities: ["Postgres"],
    },
    {
      cfb_id: "CFB-0002",
      domain: "ops",
      title: "Deploy schedule",
      summary: "Deploys happen on Tuesdays.",
      tags: ["deploys"],
      entities: [],
    },
  ],
  closureSignals: [{ kind: "decision_made", summary: "Use Postgres for analytics" }, { kind: "open_loop_resolved" }],
};

const provider = (over: Partial<TOpenAICompatibleOptions> = {}) =>
  createOpenAICompatibleModel({
    baseURL,
    apiKey: API_KEY,
    model: "test-model",
    timeoutMs: 2000,
    maxAttempts: 3,
    retryDelayMs: 0,
    ...over,
  });

/** The ModelAttemptsFailed a call throws (fails the test if it resolves or throws anything else). */
async function failure(promise: Promise<unknown>): Promise<ModelAttemptsFailed> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ModelAttemptsFailed);
  return error as ModelAttemptsFailed;
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => {
      raw += chunk;
    });
    req.on("end", () => {
      received.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: JSON.parse(raw) });
      if (req.method !== "POST" || req.url !== "/v1/chat/completions") return send(res, 404, { error: "not found" });
      behaviour(received.length, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  received = [];
});

describe("OpenAI-compatible provider", () => {
  it("returns the envelope with one ok attempt, tokens, and sends our prompt, CFBs, signals and schema", async () => {
    behaviour = (_n, res) => ok(res);
    const out = await provider().generate(INPUT);

    expect(out.envelope).toMatchObject(ENVELOPE);
    expect(out.tokensIn).toBe(120);
    expect(out.tokensOut).toBe(34);
    expect(out.attempts).toHaveLength(1);
    expect(out.attempts?.[0]).toMatchObject({
      n: 1,
      model: "test-model",
      tokensIn: 120,
      tokensOut: 34,
      outcome: "ok",
      reason: null,
    });
    expect(out.attempts?.[0]?.latencyMs).toBeGreaterThanOrEqual(0);
    expect(out.summary).toBeUndefined();

    expect(received).toHaveLength(1);
    const req = received[0] as TRequest;
    expect(req.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(req.body.model).toBe("test-model");
    const [system, ...rest] = req.body.messages as [TChatBody["messages"][number], ...TChatBody["messages"]];
    expect(system.role).toBe("system");
    expect(system.content).toContain(SYSTEM_INSTRUCTIONS);
    expect(system.content).toContain("CFB-0001");
    expect(system.content).toContain("CFB-0002");
    expect(system.content).toContain("decision_made: Use Postgres for analytics");
    expect(system.content).toContain("open_loop_resolved");
    expect(rest).toEqual([...INPUT.history, { role: "user", content: INPUT.message }]);
    expect(req.body.response_format.type).toBe("json_schema");
    expect(req.body.response_format.json_schema.name).toBe("OutputEnvelope");
    expect(req.body.response_format.json_schema.strict).toBe(false);
    const schema = req.body.response_format.json_schema.schema;
    expect(schema.required).toEqual(["assistant_text", "meta"]);
    expect(Object.keys(schema.properties.meta?.properties ?? {})).toContain("cfb_suggestions");
    expect(schema.properties.summary).toBeUndefined();
  });

  it("asks for and returns a summary update when the turn may update the summary", async () => {
    const current = { arc: "Choosing a database", active: ["analytics"], parked: [], decisions: [], next: [] };
    const proposed = { ...current, decisions: ["Postgres for analytics"] };
    behaviour = (_n, res) => ok(res, { ...ENVELOPE, summary: proposed });
    const out = await provider().generate({ ...INPUT, summary: current });

    expect(out.summary).toEqual(proposed);
    expect(out.envelope).not.toHaveProperty("summary");
    const body = (received[0] as TRequest).body;
    expect(body.messages[0]?.content).toContain(JSON.stringify(current));
    expect(body.response_format.json_schema.schema.properties.summary?.properties.arc).toBeDefined();
  });

  it("retries malformed JSON: [invalid_envelope, ok]", async () => {
    behaviour = (n, res) => (n === 1 ? send(res, 200, completion("{ this is not json")) : ok(res));
    const out = await provider().generate(INPUT);

    expect(out.attempts?.map((a) => [a.n, a.outcome])).toEqual([
      [1, "invalid_envelope"],
      [2, "ok"],
    ]);
    expect(out.attempts?.[0]?.reason).toMatch(/^unparseable JSON/);
    expect(out.attempts?.[0]?.tokensIn).toBe(120);
    expect(out.envelope).toMatchObject(ENVELOPE);
  });

  it("gives up after maxAttempts malformed answers with ModelAttemptsFailed", async () => {
    behaviour = (_n, res) => send(res, 200, completion("Sure! Here is your answer."));
    const error = await failure(provider({ maxAttempts: 3 }).generate(INPUT));

    expect(error.attempts.map((a) => [a.n, a.outcome])).toEqual([
      [1, "invalid_envelope"],
      [2, "invalid_envelope"],
      [3, "invalid_envelope"],
    ]);
    expect(received).toHaveLength(3);
  });

  it("records timeouts when the server answers too late", async () => {
    behaviour = (_n, res) => {
      setTimeout(() => ok(res), 1000).unref();
    };
    const error = await failure(provider({ timeoutMs: 150, maxAttempts: 2 }).generate(INPUT));

    expect(error.attempts.map((a) => a.outcome)).toEqual(["timeout", "timeout"]);
    for (const a of error.attempts) {
      expect(a.latencyMs).toBeGreaterThanOrEqual(100);
      expect(a.latencyMs).toBeLessThan(1000);
      expect(a.tokensIn).toBeNull();
    }
  });

  it("retries a 429 after Retry-After: [http_error 429, ok]", async () => {
    behaviour = (n, res) =>
      n === 1
        ? send(res, 429, { error: { message: "Rate limit reached", type: "rate_limit" } }, { "retry-after": "0" })
        : ok(res);
    const out = await provider().generate(INPUT);

    expect(out.attempts?.map((a) => a.outcome)).toEqual(["http_error", "ok"]);
    expect(out.attempts?.[0]?.reason).toMatch(/^HTTP 429/);
  });

  it("caps a huge Retry-After at maxRetryDelayMs", async () => {
    behaviour = (n, res) => {
      return n === 1 ? send(res, 429, { error: { message: "slow down" } }, { "retry-after": "86400" }) : ok(res);
    };
    const out = await provider({ maxRetryDelayMs: 200 }).generate(INPUT);
    expect(out.attempts?.map((a) => a.outcome)).toEqual(["http_error", "ok"]);
    expect(out.attempts?.[0]?.reason).toMatch(/; next attempt in 200 ms$/);
  });

  it("retries a 5xx: [http_error 503, ok]", async () => {
    behaviour = (n, res) => (n === 1 ? send(res, 503, { error: { message: "overloaded" } }) : ok(res));
    const out = await provider().generate(INPUT);

    expect(out.attempts?.map((a) => a.outcome)).toEqual(["http_error", "ok"]);
    expect(out.attempts?.[0]?.reason).toMatch(/^HTTP 503/);
  });

  it("does not retry a 400, and keeps the API key out of the reason", async () => {
    behaviour = (_n, res) =>
      send(res, 400, { error: { message: `Bad request for key ${API_KEY}`, type: "invalid_request_error" } });
    const error = await failure(provider().generate(INPUT));

    expect(error.attempts).toHaveLength(1);
    expect(error.attempts[0]).toMatchObject({ n: 1, outcome: "http_error" });
    expect(error.attempts[0]?.reason).toMatch(/^HTTP 400/);
    expect(JSON.stringify(error.attempts)).not.toContain(API_KEY);
    expect(error.message).not.toContain(API_KEY);
    expect(received).toHaveLength(1);
  });

  it("rejects an envelope that fails the schema, naming the field", async () => {
    const bad = {
      ...ENVELOPE,
      meta: {
        ...ENVELOPE.meta,
        cfb_suggestions: [{ op: "delete", title: "x", delta_summary: "y", confidence: 0.5 }],
      },
    };
    behaviour = (_n, res) => ok(res, bad);
    const error = await failure(provider({ maxAttempts: 1 }).generate(INPUT));

    expect(error.attempts).toHaveLength(1);
    expect(error.attempts[0]?.outcome).toBe("invalid_envelope");
    expect(error.attempts[0]?.reason).toContain("meta.cfb_suggestions.0.op");
  });

  it("records network errors when nothing listens", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await failure(provider({ baseURL: `http://127.0.0.1:${port}/v1`, maxAttempts: 2 }).generate(INPUT));

    expect(error.attempts.map((a) => a.outcome)).toEqual(["network_error", "network_error"]);
    expect(error.attempts[0]?.reason).toContain("ECONNREFUSED");
  });
});

describe("model settings in the environment", () => {
  const SECRET = "x".repeat(32);

  it("refuses SOLSERVER_MODEL=openai without OPENAI_API_KEY, naming it", () => {
    expect(() =>
      loadServerEnv({ SOLSERVER_MODEL: "openai", SOLSERVER_OPENAI_MODEL: "gpt-4o-mini", BETTER_AUTH_SECRET: SECRET }),
    ).toThrow(/OPENAI_API_KEY: is required when SOLSERVER_MODEL=openai/);
  });

  it("refuses SOLSERVER_MODEL=openai without SOLSERVER_OPENAI_MODEL, and attempts outside 1..5", () => {
    expect(() => loadServerEnv({ SOLSERVER_MODEL: "openai", OPENAI_API_KEY: "k", BETTER_AUTH_SECRET: SECRET })).toThrow(
      /SOLSERVER_OPENAI_MODEL/,
    );
    expect(() => loadServerEnv({ SOLSERVER_MODEL_MAX_ATTEMPTS: "6", BETTER_AUTH_SECRET: SECRET })).toThrow(
      /SOLSERVER_MODEL_MAX_ATTEMPTS/,
    );
  });

  it("applies the defaults and builds the openai provider from the environment", () => {
    const env = loadServerEnv({
      SOLSERVER_MODEL: "openai",
      OPENAI_API_KEY: "local",
      SOLSERVER_OPENAI_MODEL: "llama3.1:8b",
      BETTER_AUTH_SECRET: SECRET,
    });
    expect(env).toMatchObject({
      SOLSERVER_MODEL: "openai",
      OPENAI_BASE_URL: "https://api.openai.com/v1",
      OPENAI_API_KEY: "local",
      SOLSERVER_OPENAI_MODEL: "llama3.1:8b",
      SOLSERVER_MODEL_TIMEOUT_MS: 30_000,
      SOLSERVER_MODEL_MAX_ATTEMPTS: 3,
    });
    expect(createModel(env.SOLSERVER_MODEL, env).name).toBe("openai-compatible:llama3.1:8b");
    expect(loadServerEnv({ BETTER_AUTH_SECRET: SECRET }).SOLSERVER_MODEL).toBe("offline");
  });
});

describe("what the model server sends besides the answer", () => {
  const headers = (h: Record<string, string>) => new Headers(h);

  it("Retry-After: seconds, milliseconds or an HTTP date; anything else is no wait asked", () => {
    expect(retryAfterMs(headers({ "retry-after": "2" }))).toBe(2000);
    expect(retryAfterMs(headers({ "retry-after": "1.5" }))).toBe(1500);
    expect(retryAfterMs(headers({ "retry-after-ms": "120", "retry-after": "9" }))).toBe(120);
    const inTwoSeconds = new Date(Date.now() + 2500).toUTCString();
    expect(retryAfterMs(headers({ "retry-after": inTwoSeconds }))).toBeGreaterThan(1000);
    expect(retryAfterMs(headers({ "retry-after": "Wed, 21 Oct 2015 07:28:00 GMT" }))).toBe(0);
    for (const odd of ["-5", "soon", "", "1e9x", "-0.5"]) {
      expect(retryAfterMs(headers({ "retry-after": odd })), odd).toBeNull();
    }
    expect(retryAfterMs(headers({ "retry-after-ms": "-1" }))).toBeNull();
    expect(retryAfterMs(undefined)).toBeNull();
  });

  it("token counts: numbers kept, numeric strings and fractions read with a warning, the rest ignored", () => {
    const warnings: string[] = [];
    expect(tokenCount(12, "n", warnings)).toBe(12);
    expect(tokenCount(undefined, "n", warnings)).toBeNull();
    expect(tokenCount(null, "n", warnings)).toBeNull();
    expect(warnings).toEqual([]);
    expect(tokenCount("12", "a", warnings)).toBe(12);
    expect(tokenCount(12.5, "b", warnings)).toBe(13);
    expect(tokenCount(-5, "c", warnings)).toBeNull();
    expect(tokenCount(Number.NaN, "d", warnings)).toBeNull();
    expect(tokenCount({ n: 1 }, "e", warnings)).toBeNull();
    expect(tokenCount(1e12, "f", warnings)).toBeNull();
    expect(warnings).toEqual([
      'a "12" read as 12',
      "b 12.5 read as 13",
      "c -5 ignored",
      "d NaN ignored",
      'e {"n":1} ignored',
      "f 1000000000000 ignored",
    ]);
  });
});
