// Benchmark (issue 4): server overhead of one turn, excluding the model, on a thread of 1,000
// turns, in-process with the offline model and the demo knowledge base. Overhead = the whole
// chat.respond call minus the time spent inside the model (the output gate counts as overhead).
// Run: `pnpm bench:overhead` (--turns N). Writes bench/results/turn-overhead.json.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { createOfflineModel, DEMO_CFBS, type TModelProvider } from "@solserver/control-plane";
import { openTestControlPlane } from "@solserver/control-plane/testing";

const { values } = parseArgs({ options: { turns: { type: "string", default: "1000" } } });
const TURNS = Number(values.turns);
if (!Number.isInteger(TURNS) || TURNS < 10) {
  console.error("error: --turns must be an integer >= 10");
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

const opened = await openTestControlPlane({
  label: "overhead",
  model: timedModel,
  limits: { chatTurnsPerMinute: 1_000_000 },
});
try {
  for (const draft of DEMO_CFBS) await opened.repos.cfbs.create(draft);
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
    await opened.controlPlane.chat.respond(owner, {
      request_id: `o-${i}`,
      thread_id: "bench-long",
      message: messages[i % messages.length] as string,
    });
    overhead.push(performance.now() - started - modelMs);
    if ((i + 1) % 250 === 0) process.stdout.write(`${i + 1} turns\n`);
  }
  // The last 100 turns run on a thread that already has ~900 turns.
  const tail = overhead.slice(-100).sort((a, b) => a - b);
  const all = [...overhead].sort((a, b) => a - b);
  const result = {
    when: new Date().toISOString(),
    node: process.version,
    turns: TURNS,
    cfbs: DEMO_CFBS.length,
    overhead_ms_all: { p50: percentile(all, 50), p99: percentile(all, 99) },
    overhead_ms_last_100: { p50: percentile(tail, 50), p99: percentile(tail, 99) },
  };
  const out = path.join(import.meta.dirname, "results", "turn-overhead.json");
  writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  console.log(
    `overhead, all ${TURNS} turns: p50 ${result.overhead_ms_all.p50} ms, p99 ${result.overhead_ms_all.p99} ms`,
  );
  console.log(
    `overhead, last 100 turns: p50 ${result.overhead_ms_last_100.p50} ms, p99 ${result.overhead_ms_last_100.p99} ms`,
  );
} finally {
  await opened.close();
}
