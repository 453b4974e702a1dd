// Benchmark (issues 4, 16, 32): the server's own cost of one turn, the model excluded, on long
// threads, at several knowledge base sizes: the 5 demo CFBs alone, then inside 10k and 100k noise
// CFBs written with a realistic vocabulary (lib/realistic-corpus.ts), with semantic matching on
// (the embedded sentence model: its vectors for every CFB, a vector search per turn) and off.
//
// The sizes are interleaved, turn by turn, so a busy machine slows each alike: measured one after
// another, wall time read flat although the cost grows with size. Per turn it records
// - CPU: the process's CPU time (process.cpuUsage) minus the model's time (the offline model runs
//   on this thread) and minus the sentence model's (its worker thread is busy exactly while a turn
//   waits for the message's vector);
// - wall time, the same two taken out;
// - the event loop's delay while turns run (perf_hooks.monitorEventLoopDelay), what a health probe
//   or another request waits.
// Then the background embedding: CFBs embedded per second by the sentence model on texts it has
// not seen, and the memory the model adds to a process.
// Run: `pnpm bench:overhead` (--turns N per size, --sizes 5,10000,100000). Embeddings are cached in
// bench/.cache; beyond 10,000 distinct texts, CFBs borrow one of their vectors (below). Writes
// bench/results/turn-overhead.json.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { parseArgs } from "node:util";
import {
  createLocalEmbeddings,
  createOfflineModel,
  DEMO_CFBS,
  respondToTurn,
  type TEmbeddingsProvider,
  type TModelProvider,
} from "@solserver/control-plane";
import { openTestControlPlane } from "@solserver/control-plane/testing";
import { cachedLocalEmbeddings } from "./lib/cached-embeddings";
import { realisticNoise } from "./lib/realistic-corpus";
import { benchDatabase, resultsFile } from "./lib/results-file";
import { loadFixture, noiseSources } from "./resolve-eval-runner";

const { values } = parseArgs({
  options: { turns: { type: "string", default: "400" }, sizes: { type: "string", default: "5,10000,100000" } },
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

/** Time spent in the model and in the sentence model during the turn under way. */
const spent = { modelMs: 0, embedMs: 0 };

const offline = createOfflineModel();
// The output gate's and the claim check's judge runs inside generate(); its time is server work,
// so it is taken out of the model's time and counts as overhead.
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
      spent.modelMs += performance.now() - started - judgeMs;
    }
  },
};

const cache = cachedLocalEmbeddings();
/**
 * Stored knowledge beyond POOL distinct texts borrows the vector of one of them (by a hash of its
 * text): embedding 100,000 CFBs takes ~55 min on this machine, and what a turn's search costs
 * does not depend on which vectors the CFBs hold. A turn's message is embedded for real.
 */
const POOL = 10_000;
const pool: string[] = [];
const timedEmbeddings: TEmbeddingsProvider = {
  model: cache.model,
  async embed(texts, opts) {
    const started = performance.now();
    try {
      if (!opts?.background) return await cache.embed(texts, opts);
      const chosen = texts.map((t) => {
        if (pool.length < POOL) pool.push(t);
        let h = 0;
        for (let i = 0; i < t.length; i++) h = (h * 31 + t.charCodeAt(i)) >>> 0;
        return pool.length < POOL ? t : (pool[h % POOL] as string);
      });
      return await cache.embed(chosen, opts);
    } finally {
      if (!opts?.background) spent.embedMs += performance.now() - started;
    }
  },
};

const fixture = loadFixture();
const sources = noiseSources(fixture);
const MESSAGES = [
  "We decided to rotate credentials every month.",
  "How are CFBs injected into prompts?",
  "ok thanks",
  "What is the budget for exports?",
  "which LLM is behind the bot?",
];

function percentile(sorted: readonly number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round((sorted[i] ?? 0) * 100) / 100;
}

