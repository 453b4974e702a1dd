// Benchmark: Umbra resolve (seed 001 §6) latency on large knowledge bases with a realistic
// vocabulary. For each size, N noise CFBs written with the evaluation set's own phrases and words
// (lib/realistic-corpus.ts) plus the set's 71 CFBs are bulk-imported into a fresh SQLite file;
// the candidate index is built; then the set's proposals (~230: restatements, paraphrases,
// extensions, contradictions, other languages, new subjects) are resolved in rotation through the
// service's own path (resolveCandidates → resolveOutcome), first once each cold, then 1,000 timed
// runs after 200 warm-up ones. Reports import and index build times, p50/p95/p99 of a resolve and
// of its parts, and the database file's growth.
// Run: `pnpm bench:resolve` (--sizes 10000,100000 --runs 1000). Writes bench/results/resolve.json.
import { statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import type { TCfbDraft, TResolveDecisionKind, TResolveProposal } from "@solserver/contracts";
import { resolveCandidates } from "@solserver/control-plane";
import { createPrismaClient, createRepositories, databaseFilePath } from "@solserver/db";
import { createTestDatabase } from "@solserver/db/testing";
import { resolveOutcome } from "@solserver/resolve";
import { realisticNoise } from "./lib/realistic-corpus";
import { resultsPath } from "./lib/results-file";
import { CANDIDATE_LIMIT, draftOf, loadFixture, noiseSources } from "./resolve-eval-runner";

const { values } = parseArgs({
  options: {
    sizes: { type: "string", default: "10000,100000" },
    runs: { type: "string", default: "1000" },
  },
});
const SIZES = values.sizes.split(",").map((s) => Number(s.trim()));
const RUNS = Number(values.runs);
if (SIZES.length === 0 || SIZES.some((n) => !Number.isInteger(n) || n < 100 || n > 1_000_000)) {
  console.error("error: --sizes must be a comma-separated list of integers in [100, 1000000]");
  process.exit(2);
}
if (!Number.isInteger(RUNS) || RUNS < 10) {
  console.error("error: --runs must be an integer >= 10");
  process.exit(2);
}
const WARMUP_RUNS = 200;
const TARGET = { p50: 3, p99: 25 };

function percentile(sorted: readonly number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round((sorted[i] as number) * 1000) / 1000;
}
function stats(samples: readonly number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
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

const fixture = loadFixture();
const sources = noiseSources(fixture);
const proposals: TResolveProposal[] = fixture.cases.map((c) => c.proposal);
const corpus: TCfbDraft[] = fixture.corpus.map(draftOf);

async function benchSize(size: number) {
  const noise = realisticNoise(size, sources.prose, sources.others);
  const database = await createTestDatabase(`resolve-bench-${size}`);
  const file = databaseFilePath(database.url);
  const db = await createPrismaClient(database.url);
  try {
    const repos = createRepositories(db);
    const emptyBytes = onDisk(file);
    const importStarted = performance.now();
    await repos.cfbs.import(noise.slice(0, size / 2));
    await repos.cfbs.import(corpus);
    await repos.cfbs.import(noise.slice(size / 2));
    const importMs = performance.now() - importStarted;
    const buildStarted = performance.now();
    await repos.cfbs.index.sync();
    const buildMs = performance.now() - buildStarted;
    const knowledge = { candidates: repos.cfbs.candidates, candidatesByIds: repos.cfbs.index.candidatesByIds };

    const decisions: Record<TResolveDecisionKind, number> = { update: 0, review: 0, create: 0, merge: 0 };
    const once = async (p: TResolveProposal) => {
      const t0 = performance.now();
      const candidates = await resolveCandidates(knowledge, p, CANDIDATE_LIMIT);
      const t1 = performance.now();
      const outcome = resolveOutcome(p, candidates);
      const t2 = performance.now();
      return { total: t2 - t0, candidates: t1 - t0, score: t2 - t1, decision: outcome.decision };
    };
    const cold: number[] = [];
    for (const p of proposals) cold.push((await once(p)).total);
    for (let i = 0; i < WARMUP_RUNS; i++) await once(proposals[i % proposals.length] as TResolveProposal);
    const timed: { total: number; candidates: number; score: number }[] = [];
    for (let i = 0; i < RUNS; i++) {
      const r = await once(proposals[i % proposals.length] as TResolveProposal);
      timed.push(r);
      decisions[r.decision] += 1;
    }
    await db.$disconnect(); // closes the last connection: SQLite checkpoints the WAL into the file
    const fullBytes = onDisk(file);
    return {
      cfbs: size + corpus.length,
      import_ms: Math.round(importMs),
      index_build_ms: Math.round(buildMs),
      runs: RUNS,
      proposals: proposals.length,
      cold_ms: stats(cold),
      resolve_ms: stats(timed.map((t) => t.total)),
      parts_ms: {
        candidates: stats(timed.map((t) => t.candidates)),
        score_and_decide: stats(timed.map((t) => t.score)),
      },
      decisions,
      db_growth_mb: mb(fullBytes - emptyBytes),
      bytes_per_cfb: Math.round((fullBytes - emptyBytes) / (size + corpus.length)),
    };
  } finally {
    await db.$disconnect();
    database.cleanup();
  }
}

const cpus = os.cpus();
const machine = { cpus: cpus.length, model: cpus[0]?.model ?? "unknown", node: process.version };
console.log(`machine: ${machine.cpus} × ${machine.model}, Node ${machine.node}`);
const results = [];
for (const size of SIZES) {
  const r = await benchSize(size);
  results.push(r);
  console.log(
    `\n${r.cfbs.toLocaleString("en-US")} CFBs: import ${(r.import_ms / 1000).toFixed(1)} s, index built in ` +
      `${(r.index_build_ms / 1000).toFixed(1)} s, database +${r.db_growth_mb} MB`,
  );
  console.log(`  cold (each proposal's first resolve): p50 ${r.cold_ms.p50} ms, p99 ${r.cold_ms.p99} ms`);
  console.log(
    `  resolve (${r.runs} runs, ${r.proposals} proposals): p50 ${r.resolve_ms.p50} ms, p95 ${r.resolve_ms.p95} ms, ` +
      `p99 ${r.resolve_ms.p99} ms, max ${r.resolve_ms.max} ms`,
  );
  console.log(
    `  parts p50/p99: candidates ${r.parts_ms.candidates.p50}/${r.parts_ms.candidates.p99}, ` +
      `score + decide ${r.parts_ms.score_and_decide.p50}/${r.parts_ms.score_and_decide.p99} ms; decisions ${JSON.stringify(r.decisions)}`,
  );
  const met = r.resolve_ms.p50 <= TARGET.p50 && r.resolve_ms.p99 <= TARGET.p99;
  console.log(`  target p50 ≤ ${TARGET.p50} ms, p99 ≤ ${TARGET.p99} ms: ${met ? "met" : "MISSED"}`);
}
const out = resultsPath("resolve.json");
writeFileSync(
  out,
  `${JSON.stringify({ when: new Date().toISOString(), machine, target_ms: TARGET, sizes: results }, null, 2)}\n`,
);
console.log(`\nwritten to ${path.relative(process.cwd(), out)}`);
