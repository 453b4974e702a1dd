// Benchmark: Umbra resolve (seed 001 §6) latency on large knowledge bases. For each corpus size,
// N synthetic CFBs (seeded PRNG, Zipf-like vocabulary: common and rare terms) are bulk-imported
// into a fresh SQLite file, then a rotation of proposals (rare words, common words, copies and
// paraphrases of existing CFBs) is resolved in-process: buildCandidateQuery → FTS5 candidate
// search (repos.cfbs.candidates) → scoreCandidates → decide. Reports import time, p50/p99 of the
// whole resolve and of its parts, and the database file's growth.
// Run: `pnpm bench:resolve` (--sizes 10000,100000, --runs N timed runs per size, default 1000).
// Writes bench/results/resolve.json.
import { statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import type { TCfbDraft, TResolveDecisionKind, TResolveProposal } from "@solserver/contracts";
import { createPrismaClient, createRepositories, databaseFilePath } from "@solserver/db";
import { createTestDatabase } from "@solserver/db/testing";
import { buildCandidateQuery, decide, scoreCandidates } from "@solserver/resolve";

const { values } = parseArgs({
  options: {
    sizes: { type: "string", default: "10000,100000" },
    runs: { type: "string", default: "1000" },
    limit: { type: "string", default: "20" },
  },
});
const SIZES = values.sizes.split(",").map((s) => Number(s.trim()));
const RUNS = Number(values.runs);
const LIMIT = Number(values.limit);
if (SIZES.length === 0 || SIZES.some((n) => !Number.isInteger(n) || n < 100 || n > 1_000_000)) {
  console.error("error: --sizes must be a comma-separated list of integers in [100, 1000000]");
  process.exit(2);
}
if (!Number.isInteger(RUNS) || RUNS < 10) {
  console.error("error: --runs must be an integer >= 10");
  process.exit(2);
}
if (!Number.isInteger(LIMIT) || LIMIT < 1 || LIMIT > 100) {
  console.error("error: --limit must be an integer in [1, 100]");
  process.exit(2);
}
const PROPOSALS_PER_KIND = 12; // × 4 kinds = 48 proposals in the rotation
const WARMUP_RUNS = 200;
const TARGET = { p50: 3, p99: 25 };

// ---- deterministic generation --------------------------------------------------------------

/** mulberry32: the same corpus and proposals on every run. */
function prng(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
let random = prng(0x5eed);
const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

const ONSETS = [
  "b",
  "c",
  "d",
  "f",
  "g",
  "k",
  "l",
  "m",
  "n",
  "p",
  "r",
  "s",
  "t",
  "v",
  "z",
  "br",
  "st",
  "tr",
  "pl",
  "sk",
];
const VOWELS = ["a", "e", "i", "o", "u", "ai", "ou"];
const CODAS = ["", "", "", "n", "r", "s", "l", "x", "m"];
const RESERVED = new Set(["and", "or", "not", "near"]);

/** `count` distinct pseudo-words of 2–4 syllables (the vocabulary, the tags, the entities). */
function words(count: number, syllables: [number, number]): string[] {
  const out = new Set<string>();
  while (out.size < count) {
    let w = "";
    for (let i = int(...syllables); i > 0; i--) w += pick(ONSETS) + pick(VOWELS) + pick(CODAS);
    if (!RESERVED.has(w)) out.add(w);
  }
  return [...out];
}

const VOCABULARY = words(4000, [2, 4]);
const TAGS = words(200, [2, 3]);
const ENTITIES = words(500, [2, 3]).map((w) => w[0]?.toUpperCase() + w.slice(1));
const DOMAINS = ["ops", "security", "data", "product", "solserver", "engineering"];

// Zipf-like (s = 1.07) over vocabulary rank: a handful of words are in most CFBs, most are rare.
const ZIPF_CDF = (() => {
  const weights = VOCABULARY.map((_, rank) => 1 / (rank + 1) ** 1.07);
  const total = weights.reduce((a, b) => a + b, 0);
  let acc = 0;
  return weights.map((w) => {
    acc += w / total;
    return acc;
  });
})();
function zipfWord(): string {
  const u = random();
  let lo = 0;
  let hi = ZIPF_CDF.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((ZIPF_CDF[mid] as number) < u) lo = mid + 1;
    else hi = mid;
  }
  return VOCABULARY[lo] as string;
}
const sample = <T>(pool: readonly T[], n: number): T[] => {
  const out = new Set<T>();
  while (out.size < n) out.add(pick(pool));
  return [...out];
};
const sentence = (n: number, word: () => string) => Array.from({ length: n }, word).join(" ");
const capitalise = (s: string) => (s[0]?.toUpperCase() ?? "") + s.slice(1);

function syntheticCfb(): TCfbDraft {
  const entities = sample(ENTITIES, int(1, 3));
  const summaryWords = Array.from({ length: int(20, 60) }, zipfWord);
  // Summaries mention their entities, as real ones do.
  for (const e of entities) summaryWords.splice(int(0, summaryWords.length), 0, e);
  return {
    domain: pick(DOMAINS),
    kind: "authoritative",
    confidence: 0.9,
    title: capitalise(sentence(int(3, 8), zipfWord)),
    summary: `${capitalise(summaryWords.join(" "))}.`,
    text: null,
    tags: sample(TAGS, int(2, 5)),
    entities,
    trust_tier: "user_approved",
    source_refs: [],
  };
}

type TProposalKind = "rare" | "common" | "copy" | "paraphrase";
type TBenchProposal = { kind: TProposalKind; proposal: TResolveProposal };

const rareWord = () => VOCABULARY[int(1500, VOCABULARY.length - 1)] as string;
const commonWord = () => VOCABULARY[int(0, 40)] as string;

function proposals(corpus: readonly TCfbDraft[]): TBenchProposal[] {
  const out: TBenchProposal[] = [];
  const fresh = (kind: TProposalKind, word: () => string): TBenchProposal => ({
    kind,
    proposal: {
      title: capitalise(sentence(int(3, 8), word)),
      delta_summary: `${capitalise(sentence(int(20, 60), word))}.`,
      tags: sample(TAGS, int(2, 5)),
      entities: sample(ENTITIES, int(1, 3)),
      domain: pick(DOMAINS),
      op: "create",
    },
  });
  for (let i = 0; i < PROPOSALS_PER_KIND; i++) {
    out.push(fresh("rare", rareWord), fresh("common", commonWord));
    const copied = pick(corpus);
    out.push({
      kind: "copy",
      proposal: { ...copied, delta_summary: copied.summary, op: "update" },
    });
    // A paraphrase: ~40% of the summary's words and one title word replaced, one tag dropped.
    const base = pick(corpus);
    const summary = base.summary
      .split(" ")
      .map((w) => (random() < 0.4 ? zipfWord() : w))
      .join(" ");
    const title = base.title.split(" ");
    title[int(0, title.length - 1)] = zipfWord();
    out.push({
      kind: "paraphrase",
      proposal: {
        title: title.join(" "),
        delta_summary: summary,
        tags: base.tags.length > 2 ? base.tags.slice(1) : base.tags,
        entities: base.entities,
        domain: base.domain,
        op: "update",
      },
    });
  }
  return out;
}

// ---- measurement ---------------------------------------------------------------------------

function percentile(sorted: readonly number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round((sorted[i] as number) * 1000) / 1000;
}
function stats(samples: readonly number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length);
  return {
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    mean: Math.round(mean * 1000) / 1000,
    max: percentile(sorted, 100),
  };
}
/** The database on disk: the main file plus its WAL and shared-memory files, if any. */
function onDisk(file: string): number {
  let bytes = 0;
  for (const suffix of ["", "-wal", "-shm"]) {
    try {
      bytes += statSync(file + suffix).size;
    } catch {
      // not there
    }
  }
  return bytes;
}
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