async function open(size: number, semantic: boolean) {
  const opened = await openTestControlPlane({
    label: "overhead",
    model: timedModel,
    limits: { chatTurnsPerMinute: 1_000_000 },
    ...(semantic ? { embeddings: timedEmbeddings } : {}),
  });
  for (const draft of DEMO_CFBS) await opened.repos.cfbs.create(draft);
  const noise = realisticNoise(size - DEMO_CFBS.length, sources.prose, sources.others);
  for (let i = 0; i < noise.length; i += 5000) await opened.repos.cfbs.import(noise.slice(i, i + 5000));
  const started = performance.now();
  await opened.repos.cfbs.index.sync();
  const indexMs = Math.round(performance.now() - started);
  if (semantic) {
    await opened.deps.semantic?.syncNow((line) => console.log(`  ${size.toLocaleString("en-US")} CFBs: ${line}`));
    cache.save();
  }
  return {
    size,
    semantic,
    opened,
    owner: await opened.account("user"),
    indexMs,
    cpu: [] as number[],
    wall: [] as number[],
  };
}

const runs = [];
for (const semantic of [true, false]) for (const size of SIZES) runs.push(await open(size, semantic));

const lag = monitorEventLoopDelay({ resolution: 1 });
lag.enable();
for (let i = 0; i < TURNS; i++) {
  for (const run of runs) {
    spent.modelMs = 0;
    spent.embedMs = 0;
    const cpu = process.cpuUsage();
    const started = performance.now();
    await respondToTurn(run.opened.as(run.owner), {
      request_id: `o-${i}`,
      thread_id: `bench-${run.size}`,
      message: MESSAGES[i % MESSAGES.length] as string,
    });
    const wall = performance.now() - started;
    const used = process.cpuUsage(cpu);
    run.wall.push(wall - spent.modelMs - spent.embedMs);
    run.cpu.push((used.user + used.system) / 1000 - spent.modelMs - spent.embedMs);
  }
  if ((i + 1) % 100 === 0) console.log(`  ${i + 1} turns at each size`);
}
lag.disable();

const sizes = runs.map((r) => {
  const cpu = [...r.cpu].sort((a, b) => a - b);
  const wall = [...r.wall].sort((a, b) => a - b);
  return {
    cfbs: r.size,
    semantic: r.semantic ? cache.model : "off",
    index_build_ms: r.indexMs,
    cpu_ms: { p50: percentile(cpu, 50), p99: percentile(cpu, 99) },
    wall_ms: { p50: percentile(wall, 50), p99: percentile(wall, 99) },
  };
});
for (const s of sizes)
  console.log(
    `${s.cfbs.toLocaleString("en-US").padStart(7)} CFBs, semantic ${s.semantic}: CPU p50 ${s.cpu_ms.p50} ms, p99 ${s.cpu_ms.p99} ms; ` +
      `wall p50 ${s.wall_ms.p50} ms, p99 ${s.wall_ms.p99} ms (index built in ${s.index_build_ms} ms)`,
  );
const eventLoop = { p50_ms: lag.percentile(50) / 1e6, p99_ms: lag.percentile(99) / 1e6, max_ms: lag.max / 1e6 };
console.log(`event loop delay while turns ran: p50 ${eventLoop.p50_ms} ms, p99 ${eventLoop.p99_ms} ms`);
for (const r of runs) await r.opened.close();

// The background embedding: texts the model has not seen (a fresh provider, no cache), in the
// batches semantic matching sends, and what the model adds to the process's memory.
const rssBefore = process.memoryUsage().rss;
const fresh = createLocalEmbeddings();
await fresh.embed(["load the model"]);
const rssLoaded = process.memoryUsage().rss;
const texts = realisticNoise(2000, sources.prose, sources.others, 0xbe1f).map((d) => `${d.title}\n${d.summary}`);
const started = performance.now();
for (let i = 0; i < texts.length; i += 16) await fresh.embed(texts.slice(i, i + 16), { background: true });
const perSecond = Math.round(texts.length / ((performance.now() - started) / 1000));
const model = {
  embedded_per_second: perSecond,
  rss_added_mb: Math.round((rssLoaded - rssBefore) / 1e6),
  rss_added_after_2000_mb: Math.round((process.memoryUsage().rss - rssBefore) / 1e6),
};
console.log(
  `background embedding: ${perSecond} CFBs/s; the model adds ${model.rss_added_mb} MB (${model.rss_added_after_2000_mb} MB after 2,000)`,
);
await fresh.close();
await cache.close();

const out = resultsFile("turn-overhead");
writeFileSync(
  out,
  `${JSON.stringify({ when: new Date().toISOString(), node: process.version, database: benchDatabase(), turns: TURNS, sizes, event_loop: eventLoop, model }, null, 2)}\n`,
);
console.log(`written to ${path.relative(process.cwd(), out)}`);
