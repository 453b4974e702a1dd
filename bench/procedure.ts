// Benchmark: the context engine alone (procedure mode, issue 22): turns per second and latency
// percentiles of contextTurn on the shipped RV catalog with its Spanish and Russian translations,
// over the labelled technician conversations of the scenario suite (typos, slang, several findings
// per message, Spanish and Russian), and separately over 8,000-character pasted logs (the longest
// message the API accepts). Every conversation is replayed from a fresh case, so each turn pays
// what a real one does: language detection, matching against every language, the flow, the report.
// Run: `pnpm bench:procedure` (option: --rounds N, default 20). Writes bench/results/procedure.json.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { contextTurn, RV_SERVICE_CATALOG, startContext, type TContextState } from "@solserver/engine";
import { resultsPath } from "./lib/results-file";

const { values } = parseArgs({ options: { rounds: { type: "string", default: "20" } } });
const ROUNDS = Number(values.rounds);
if (!Number.isInteger(ROUNDS) || ROUNDS <= 0 || ROUNDS > 1000) {
  console.error("error: --rounds must be an integer in [1, 1000]");
  process.exit(2);
}

const DIR = path.join(import.meta.dirname, "../packages/control-plane/test/fixtures/procedure-scenarios");
type TScenario = { system: string; turns: { say: string }[] };
const scenarios = readdirSync(DIR)
  .filter((f) => f.endsWith(".json"))
  .flatMap((f) => JSON.parse(readFileSync(path.join(DIR, f), "utf8")) as TScenario[])
  .filter((s) => s.system !== "auto");

const catalog = RV_SERVICE_CATALOG;

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

function summary(ms: number[]) {
  const sorted = [...ms].sort((a, b) => a - b);
  const total = ms.reduce((sum, x) => sum + x, 0);
  return {
    turns: ms.length,
    turns_per_second: Math.round((ms.length / total) * 1000),
    p50_ms: Number(percentile(sorted, 50).toFixed(3)),
    p95_ms: Number(percentile(sorted, 95).toFixed(3)),
    p99_ms: Number(percentile(sorted, 99).toFixed(3)),
    max_ms: Number((sorted.at(-1) ?? 0).toFixed(3)),
  };
}

/** Replays every conversation `rounds` times; the time of each contextTurn call. */
function conversations(rounds: number): number[] {
  const times: number[] = [];
  for (let r = 0; r < rounds; r++)
    for (const scenario of scenarios) {
      let state: TContextState = startContext(catalog, scenario.system);
      for (const t of scenario.turns) {
        const t0 = performance.now();
        state = contextTurn(catalog, state, t.say).state;
        times.push(performance.now() - t0);
      }
    }
  return times;
}

/** An 8,000-character paste with the finding at its end, at the water pump's fuse step. */
function pastes(rounds: number): number[] {
  const line = "sync ok tablet 4 queue drained, 12 items uploaded to the portal at 10:41 by the front desk\n";
  const paste = `${line.repeat(Math.ceil(8000 / line.length))}`.slice(0, 8000 - 40);
  const message = `${paste}\nback to it: fuse is fine`;
  const start = contextTurn(catalog, startContext(catalog, "water_pump"), "water pump acting up").state;
  const times: number[] = [];
  for (let r = 0; r < rounds * 20; r++) {
    const t0 = performance.now();
    contextTurn(catalog, start, message);
    times.push(performance.now() - t0);
  }
  return times;
}

conversations(1); // warm up: catalog compilation and JIT
const result = {
  measured_at: new Date().toISOString(),
  node: process.version,
  data: `${scenarios.length} labelled technician conversations (${scenarios.reduce((n, s) => n + s.turns.length, 0)} messages; English, Spanish, Russian), ${ROUNDS} rounds; 8,000-character pastes`,
  conversations: summary(conversations(ROUNDS)),
  pastes_8000_chars: summary(pastes(ROUNDS)),
};
const file = resultsPath("procedure.json");
writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify(result, null, 2));
console.log(`written to ${path.relative(process.cwd(), file)}`);
