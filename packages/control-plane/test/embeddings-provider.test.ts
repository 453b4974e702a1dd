// The OpenAI-compatible embeddings provider over real HTTP on 127.0.0.1: against the test
// embedder (vectors in order, one per text, all of one length) and against a scripted server
// that answers what each test says (an error status with a body, the wrong number of vectors,
// vectors of unequal length or with non-numbers, no data, `index` fields out of order, an answer
// slower than the timeout); the Authorization header only with an API key; texts cut to
// MAX_EMBEDDED_CHARS. Then the SOLSERVER_EMBEDDINGS* environment: validation and defaults.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createOpenAICompatibleEmbeddings, MAX_EMBEDDED_CHARS } from "../src/embeddings/openai-embeddings";
import { loadServerEnv } from "../src/env";
import { startTestEmbedder, type TTestEmbedder, testEmbedding } from "../src/testing";

const SECRET = "test-secret-test-secret-test-secret-0123";

// ---- the test embedder ---------------------------------------------------------------------------

describe("against the test embedder", () => {
  let embedder: TTestEmbedder;
  beforeAll(async () => {
    embedder = await startTestEmbedder();
  });
  afterAll(async () => embedder?.close());

  it("returns one vector per text, in input order, all of one length, as the server computed them", async () => {
    const provider = createOpenAICompatibleEmbeddings({ baseUrl: embedder.url, model: "test-embed" });
    const texts = ["Company car policy", "Vacation is booked in Personio.", "Salary reviews happen in March."];
    const vectors = await provider.embed(texts);
    expect(provider.model).toBe("test-embed");
    expect(vectors).toHaveLength(3);
    for (const [i, v] of vectors.entries()) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v.length).toBe(vectors[0]?.length);
      expect([...v]).toEqual([...Float32Array.from(testEmbedding(texts[i] as string))]);
    }
    // Different texts, different vectors: the order is not an accident of identical answers.
    expect([...(vectors[0] as Float32Array)]).not.toEqual([...(vectors[1] as Float32Array)]);
    expect(embedder.requests.at(-1)).toEqual(texts);
  });

  it("sends no request for no texts, and tolerates trailing slashes on the base URL", async () => {
    const before = embedder.requests.length;
    const provider = createOpenAICompatibleEmbeddings({ baseUrl: `${embedder.url}//`, model: "test-embed" });
    expect(await provider.embed([])).toEqual([]);
    expect(embedder.requests.length).toBe(before);
    expect(await provider.embed(["one text"])).toHaveLength(1);
    expect(embedder.requests.length).toBe(before + 1);
  });

  it("folds the embedder's synonyms: automobile and vehicle land on car", async () => {
    const provider = createOpenAICompatibleEmbeddings({ baseUrl: embedder.url, model: "test-embed" });
    const [car, automobile, vehicle, tank] = await provider.embed(["car", "automobile", "vehicles", "tank"]);
    expect([...(automobile as Float32Array)]).toEqual([...(car as Float32Array)]);
    expect([...(vehicle as Float32Array)]).toEqual([...(car as Float32Array)]);
    expect([...(tank as Float32Array)]).not.toEqual([...(car as Float32Array)]);
  });
});

// ---- a scripted server -----------------------------------------------------------------------------

type TReceived = { url: string; headers: IncomingMessage["headers"]; body: { model: string; input: string[] } };
/** What the server does with a request (the current test's script). */
type TBehaviour = (req: TReceived, res: ServerResponse) => void;

