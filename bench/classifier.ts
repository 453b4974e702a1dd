// Benchmark: decisions per second of the breakpoint classifier (decideBreakpointAction) alone,
// over a pre-generated mix of inputs: short acks, ordinary and long messages, long ack-only
// messages (scanned to the end), signal combinations and pressure/drift flags.
// Run: `pnpm bench:classifier` (option: --seconds N, default 3). Writes bench/results/classifier.json.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { ThreadMementoSignalKind } from "@solserver/contracts";
import { type BreakpointDecision, type BreakpointSignalKind, decideBreakpointAction } from "@solserver/engine";
import { resultsPath } from "./lib/results-file";

const { values } = parseArgs({ options: { seconds: { type: "string", default: "3" } } });
const SECONDS = Number(values.seconds);
if (!Number.isFinite(SECONDS) || SECONDS <= 0 || SECONDS > 600) {
  console.error("error: --seconds must be a number in (0, 600]");
  process.exit(2);
}

type Args = Parameters<typeof decideBreakpointAction>[0];

// Deterministic PRNG (mulberry32) so every run measures the same inputs.
let state = 0x5eed;
function random(): number {
  state = (state + 0x6d2b79f5) | 0;
  let t = Math.imul(state ^ (state >>> 15), 1 | state);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

const ACKS = ["ok", "ok thanks", "Sounds good!", "yep!", "kk", "Got it.", "all right", "thx", "cool, thanks!", "Okay"];
const SENTENCES = [
  "ok let's do it",
  "can you check why the deploy failed last night?",
  "Let's move the billing export to the nightly queue and drop the old cron.",
  "I'm not sure that's right, the cache keys include the tenant id.",
  "thanks, but what about the backups?",
];
const WORDS = ["billing", "search", "deploys", "alerts", "backups", "schemas", "queues", "caches", "tokens", "exports"];
const KINDS: readonly BreakpointSignalKind[] = ThreadMementoSignalKind.options;

function longMessage(): string {
  const words: string[] = [];
  const n = 80 + Math.floor(random() * 320);
  for (let i = 0; i < n; i++) words.push(pick(WORDS));
  return words.join(" ");
}
function longAck(): string {
  return Array.from({ length: 20 + Math.floor(random() * 80) }, () => pick(ACKS)).join(" ");
}
function message(): string {
  const r = random();
  if (r < 0.4) return pick(ACKS);
  if (r < 0.7) return pick(SENTENCES);
  if (r < 0.9) return longMessage();
  return longAck();
}
function input(): Args {
  const args: Args = { message: message() };
  const r = random();
  if (r < 0.5) {
    const n = 1 + Math.floor(random() * 4);
    args.signalKinds = Array.from({ length: n }, () => pick(KINDS));
  } else if (r < 0.6) {
    args.signalKinds = [];
  }
  if (random() < 0.1) args.contextWindowPressure = true;
  if (random() < 0.1) args.driftRisk = true;
  if (random() < 0.05) args.summaryChanged = true;
  return args;
}

const INPUTS: Args[] = Array.from({ length: 8192 }, input);
const mix: Record<BreakpointDecision, number> = { must: 0, should: 0, skip: 0 };
for (const args of INPUTS) mix[decideBreakpointAction(args)]++;

// Time batches of the whole input set; the clock is read once per batch, not per decision.
function run(ms: number): { n: number; elapsed: number; sink: number } {
  let n = 0;
  let sink = 0;
  const started = performance.now();
  let elapsed = 0;
  while (elapsed < ms) {
    for (let i = 0; i < INPUTS.length; i++) {
      if (decideBreakpointAction(INPUTS[i] as Args) === "skip") sink++;
    }
    n += INPUTS.length;
    elapsed = performance.now() - started;
  }
  return { n, elapsed, sink };
}

run(500); // warm-up: let the JIT optimise before measuring
const measured = run(SECONDS * 1000);
const result = {
  decisions_per_second: Math.round(measured.n / (measured.elapsed / 1000)),
  n: measured.n,
  node: process.version,
  when: new Date().toISOString(),
};
const out = resultsPath("classifier.json");
writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
console.log(
  `inputs: ${INPUTS.length} pre-generated (decisions: must ${mix.must}, should ${mix.should}, skip ${mix.skip})`,
);
console.log(
  `classifier: ${result.decisions_per_second.toLocaleString("en-US")} decisions/s ` +
    `(n=${result.n}, ${(measured.elapsed / 1000).toFixed(2)} s, skips seen ${measured.sink})`,
);
console.log(`written to ${path.relative(process.cwd(), out)}`);