type TTimed = { total: number; query: number; search: number; score: number; decide: number };

async function benchSize(size: number) {
  random = prng(0x5eed ^ size);
  const corpus = Array.from({ length: size }, syntheticCfb);
  const rotation = proposals(corpus);

  const database = await createTestDatabase(`resolve-bench-${size}`);
  const file = databaseFilePath(database.url);
  const db = await createPrismaClient(database.url);
  try {
    const repos = createRepositories(db);
    const emptyBytes = onDisk(file);
    const importStarted = performance.now();
    const ids = await repos.cfbs.import(corpus);
    const importMs = performance.now() - importStarted;
    if (ids.length !== size) throw new Error(`imported ${ids.length} of ${size}`);

    const decisions: Record<TResolveDecisionKind, number> = { update: 0, review: 0, create: 0, merge: 0 };
    const byKind = new Map<TProposalKind, number[]>();
    let candidatesSeen = 0;
    let termsSeen = 0;
    const resolveOnce = async (p: TResolveProposal): Promise<{ t: TTimed; decision: TResolveDecisionKind }> => {
      const t0 = performance.now();
      const query = buildCandidateQuery(p);
      const t1 = performance.now();
      const candidates = await repos.cfbs.candidates(query, { limit: LIMIT });
      const t2 = performance.now();
      const scored = scoreCandidates(p, candidates);
      const t3 = performance.now();
      const outcome = decide(scored);
      const t4 = performance.now();
      candidatesSeen += candidates.length;
      termsSeen += query.terms.length;
      return {
        t: { total: t4 - t0, query: t1 - t0, search: t2 - t1, score: t3 - t2, decide: t4 - t3 },
        decision: outcome.decision,
      };
    };

    for (let i = 0; i < WARMUP_RUNS; i++) await resolveOnce((rotation[i % rotation.length] as TBenchProposal).proposal);
    candidatesSeen = 0;
    termsSeen = 0;
    const timed: TTimed[] = [];
    for (let i = 0; i < RUNS; i++) {
      const item = rotation[i % rotation.length] as TBenchProposal;
      const { t, decision } = await resolveOnce(item.proposal);
      timed.push(t);
      decisions[decision] += 1;
      const list = byKind.get(item.kind) ?? [];
      list.push(t.total);
      byKind.set(item.kind, list);
    }
    await db.$disconnect(); // closes the last connection: SQLite checkpoints the WAL into the file
    const fullBytes = onDisk(file);
    return {
      cfbs: size,
      import_ms: Math.round(importMs),
      import_cfbs_per_s: Math.round(size / (importMs / 1000)),
      runs: RUNS,
      proposals: rotation.length,
      resolve_ms: stats(timed.map((t) => t.total)),
      parts_ms: {
        query: stats(timed.map((t) => t.query)),
        search: stats(timed.map((t) => t.search)),
        score: stats(timed.map((t) => t.score)),
        decide: stats(timed.map((t) => t.decide)),
      },
      by_proposal_kind_ms: Object.fromEntries([...byKind].map(([k, v]) => [k, stats(v)])),
      decisions,
      avg_terms: Math.round((termsSeen / RUNS) * 10) / 10,
      avg_candidates: Math.round((candidatesSeen / RUNS) * 10) / 10,
      db_bytes: { empty: emptyBytes, after_import: fullBytes, growth: fullBytes - emptyBytes },
      bytes_per_cfb: Math.round((fullBytes - emptyBytes) / size),
    };
  } finally {
    await db.$disconnect();
    database.cleanup();
  }
}

