// A scriptable OpenAI-compatible chat-completions server on 127.0.0.1, for driving Solserver the
// way any real model server could answer it: whole or streamed (server-sent chunks), slow, cut
// short, with odd usage figures, error statuses and Retry-After headers. Each test sets `reply`,
// which sees the n-th request (1-based, counted since the last `reset`) and writes the answer.
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { openWebServer } from "./helpers";

/** The parts of a chat-completions request the tests look at. */
export type TFakeRequest = {
  n: number;
  stream: boolean;
  messages: { role: string; content: string }[];
};

type TFakeReply = (request: TFakeRequest, res: ServerResponse) => void | Promise<void>;

export type TAnswerOptions = {
  /** Sent as `usage` (whatever it holds: the server is the hostile party here). */
  usage?: Record<string, unknown>;
  /** Streamed answers: characters of content per chunk. */
  chunkChars?: number;
  /** Streamed answers: pause between chunks. */
  chunkDelayMs?: number;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Answers `request` with `content` as the assistant message: one JSON completion, or (when the
 * client asked for a stream) chat.completion.chunk events, a usage chunk and [DONE].
 */
export async function answer(
  request: TFakeRequest,
  res: ServerResponse,
  content: string,
  options: TAnswerOptions = {},
): Promise<void> {
  const usage = options.usage ?? { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 };
  const base = { id: `chatcmpl-${request.n}`, created: 1_764_000_000, model: "hostile" };
  if (!request.stream) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        ...base,
        object: "chat.completion",
        choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
        usage,
      }),
    );
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    `data: ${JSON.stringify({ ...base, object: "chat.completion.chunk", choices, ...extra })}\n\n`;
  const size = options.chunkChars ?? 16;
  for (let at = 0; at < content.length; at += size) {
    if (res.destroyed) return;
    res.write(chunk([{ index: 0, delta: { content: content.slice(at, at + size) }, finish_reason: null }]));
    if (options.chunkDelayMs) await sleep(options.chunkDelayMs);
  }
  if (res.destroyed) return;
  res.write(chunk([{ index: 0, delta: {}, finish_reason: "stop" }]));
  res.write(chunk([], { usage }));
  res.end("data: [DONE]\n\n");
}

/** Answers with an error status and a JSON error body, plus `headers` (e.g. Retry-After). */
export function fail(res: ServerResponse, status: number, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify({ error: { message: `hostile server says ${status}`, type: "server_error" } }));
}

export type TFakeModelServer = {
  /** http://127.0.0.1:port/v1, for OPENAI_BASE_URL. */
  baseURL: string;
  /** The requests since the last reset, in arrival order. */
  requests: TFakeRequest[];
  /** Forgets the requests and answers the next ones with `reply`. */
  reset(reply: TFakeReply): void;
  close(): Promise<void>;
};

async function startFakeModelServer(): Promise<TFakeModelServer> {
  const requests: TFakeRequest[] = [];
  let reply: TFakeReply = (_request, res) => fail(res, 503);
  const server: Server = createServer((req, res) => {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (piece: string) => {
      raw += piece;
    });
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/v1/chat/completions") return fail(res, 404);
      const body = JSON.parse(raw) as { stream?: boolean; messages: TFakeRequest["messages"] };
      const request = {
        n: requests.length + 1,
        stream: body.stream === true,
        messages: body.messages,
      };
      requests.push(request);
      Promise.resolve(reply(request, res)).catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    reset(next) {
      requests.length = 0;
      reply = next;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * The web app on a fresh database, its model the OpenAI-compatible provider talking to a fake
 * model server started for it (3 attempts a turn unless `env` says otherwise), and a service
 * token of a plain user's: what the hostile-* suites drive.
 */
export async function openHostileWeb(label: string, env: Record<string, string> = {}) {
  const fake = await startFakeModelServer();
  const web = await openWebServer(label, {
    SOLSERVER_MODEL: "openai",
    OPENAI_BASE_URL: fake.baseURL,
    OPENAI_API_KEY: "local",
    SOLSERVER_OPENAI_MODEL: "hostile",
    SOLSERVER_MODEL_MAX_ATTEMPTS: "3",
    ...env,
  });
  const jam = await web.account("jam");
  const asService = await web.bearer(jam, await web.account("user"));
  return {
    fake,
    web,
    asService,
    async close() {
      await web.close();
      await fake.close();
    },
  };
}
