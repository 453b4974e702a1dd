// Benchmark (issue 4, issue 16): server overhead of one turn, excluding the model, on a thread of
// 1,000 turns, in-process with the offline model, at several knowledge base sizes: the 5 demo
// CFBs alone, then inside 10k and 100k noise CFBs written with a realistic vocabulary (the
// resolve evaluation set's phrases and words, lib/realistic-corpus.ts). Overhead = the whole
// chat.respond call minus the time spent inside the model (the output gate counts as overhead).
// The candidate index is built before timing (its build time is reported apart).
// Run: `pnpm bench:overhead` (--turns N, --sizes 5,10000,100000). Writes bench/results/turn-overhead.json.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { createOfflineModel, DEMO_CFBS, respondToTurn, type TModelProvider } from "@solserver/control-plane";
import { openTestControlPlane } from "@solserver/control-plane/testing";
import { realisticNoise } from "./lib/realistic-corpus";
import { benchDatabase, resultsFile } from "./lib/results-file";
import { loadFixture, noiseSources } from "./resolve-eval-runner";

const { values } = parseArgs({
  options: { turns: { type: "string", default: "1000" }, sizes: { type: "string", default: "5,10000,100000" } },
});
const TURNS = Number(values.turns);
if (!Number.isInteger(TURNS) || TURNS < 10) {
  console.error("error: --turns must be an integer >= 10");
  process.exit(2);
}
const SIZES = values.sizes.split(",").map((s) => Number(s.trim()));
if (SIZES.some((n) => !Number.isInteger(n) || n < DEMO_CFBS.length || n > 1_000_000)) {
  console.error(`error: --sizes must be integers in [${DEMO_CFBS.length}, 1000000]`);
  process.exit(2);
}

const offline = createOfflineModel();
let modelMs = 0;
// The output gate's and the claim-map check's judge runs inside generate() (it judges each
// attempt, and may await a lookup); its time is server work, so it is taken out of the model's
// time and counts as overhead.
const timedModel: TModelProvider = {
  name: offline.name,
  async generate(input, options = {}) {
    let judgeMs = 0;
    const judge = options.judge;
    const timedOptions = judge
      ? {
          judge: async (candidate: Parameters<typeof judge>[0]) => {
            const started = performance.now();
            try {
              return await judge(candidate);
            } finally {
              judgeMs += performance.now() - started;
            }
          },
        }
      : {};
    const started = performance.now();
    try {
      return await offline.generate(input, timedOptions);
    } finally {
      modelMs = performance.now() - started - judgeMs;
    }
  },
};

function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round((sorted[i] as number) * 100) / 100;
}

const fixture = loadFixture();
const sources = noiseSources(fixture);

async function measure(size: number) {
  const opened = await openTestControlPlane({
    label: "overhead",
    model: timedModel,
    limits: { chatTurnsPerMinute: 1_000_000 },
  });
  try {
    for (const draft of DEMO_CFBS) await opened.repos.cfbs.create(draft);
    const noise = size - DEMO_CFBS.length;
    if (noise > 0) await opened.repos.cfbs.import(realisticNoise(noise, sources.prose, sources.others));
    const buildStarted = performance.now();
    await opened.repos.cfbs.index.sync();
    const buildMs = Math.round(performance.now() - buildStarted);
    const owner = await opened.account("user");
    const messages = [
      "We decided to rotate credentials every month.",
      "How are CFBs injected into prompts?",
      "ok thanks",
      "What is the budget for exports?",
    ];
    const overhead: number[] = [];
    for (let i = 0; i < TURNS; i++) {
      const started = performance.now();
      await respondToTurn(opened.as(owner), {
        request_id: `o-${i}`,
        thread_id: "bench-long",
        message: messages[i % messages.length] as string,
      });
      overhead.push(performance.now() - started - modelMs);
      if ((i + 1) % 250 === 0) process.stdout.write(`  ${size.toLocaleString("en-US")} CFBs: ${i + 1} turns\n`);
    }
    // The last 100 turns run on a thread that already has ~900 turns.
    const tail = overhead.slice(-100).sort((a, b) => a - b);
    const all = [...overhead].sort((a, b) => a - b);
    return {
      cfbs: size,
      index_build_ms: buildMs,
      overhead_ms_all: { p50: percentile(all, 50), p99: percentile(all, 99) },
      overhead_ms_last_100: { p50: percentile(tail, 50), p99: percentile(tail, 99) },
    };
  } finally {
    await opened.close();
  }
}

const sizes = [];
for (const size of SIZES) {
  const r = await measure(size);
  sizes.push(r);
  console.log(
    `${size.toLocaleString("en-US")} CFBs (index built in ${r.index_build_ms} ms): overhead p50 ${r.overhead_ms_all.p50} ms, ` +
      `p99 ${r.overhead_ms_all.p99} ms; last 100 turns p50 ${r.overhead_ms_last_100.p50} ms, p99 ${r.overhead_ms_last_100.p99} ms`,
  );
}
const result = {
  when: new Date().toISOString(),
  node: process.version,
  turns: TURNS,
  target_ms: { p50: 5, p99: 20 },
  sizes,
};
const out = resultsFile("turn-overhead");
writeFileSync(out, `${JSON.stringify({ database: benchDatabase(), ...result }, null, 2)}\n`);
console.log(`written to ${path.relative(process.cwd(), out)}`);