describe("against a scripted server", () => {
  let server: Server;
  let baseUrl: string;
  let behaviour: TBehaviour;
  let received: TReceived[] = [];

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(typeof body === "string" ? body : JSON.stringify(body));
  };
  /** A well-formed answer: the test embedder's vectors for the request's texts, index 0..n-1. */
  const answer = (req: TReceived) => ({
    object: "list",
    model: req.body.model,
    data: req.body.input.map((t, index) => ({ object: "embedding", index, embedding: testEmbedding(t) })),
  });

  beforeAll(async () => {
    server = createServer((req, res) => {
      let raw = "";
      req.on("data", (chunk) => {
        raw += chunk;
      });
      req.on("end", () => {
        const r: TReceived = { url: req.url ?? "", headers: req.headers, body: JSON.parse(raw || "{}") };
        received.push(r);
        behaviour(r, res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => server?.close(() => resolve()));
  });
  beforeEach(() => {
    received = [];
    behaviour = (req, res) => json(res, 200, answer(req));
  });

  const provider = (over: { apiKey?: string; timeoutMs?: number } = {}) =>
    createOpenAICompatibleEmbeddings({ baseUrl, model: "scripted-embed", timeoutMs: 2000, ...over });
  const url = () => `${baseUrl}/embeddings`;

  it("POSTs {model, input} as JSON to {baseUrl}/embeddings", async () => {
    await provider().embed(["alpha", "beta"]);
    expect(received).toHaveLength(1);
    expect(received[0]?.url).toBe("/v1/embeddings");
    expect(received[0]?.headers["content-type"]).toBe("application/json");
    expect(received[0]?.body).toEqual({ model: "scripted-embed", input: ["alpha", "beta"] });
  });

  it("an error status rejects with the URL, the status and the start of the body", async () => {
    behaviour = (_req, res) => json(res, 500, { error: { message: "model not loaded" } });
    const error = await provider()
      .embed(["alpha"])
      .then(
        () => null,
        (e: unknown) => e as Error,
      );
    expect(error).toBeInstanceOf(Error);
    expect(error?.message).toContain(url());
    expect(error?.message).toContain("500");
    expect(error?.message).toContain("model not loaded");
    // A long body is cut: the message stays readable.
    behaviour = (_req, res) => json(res, 503, "x".repeat(5000));
    const long = await provider()
      .embed(["alpha"])
      .catch((e: Error) => e);
    expect((long as Error).message).toMatch(/answered 503: x+$/);
    expect((long as Error).message.length).toBeLessThan(400);
  });

  it("the wrong number of vectors rejects, naming both counts", async () => {
    behaviour = (req, res) => {
      const full = answer(req);
      json(res, 200, { ...full, data: full.data.slice(0, 1) });
    };
    await expect(provider().embed(["alpha", "beta", "gamma"])).rejects.toThrow(
      `embeddings server ${url()} returned 1 vectors for 3 texts`,
    );
  });

  it("a connection closed under the request is tried once more; a second close fails", async () => {
    let calls = 0;
    behaviour = (_req, res) => {
      calls += 1;
      if (calls === 1) {
        res.socket?.destroy();
        return;
      }
      json(res, 200, { data: [{ index: 0, embedding: [0.1, 0.2, 0.3] }] });
    };
    expect(await provider().embed(["alpha"])).toHaveLength(1);
    expect(calls).toBe(2);
    calls = 0;
    behaviour = (_req, res) => {
      calls += 1;
      res.socket?.destroy();
    };
    await expect(provider().embed(["alpha"])).rejects.toThrow();
    expect(calls).toBe(2);
  });

  it("indexes that are not exactly 0..n-1 reject (a duplicate or a gap would pair vectors with the wrong texts)", async () => {
    for (const indexes of [
      [0, 0],
      [5, 7],
      [1, 2],
    ]) {
      behaviour = (_req, res) =>
        json(res, 200, { data: indexes.map((index) => ({ index, embedding: [0.1, 0.2, 0.3] })) });
      await expect(provider().embed(["alpha", "beta"])).rejects.toThrow(/returned indexes that are not 0\.\.1/);
    }
  });

  it("vectors of unequal length reject", async () => {
    behaviour = (_req, res) =>
      json(res, 200, {
        data: [
          { index: 0, embedding: [0.1, 0.2, 0.3] },
          { index: 1, embedding: [0.1, 0.2] },
        ],
      });
    await expect(provider().embed(["alpha", "beta"])).rejects.toThrow(/vector 1 has 2 numbers, not 3/);
  });

  it("non-finite or non-numeric components reject (1e999 parses to Infinity; null, strings, NaN)", async () => {
    for (const body of [
      '{"data":[{"index":0,"embedding":[0.5,1e999]}]}',
      '{"data":[{"index":0,"embedding":[0.5,null]}]}',
      '{"data":[{"index":0,"embedding":[0.5,"0.25"]}]}',
      '{"data":[{"index":0,"embedding":[0.5,NaN]}]}',
    ]) {
      behaviour = (_req, res) => json(res, 200, body);
      await expect(provider().embed(["alpha"]), body).rejects.toThrow(url());
    }
  });

  it("an answer without data, with empty data, empty vectors or not JSON at all rejects", async () => {
    for (const body of ["{}", '{"data":[]}', '{"data":[{"index":0,"embedding":[]}]}', '{"data":[{"index":0}]}', "ok"]) {
      behaviour = (_req, res) => json(res, 200, body);
      await expect(provider().embed(["alpha"]), body).rejects.toThrow(
        `embeddings server ${url()} answered without data[].embedding`,
      );
    }
  });

  it("rows with `index` fields out of order come back in input order", async () => {
    behaviour = (req, res) => {
      const full = answer(req);
      json(res, 200, { ...full, data: [...full.data].reverse() });
    };
    const texts = ["alpha", "beta", "gamma", "delta"];
    const vectors = await provider().embed(texts);
    expect(vectors.map((v) => [...v])).toEqual(texts.map((t) => [...Float32Array.from(testEmbedding(t))]));
  });

  it("rows without `index` are taken in the order given", async () => {
    behaviour = (req, res) => json(res, 200, { data: req.body.input.map((t) => ({ embedding: testEmbedding(t) })) });
    const vectors = await provider().embed(["alpha", "beta"]);
    expect([...(vectors[1] as Float32Array)]).toEqual([...Float32Array.from(testEmbedding("beta"))]);
  });

  it("a server slower than timeoutMs is given up at the timeout", async () => {
    behaviour = (req, res) => {
      const timer = setTimeout(() => json(res, 200, answer(req)), 3000);
      res.on("close", () => clearTimeout(timer));
    };
    await expect(provider({ timeoutMs: 200 }).embed(["alpha"])).rejects.toMatchObject({ name: "TimeoutError" });
  });

  it("sends Authorization: Bearer only when an API key is given", async () => {
    await provider({ apiKey: "sk-embed-123" }).embed(["alpha"]);
    await provider().embed(["alpha"]);
    await provider({ apiKey: "" }).embed(["alpha"]);
    expect(received.map((r) => r.headers.authorization)).toEqual(["Bearer sk-embed-123", undefined, undefined]);
  });

  it(`cuts texts longer than MAX_EMBEDDED_CHARS (${MAX_EMBEDDED_CHARS}) and leaves shorter ones whole`, async () => {
    const long = "word ".repeat(MAX_EMBEDDED_CHARS);
    const exact = "y".repeat(MAX_EMBEDDED_CHARS);
    const vectors = await provider().embed([long, "short text", exact]);
    expect(vectors).toHaveLength(3);
    const input = received[0]?.body.input ?? [];
    expect(input.map((t) => t.length)).toEqual([MAX_EMBEDDED_CHARS, "short text".length, MAX_EMBEDDED_CHARS]);
    expect(input[0]).toBe(long.slice(0, MAX_EMBEDDED_CHARS));
    expect(input[2]).toBe(exact);
  });
});

// ---- the environment ---------------------------------------------------------------------------

describe("SOLSERVER_EMBEDDINGS* in loadServerEnv", () => {
  it("is the embedded sentence model by default, and off when asked", () => {
    expect(loadServerEnv({ BETTER_AUTH_SECRET: SECRET }).embeddings).toEqual({ kind: "local" });
    expect(loadServerEnv({ BETTER_AUTH_SECRET: SECRET, SOLSERVER_EMBEDDINGS: "local" }).embeddings).toEqual({
      kind: "local",
    });
    expect(
      loadServerEnv({ BETTER_AUTH_SECRET: SECRET, SOLSERVER_EMBEDDINGS: "off", SOLSERVER_EMBEDDINGS_MODEL: "m" })
        .embeddings,
    ).toBeNull();
  });

  it("openai without SOLSERVER_EMBEDDINGS_MODEL (or with a blank one) fails naming that variable", () => {
    expect(() => loadServerEnv({ BETTER_AUTH_SECRET: SECRET, SOLSERVER_EMBEDDINGS: "openai" })).toThrow(
      /SOLSERVER_EMBEDDINGS_MODEL: is required when SOLSERVER_EMBEDDINGS=openai/,
    );
    expect(() =>
      loadServerEnv({ BETTER_AUTH_SECRET: SECRET, SOLSERVER_EMBEDDINGS: "openai", SOLSERVER_EMBEDDINGS_MODEL: "  " }),
    ).toThrow(/SOLSERVER_EMBEDDINGS_MODEL/);
  });

  it("an invalid SOLSERVER_EMBEDDINGS, base URL or timeout fails naming the variable", () => {
    expect(() => loadServerEnv({ BETTER_AUTH_SECRET: SECRET, SOLSERVER_EMBEDDINGS: "on" })).toThrow(
      /SOLSERVER_EMBEDDINGS: must be "local", "openai" or "off"/,
    );
    expect(() =>
      loadServerEnv({
        BETTER_AUTH_SECRET: SECRET,
        SOLSERVER_EMBEDDINGS: "openai",
        SOLSERVER_EMBEDDINGS_MODEL: "m",
        SOLSERVER_EMBEDDINGS_BASE_URL: "not a url",
      }),
    ).toThrow(/SOLSERVER_EMBEDDINGS_BASE_URL: must be a URL/);
    expect(() =>
      loadServerEnv({
        BETTER_AUTH_SECRET: SECRET,
        SOLSERVER_EMBEDDINGS: "openai",
        SOLSERVER_EMBEDDINGS_MODEL: "m",
        SOLSERVER_EMBEDDINGS_TIMEOUT_MS: "50",
      }),
    ).toThrow(/SOLSERVER_EMBEDDINGS_TIMEOUT_MS: must be at least 100/);
  });

  it("base URL and key default to OPENAI_BASE_URL / OPENAI_API_KEY; timeout to 10 s", () => {
    expect(
      loadServerEnv({ BETTER_AUTH_SECRET: SECRET, SOLSERVER_EMBEDDINGS: "openai", SOLSERVER_EMBEDDINGS_MODEL: "e5" })
        .embeddings,
    ).toEqual({
      kind: "openai",
      baseUrl: "https://api.openai.com/v1",
      apiKey: undefined,
      model: "e5",
      timeoutMs: 10_000,
    });
    expect(
      loadServerEnv({
        BETTER_AUTH_SECRET: SECRET,
        SOLSERVER_EMBEDDINGS: "openai",
        SOLSERVER_EMBEDDINGS_MODEL: " text-embedding-3-small ",
        OPENAI_BASE_URL: "http://127.0.0.1:11434/v1",
        OPENAI_API_KEY: "sk-chat",
      }).embeddings,
    ).toEqual({
      kind: "openai",
      baseUrl: "http://127.0.0.1:11434/v1",
      apiKey: "sk-chat",
      model: "text-embedding-3-small",
      timeoutMs: 10_000,
    });
  });

  it("its own base URL, key and timeout win over the chat model's", () => {
    expect(
      loadServerEnv({
        BETTER_AUTH_SECRET: SECRET,
        SOLSERVER_EMBEDDINGS: "openai",
        SOLSERVER_EMBEDDINGS_MODEL: "bge-small",
        SOLSERVER_EMBEDDINGS_BASE_URL: "http://127.0.0.1:8080/v1",
        SOLSERVER_EMBEDDINGS_API_KEY: "sk-embed",
        SOLSERVER_EMBEDDINGS_TIMEOUT_MS: "2500",
        OPENAI_BASE_URL: "http://127.0.0.1:11434/v1",
        OPENAI_API_KEY: "sk-chat",
      }).embeddings,
    ).toEqual({
      kind: "openai",
      baseUrl: "http://127.0.0.1:8080/v1",
      apiKey: "sk-embed",
      model: "bge-small",
      timeoutMs: 2500,
    });
  });
});
