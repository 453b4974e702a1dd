// Benchmark: does a turn's retrieval inject the CFB that answers the question, whatever the size
// of the knowledge base and wherever the CFB sits in time? The 71 CFBs of the resolve evaluation
// set are imported with N noise CFBs of the same vocabulary (lib/realistic-corpus.ts) either
// before them (the answers are the newest), around them, or after them (the answers are the
// oldest); then each question of bench/fixtures/retrieval-questions.json (80, typed the way people
// type in a team chat: short, typos, slang, paraphrases, other languages) goes through the turn's
// retrieval (retrieveCfbs: the candidate index → rows with usage signals → rankCfbs, 8 injected).
// A question counts as answered when its CFB (or a twin that says the same) is injected. The
// questions are split by id: odd ones shaped retrieval's weights (title and labels double, the
// phrase bonus, the candidate count), even ones are held out; both rates are reported.
// Run: `pnpm bench:retrieval` (--sizes 0,10000,100000, --embedder URL for hybrid).
// Writes bench/results/retrieval.json.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import type { TCfbDraft } from "@solserver/contracts";
import {
  createOpenAICompatibleEmbeddings,
  openSemanticSearch,
  retrieveCfbs,
  type TSemanticMatching,
} from "@solserver/control-plane";
import { createPrismaClient, createRepositories } from "@solserver/db";
import { createTestDatabase } from "@solserver/db/testing";
import { realisticNoise } from "./lib/realistic-corpus";
import { benchDatabase, resultsFile } from "./lib/results-file";
import { draftOf, loadFixture, noiseSources } from "./resolve-eval-runner";

const { values } = parseArgs({
  options: {
    sizes: { type: "string", default: "0,10000,100000" },
    embedder: { type: "string" },
    "embedder-model": { type: "string", default: "wink-sg-100d" },
  },
});
const SIZES = values.sizes.split(",").map((s) => Number(s.trim()));
if (SIZES.some((n) => !Number.isInteger(n) || n < 0 || n > 1_000_000)) {
  console.error("error: --sizes must be comma-separated integers in [0, 1000000]");
  process.exit(2);
}
const INJECTED = 8;

type TQuestion = { id: string; cfb: string; also?: string[]; message: string; style: string };
const questions = (
  JSON.parse(readFileSync(path.join(import.meta.dirname, "fixtures", "retrieval-questions.json"), "utf8")) as {
    questions: TQuestion[];
  }
).questions;
const fixture = loadFixture();
const sources = noiseSources(fixture);
const corpus: TCfbDraft[] = fixture.corpus.map(draftOf);

type TPlacement = "newest" | "middle" | "oldest";

function percentile(sorted: readonly number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round((sorted[i] ?? 0) * 100) / 100;
}

async function run(size: number, placement: TPlacement, semantic: boolean) {
  const noise = realisticNoise(size, sources.prose, sources.others);
  const database = await createTestDatabase("retrieval-bench");
  const db = await createPrismaClient(database.url);
  try {
    const repos = createRepositories(db);
    const before = placement === "newest" ? noise : placement === "middle" ? noise.slice(0, size / 2) : [];
    const after = placement === "oldest" ? noise : placement === "middle" ? noise.slice(size / 2) : [];
    await repos.cfbs.import(before);
    const ids = await repos.cfbs.import(corpus);
    await repos.cfbs.import(after);
    await repos.cfbs.index.sync();
    let matching: TSemanticMatching | null = null;
    if (semantic && values.embedder) {
      matching = await openSemanticSearch(
        repos,
        createOpenAICompatibleEmbeddings({ baseUrl: values.embedder, model: values["embedder-model"] }),
      );
      await matching.syncAll();
    }
    const idOf = new Map(fixture.corpus.map((c, i) => [c.key, ids[i] as string]));
    const source = { search: repos.cfbs.index.search, retrievable: repos.cfbs.retrievable };
    const byStyle = new Map<string, { total: number; found: number }>();
    const bySplit = { tune: { total: 0, found: 0 }, holdout: { total: 0, found: 0 } };
    const times: number[] = [];
    const missed: string[] = [];
    for (const q of questions) {
      const started = performance.now();
      const neighbours = matching
        ? await matching.search.nearest(await matching.search.embed(q.message), INJECTED)
        : undefined;
      const ranked = await retrieveCfbs(source, q.message, {
        limit: INJECTED,
        ...(neighbours ? { neighbours, semanticScale: matching?.search.scale() } : {}),
      });
      times.push(performance.now() - started);
      const wanted = new Set([q.cfb, ...(q.also ?? [])].map((k) => idOf.get(k)));
      const found = ranked.some((r) => wanted.has(r.cfb.cfb_id));
      const half = Number(q.id.replace(/\D/g, "")) % 2 === 1 ? bySplit.tune : bySplit.holdout;
      half.total += 1;
      if (found) half.found += 1;
      const tally = byStyle.get(q.style) ?? { total: 0, found: 0 };
      tally.total += 1;
      if (found) tally.found += 1;
      else missed.push(`${q.id} (${q.style}): ${q.message}`);
      byStyle.set(q.style, tally);
    }
    times.sort((a, b) => a - b);
    const found = [...byStyle.values()].reduce((s, t) => s + t.found, 0);
    return {
      size,
      placement,
      mode: semantic ? "hybrid" : "lexical",
      questions: questions.length,
      found,
      rate: Math.round((found / questions.length) * 1000) / 1000,
      by_style: Object.fromEntries(byStyle),
      by_split: bySplit,
      latency_ms: { p50: percentile(times, 50), p99: percentile(times, 99) },
      missed,
    };
  } finally {
    await db.$disconnect();
    database.cleanup();
  }
}

const results = [];
for (const size of SIZES) {
  for (const placement of (size === 0 ? ["newest"] : ["newest", "middle", "oldest"]) as TPlacement[]) {
    for (const semantic of values.embedder ? [false, true] : [false]) {
      const r = await run(size, placement, semantic);
      results.push(r);
      console.log(
        `${r.mode.padEnd(7)} ${(size + corpus.length).toLocaleString("en-US").padStart(7)} CFBs, answers ${placement.padEnd(6)}: ` +
          `${r.found}/${r.questions} injected (${(r.rate * 100).toFixed(1)}%; held-out ${r.by_split.holdout.found}/` +
          `${r.by_split.holdout.total}, tuning ${r.by_split.tune.found}/${r.by_split.tune.total}), retrieval p50 ${r.latency_ms.p50} ms ` +
          `p99 ${r.latency_ms.p99} ms; ${Object.entries(r.by_style)
            .map(([s, t]) => `${s} ${t.found}/${t.total}`)
            .join(", ")}`,
      );
    }
  }
}
const out = resultsFile("retrieval");
writeFileSync(
  out,
  `${JSON.stringify({ when: new Date().toISOString(), node: process.version, database: benchDatabase(), injected: INJECTED, results }, null, 2)}\n`,
);
console.log(`written to ${path.relative(process.cwd(), out)}`);
