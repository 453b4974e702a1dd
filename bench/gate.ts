// Benchmark: the BreakPoint output gate (@solserver/gate), pure CPU, in-process.
// 1. evaluate() in lite mode on an 8 KB output (prose with numbers, dates, prices and one email):
//    p50 / p99 over --runs runs after a warm-up (target p99 <= 2 ms);
// 2. scanPii() throughput over --mb MB of the same kind of mixed text, in MB/s (target >= 20);
// 3. evaluate() in full mode on adversarial 100 KB outputs, one shape at a time (long almost-
//    emails, separator chains, digit runs ...): the worst shape (target <= 20 ms).
// Run: `pnpm bench:gate` (options: --runs N, default 2000; --mb N, default 10).
// Writes bench/results/gate.json.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { evaluate, scanPii } from "@solserver/gate";
import { ADVERSARIAL, ADVERSARIAL_SIZE, gateProse } from "./lib/gate-text";
import { resultsPath } from "./lib/results-file";

const { values } = parseArgs({
  options: { runs: { type: "string", default: "2000" }, mb: { type: "string", default: "10" } },
});
const RUNS = Number(values.runs);
const MB = Number(values.mb);
if (!Number.isInteger(RUNS) || RUNS < 100 || RUNS > 1_000_000) {
  console.error("error: --runs must be an integer in [100, 1000000]");
  process.exit(2);
}
if (!Number.isFinite(MB) || MB <= 0 || MB > 200) {
  console.error("error: --mb must be a number in (0, 200]");
  process.exit(2);
}

// Deterministic answer-like prose (bench/lib/gate-text.ts), seeded so every run measures the same inputs.
const { random, sentence } = gateProse(0x9a7e);

/** Mixed text of about `bytes` characters; one email per ~8 KB, occasional phone and card. */
function mixedText(bytes: number): string {
  const parts: string[] = [];
  let length = 0;
  let sinceEmail = 0;
  while (length < bytes) {
    let s = sentence();
    if (sinceEmail > 7_000) {
      s += " Write to support.team@example.com if it persists.";
      sinceEmail = 0;
    } else if (random() < 0.005) {
      s += " Call 415-555-0123 for urgent issues.";
    } else if (random() < 0.002) {
      s += " The card on file is 4111 1111 1111 1111.";
    }
    parts.push(s, random() < 0.2 ? "\n\n" : " ");
    length += s.length + 1;
    sinceEmail += s.length + 1;
  }
  // join() builds a flat string, like the JSON.parse'd outputs the gate sees in practice.
  return parts.join("").slice(0, bytes);
}

function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] as number;
}
const round3 = (x: number) => Math.round(x * 1000) / 1000;

// 1. Lite evaluate on an 8 KB output.
const output8k = `${mixedText(8 * 1024 - 60)} Reach me at jane.roe@example.com any time.`;
const baseline8k = { output: mixedText(7 * 1024), cost_usd: 0.0123, latency_ms: 900, model: "gpt-4.1-mini" };
const candidate8k = { output: output8k, cost_usd: 0.0131, latency_ms: 950, model: "gpt-4.1" };
const sample = evaluate({ baseline: baseline8k, candidate: candidate8k });
for (let i = 0; i < 500; i++) evaluate({ baseline: baseline8k, candidate: candidate8k }); // warm-up (JIT)
const times: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const started = performance.now();
  evaluate({ baseline: baseline8k, candidate: candidate8k });
  times.push(performance.now() - started);
}
times.sort((a, b) => a - b);
const lite = {
  output_chars: output8k.length,
  runs: RUNS,
  p50_ms: round3(percentile(times, 50)),
  p99_ms: round3(percentile(times, 99)),
  max_ms: round3(times[times.length - 1] as number),
  status: sample.status,
  reason_codes: sample.reason_codes,
};

// 2. PII scan throughput.
const bigText = mixedText(Math.round(MB * 1024 * 1024));
scanPii(bigText.slice(0, 1024 * 1024)); // warm-up
let matches = 0;
const scanRounds = 3;
const scanStarted = performance.now();
for (let r = 0; r < scanRounds; r++) matches = scanPii(bigText).length;
const scanMs = (performance.now() - scanStarted) / scanRounds;
const scan = {
  mb: round3(bigText.length / (1024 * 1024)),
  ms: round3(scanMs),
  mb_per_s: Math.round((bigText.length / (1024 * 1024) / (scanMs / 1000)) * 10) / 10,
  matches,
};

// 3. Adversarial 100 KB outputs through full-mode evaluate.
const fullConfig = {
  output_contract: {
    json_schema: { type: "object", required: ["answer"], properties: { answer: { type: "string" } } },
  },
  drift: { similarity: "char_ngram_jaccard" as const },
};
const advBaseline = { output: "A short, ordinary baseline answer.", cost_usd: 0.01, latency_ms: 800 };
const shapes: { shape: string; median_ms: number; max_ms: number }[] = [];
for (const [shape, output] of Object.entries(ADVERSARIAL)) {
  const candidate = { output: [output].join(""), cost_usd: 0.01, latency_ms: 800 };
  for (let i = 0; i < 3; i++) evaluate({ baseline: advBaseline, candidate, mode: "full", config: fullConfig });
  const runs: number[] = [];
  for (let i = 0; i < 15; i++) {
    const started = performance.now();
    evaluate({ baseline: advBaseline, candidate, mode: "full", config: fullConfig });
    runs.push(performance.now() - started);
  }
  runs.sort((a, b) => a - b);
  shapes.push({ shape, median_ms: round3(percentile(runs, 50)), max_ms: round3(runs[runs.length - 1] as number) });
}
const worst = shapes.reduce((a, b) => (b.median_ms > a.median_ms ? b : a));
const adversarial = {
  input_chars: ADVERSARIAL_SIZE,
  worst_shape: worst.shape,
  worst_median_ms: worst.median_ms,
  worst_single_run_ms: Math.max(...shapes.map((s) => s.max_ms)),
  shapes,
};

const result = {
  lite_evaluate_8kb: lite,
  pii_scan: scan,
  adversarial_full_evaluate: adversarial,
  targets: { lite_p99_ms: 2, scan_mb_per_s: 20, adversarial_ms: 20 },
  node: process.version,
  when: new Date().toISOString(),
};
const out = resultsPath("gate.json");
writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
console.log(
  `lite evaluate, ${lite.output_chars}-char output: p50 ${lite.p50_ms} ms, p99 ${lite.p99_ms} ms ` +
    `(n=${RUNS}, target p99 <= 2 ms; decision ${lite.status} ${lite.reason_codes.join(",")})`,
);
console.log(`PII scan: ${scan.mb_per_s} MB/s over ${scan.mb} MB (${scan.matches} matches; target >= 20 MB/s)`);
console.log(
  `adversarial 100 KB, full evaluate: worst shape "${worst.shape}" median ${worst.median_ms} ms, ` +
    `worst single run ${adversarial.worst_single_run_ms} ms (target <= 20 ms)`,
);
for (const s of shapes) console.log(`  ${s.shape.padEnd(28)} median ${s.median_ms} ms, max ${s.max_ms} ms`);
console.log(`written to ${path.relative(process.cwd(), out)}`);