const cpus = os.cpus();
const machine = {
  cpus: cpus.length,
  model: cpus[0]?.model ?? "unknown",
  node: process.version,
  platform: os.platform(),
};
console.log(`machine: ${machine.cpus} × ${machine.model}, Node ${machine.node}`);
const sizes = [];
for (const size of SIZES) {
  const r = await benchSize(size);
  sizes.push(r);
  const p = r.parts_ms;
  console.log(
    `\n${size.toLocaleString("en-US")} CFBs: import ${(r.import_ms / 1000).toFixed(1)} s ` +
      `(${r.import_cfbs_per_s.toLocaleString("en-US")} CFBs/s), database +${mb(r.db_bytes.growth)} MB ` +
      `(${r.bytes_per_cfb.toLocaleString("en-US")} B/CFB incl. revision, stats row and FTS index)`,
  );
  console.log(
    `  resolve (${r.runs} runs, ${r.proposals} proposals): p50 ${r.resolve_ms.p50} ms, p95 ${r.resolve_ms.p95} ms, ` +
      `p99 ${r.resolve_ms.p99} ms, max ${r.resolve_ms.max} ms`,
  );
  console.log(
    `  parts p50/p99: query ${p.query.p50}/${p.query.p99}, search ${p.search.p50}/${p.search.p99}, ` +
      `score ${p.score.p50}/${p.score.p99}, decide ${p.decide.p50}/${p.decide.p99} ms`,
  );
  console.log(
    `  by proposal kind p50/p99: ${Object.entries(r.by_proposal_kind_ms)
      .map(([k, s]) => `${k} ${s.p50}/${s.p99}`)
      .join(", ")} ms`,
  );
  console.log(
    `  ${r.avg_terms} terms and ${r.avg_candidates} candidates per proposal; decisions ${JSON.stringify(r.decisions)}`,
  );
  const met = r.resolve_ms.p50 <= TARGET.p50 && r.resolve_ms.p99 <= TARGET.p99;
  console.log(`  target p50 ≤ ${TARGET.p50} ms, p99 ≤ ${TARGET.p99} ms: ${met ? "met" : "MISSED"}`);
}

const result = { when: new Date().toISOString(), machine, target_ms: TARGET, limit: LIMIT, sizes };
const out = path.join(import.meta.dirname, "results", "resolve.json");
writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
console.log(`\nwritten to ${path.relative(process.cwd(), out)}`);
