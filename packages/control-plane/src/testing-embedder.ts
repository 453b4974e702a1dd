// A deterministic embeddings server for tests, over real HTTP on 127.0.0.1: OpenAI-compatible
// POST /v1/embeddings. A text's vector is its analysed terms hashed into DIMS signed buckets,
// with a small table of synonyms folded onto one concept first ("automobile" is "car"), so tests
// can show semantic matching find what shares no word. It can be told to fail, to test that
// nothing depends on it being up.
import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { analyzeTerms } from "@solserver/text";

const DIMS = 64;

/** Words the test embedder treats as one concept (after stemming). */
const CONCEPTS: Readonly<Record<string, string>> = {
  automobil: "car",
  vehicl: "car",
  lorri: "truck",
  holiday: "vacat",
  leav: "vacat",
  remuner: "salari",
  pay: "salari",
  wage: "salari",
};

function bucket(term: string): { index: number; sign: number } {
  const digest = createHash("sha256").update(term).digest();
  return { index: (digest[0] as number) % DIMS, sign: (digest[1] as number) & 1 ? 1 : -1 };
}

export function testEmbedding(text: string): number[] {
  const v = new Array<number>(DIMS).fill(0);
  for (const term of new Set(analyzeTerms(text).map((t) => CONCEPTS[t] ?? t))) {
    const { index, sign } = bucket(term);
    v[index] = (v[index] as number) + sign;
  }
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1;
  return v.map((x) => x / norm);
}

export type TTestEmbedder = {
  /** e.g. http://127.0.0.1:41234/v1 */
  url: string;
  /** Texts embedded so far, per request. */
  requests: string[][];
  /** While set, every request answers this HTTP status. */
  failWith: number | null;
  close(): Promise<void>;
};

export async function startTestEmbedder(): Promise<TTestEmbedder> {
  const state: TTestEmbedder = { url: "", requests: [], failWith: null, close: async () => {} };
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      if (state.failWith !== null) {
        res.writeHead(state.failWith, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: "test embedder told to fail" } }));
        return;
      }
      if (req.method !== "POST" || !req.url?.endsWith("/embeddings")) {
        res.writeHead(404).end();
        return;
      }
      const { input, model } = JSON.parse(body) as { input: string[] | string; model: string };
      const texts = Array.isArray(input) ? input : [input];
      state.requests.push(texts);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          object: "list",
          model,
          data: texts.map((t, index) => ({ object: "embedding", index, embedding: testEmbedding(t) })),
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  state.url = `http://127.0.0.1:${port}/v1`;
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}
