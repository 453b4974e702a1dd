// Benchmark (issue 17): the cost of following a streamed answer, by answer length. A streamed
// envelope goes through the two pieces a streamed turn runs on every chunk the model server
// sends: the incremental JSON follower (assistant_text so far) and the stream guard (word
// boundary hold-back plus the PII scan of what is about to be released). Both must be linear in
// the answer's length, and a runaway answer must cost no more than one at the 20,000-character
// limit. Shapes: realistic prose (support-answer vocabulary with numbers), one unbroken run
// without whitespace (the worst case for finding a word boundary), and prose ending in a value
// that keeps looking like an e-mail address while it grows (the guard holds it back and must not
// rescan it whole on every chunk). Chunk sizes: 1 character (the worst a server can do), 8 and 64.
// Linearity = cost per character at the longest length / cost per character at the shortest:
// ~1 is linear, a quadratic follower would show ~8 for 2,500 → 20,000.
// Run: `pnpm bench:stream` (--runs N, default 5: the median run is reported).
// Writes bench/results/stream.json.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { OUTPUT_LIMITS, ZGateConfig } from "@solserver/contracts";
import { assistantTextStream, createStreamGuard } from "@solserver/control-plane/testing";
import { prng } from "./lib/random";
import { resultsPath } from "./lib/results-file";

const { values } = parseArgs({ options: { runs: { type: "string", default: "5" } } });
const RUNS = Number(values.runs);
if (!Number.isInteger(RUNS) || RUNS < 1 || RUNS > 100) {
  console.error("error: --runs must be an integer in [1, 100]");
  process.exit(2);
}

const LENGTHS = [2_500, 5_000, 10_000, OUTPUT_LIMITS.assistantText];
/** A runaway answer, ten times the limit: followed only up to the limit. */
const RUNAWAY = 10 * OUTPUT_LIMITS.assistantText;
const CHUNKS = [1, 8, 64];

const random = prng(0x5e7a);
/** The gate as shipped: every PII type enforced, nothing allowlisted. */
const PII = ZGateConfig.parse({}).pii;
const WORDS = (
  "the pump fuse breaker panel water heater furnace slideout awning battery inverter converter " +
  "check valve pressure switch relay ground wire terminal voltage amps reset replace inspect " +
  "after before under behind then first next you should will can may not if it is on off"
).split(" ");
function prose(length: number): string {
  let out = "";
  while (out.length < length) {
    const n = 6 + Math.floor(random() * 12);
    const words = Array.from({ length: n }, () =>
      random() < 0.08
        ? `${Math.floor(random() * 120)}${random() < 0.5 ? " V" : " A"}`
        : WORDS[Math.floor(random() * WORDS.length)],
    );
    out += `${words.join(" ")}. `;
  }
  return out.slice(0, length);
}

const SHAPES: Record<string, (length: number) => string> = {
  prose,
  "unbroken run": (length) => "x".repeat(length),
  "growing address": (length) =>
    `${prose(Math.floor(length / 2))} owner.${"a".repeat(Math.ceil(length / 2) - 20)}@example`,
};

/** Feeds the envelope JSON of `text` in `chunk`-character pieces; the time taken, in ms. */
function follow(text: string, chunk: number): { ms: number; released: number } {
  const json = JSON.stringify({ assistant_text: text, meta: { modeLabel: "System" } });
  let released = 0;
  const guard = createStreamGuard((event) => {
    if (event.type === "delta") released += event.text.length;
  }, PII);
  const started = performance.now();
  const stream = assistantTextStream((piece) => guard.onText({ n: 1, piece }));
  for (let at = 0; at < json.length; at += chunk) stream.write(json.slice(at, at + chunk));
  return { ms: performance.now() - started, released };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

type TRow = { shape: string; chunk: number; length: number; ms: number; ns_per_char: number; released: number };
const rows: TRow[] = [];
const linearity: { shape: string; chunk: number; ratio: number; runaway_ms: number; limit_ms: number }[] = [];
for (const [shape, make] of Object.entries(SHAPES)) {
  for (const chunk of CHUNKS) {
    const timed = (length: number) => {
      const text = make(length);
      follow(text, chunk); // warm-up
      const runs = Array.from({ length: RUNS }, () => follow(text, chunk));
      const ms = median(runs.map((r) => r.ms));
      const row = {
        shape,
        chunk,
        length,
        ms: Number(ms.toFixed(2)),
        ns_per_char: Math.round((ms * 1e6) / Math.min(length, OUTPUT_LIMITS.assistantText)),
        released: runs[0]?.released ?? 0,
      };
      rows.push(row);
      console.log(
        `${shape.padEnd(16)} chunk ${String(chunk).padStart(2)}  ${String(length).padStart(6)} chars  ${row.ms.toFixed(2).padStart(8)} ms  ${String(row.ns_per_char).padStart(6)} ns/char  released ${row.released}`,
      );
      return row;
    };
    const measured = [...LENGTHS, RUNAWAY].map(timed);
    const first = measured[0] as TRow;
    const limit = measured[LENGTHS.length - 1] as TRow;
    const runaway = measured[LENGTHS.length] as TRow;
    linearity.push({
      shape,
      chunk,
      ratio: Number((limit.ns_per_char / Math.max(1, first.ns_per_char)).toFixed(2)),
      runaway_ms: runaway.ms,
      limit_ms: limit.ms,
    });
  }
}

console.log("\nlinearity (ns/char at 20,000 ÷ ns/char at 2,500; 1 = linear, ~8 = quadratic):");
for (const l of linearity) {
  console.log(
    `  ${l.shape.padEnd(16)} chunk ${String(l.chunk).padStart(2)}: ${l.ratio.toFixed(2)}   runaway ${RUNAWAY} chars ${l.runaway_ms} ms vs ${l.limit_ms} ms at the limit`,
  );
}
const result = { date: new Date().toISOString(), node: process.version, runs: RUNS, rows, linearity };
const out = resultsPath("stream.json");
writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
console.log(`written to ${path.relative(process.cwd(), out)}`);
