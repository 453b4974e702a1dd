// Evaluation of the selector step's router (docs/routing.md, ## Evaluation set) on
// bench/fixtures/routing-eval.json: messages typed the way people type, each labelled with the
// domain a person would expect, split into a tuning half (odd ids) and a held-out half (even ids).
// Prints the accuracy of each split per expected domain and per category, the confusion matrix
// and the misses of the tuning split (--misses holdout to list the held-out ones too: look at
// them only after tuning is done). A report: it always exits 0.
// Run: `pnpm bench:routing` (--config FILE to evaluate an operator's routing config instead of the
// shipped one, --splits tune while tuning, --fixture FILE). Writes bench/results/routing-eval.json.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { loadServerEnv } from "@solserver/control-plane";
import {
  DEFAULT_ROUTING_FIXTURE,
  loadRoutingFixture,
  runRoutingEvaluation,
  type TRoutingCaseResult,
  type TRoutingEvaluation,
  type TRoutingSplit,
} from "./routing-eval-runner";

const TARGET = 0.95;

const { values } = parseArgs({
  options: {
    fixture: { type: "string", default: DEFAULT_ROUTING_FIXTURE },
    config: { type: "string" },
    misses: { type: "string", default: "tune" },
    splits: { type: "string", default: "holdout,tune" },
    rounds: { type: "string" },
  },
});
const SPLITS = values.splits.split(",").map((s) => s.trim()) as TRoutingSplit[];
if (SPLITS.length === 0 || SPLITS.some((s) => s !== "tune" && s !== "holdout")) {
  console.error("error: --splits must list tune and/or holdout");
  process.exit(2);
}
// "tune" lists the misses of every round of the tune split, "holdout:1" those of round 1's held-out half.
const listMisses = new Set(values.misses.split(",").map((s) => s.trim()));

// The routing config as the server would load it: SOLSERVER_ROUTING_CONFIG's file, or the shipped one.
const routing = loadServerEnv({
  BETTER_AUTH_SECRET: "bench-routing-eval-not-a-secret-000000000",
  ...(values.config ? { SOLSERVER_ROUTING_CONFIG: path.resolve(values.config) } : {}),
}).routing;
const fixture = loadRoutingFixture(values.fixture);
const ALL_ROUNDS = [...new Set(fixture.cases.map((c) => c.round))].sort((a, b) => a - b);
const ROUNDS = values.rounds ? values.rounds.split(",").map((r) => Number(r.trim())) : ALL_ROUNDS;
if (ROUNDS.some((r) => !ALL_ROUNDS.includes(r))) {
  console.error(`error: --rounds must list rounds of the fixture (${ALL_ROUNDS.join(", ")})`);
  process.exit(2);
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

function describe(m: TRoutingCaseResult): string {
  const scores = m.scores.map((s) => `${s.domain} ${s.score} [${s.hits.join(", ")}]`).join("; ");
  return `  ✗ ${m.id} (${m.categories.join(", ")}): expected ${m.expected}, got ${m.actual}  ${JSON.stringify(m.message)}\n      ${scores || "(nothing scored)"}`;
}

const nameOf = (e: TRoutingEvaluation) =>
  e.round === null ? `${e.split}, all rounds` : `${e.split}, round ${e.round}`;

function report(e: TRoutingEvaluation): void {
  const verdict = e.split === "holdout" ? (e.accuracy >= TARGET ? " (target met)" : " (below target)") : "";
  console.log(`\n== ${nameOf(e)}: ${pct(e.accuracy)} (${e.correct}/${e.cases}), target ≥ ${pct(TARGET)}${verdict}`);
  console.log(
    `   per domain: ${Object.entries(e.perDomain)
      .map(([d, t]) => `${d} ${t.correct}/${t.total}`)
      .join(", ")}`,
  );
  console.log(
    `   per category: ${Object.entries(e.perCategory)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([c, t]) => `${c} ${t.correct}/${t.total}`)
      .join(", ")}`,
  );
  console.log(`   confusion (rows expected, columns actual: ${fixture.domains.join(" ")}):`);
  for (const x of fixture.domains)
    console.log(
      `     ${x.padEnd(10)} ${fixture.domains.map((a) => String(e.confusion[x]?.[a] ?? 0).padStart(5)).join("")}`,
    );
  const key = e.round === null ? e.split : `${e.split}:${e.round}`;
  const listed =
    e.round === null ? listMisses.has(e.split) && ROUNDS.length === 1 : listMisses.has(e.split) || listMisses.has(key);
  if (listed) for (const m of e.misses) console.log(describe(m));
  else if (e.misses.length > 0 && e.round !== null)
    console.log(`   ${e.misses.length} miss(es) not listed (--misses ${key})`);
}

// Each split round by round, then all the rounds given together.
const selections = SPLITS.flatMap((split) => [
  ...ROUNDS.map((round) => ({ split, round })),
  ...(ROUNDS.length > 1 ? [{ split, round: null }] : []),
]);
const runs = selections.map(({ split, round }) => {
  const e = runRoutingEvaluation(routing, split, fixture, round);
  report(e);
  return {
    split,
    round,
    cases: e.cases,
    correct: e.correct,
    accuracy: Math.round(e.accuracy * 10_000) / 10_000,
    target: TARGET,
    met: split === "holdout" ? e.accuracy >= TARGET : null,
    per_domain: e.perDomain,
    per_category: e.perCategory,
    confusion: e.confusion,
    misses: e.misses,
  };
});

const out = path.join(import.meta.dirname, "results", "routing-eval.json");
writeFileSync(
  out,
  `${JSON.stringify(
    {
      when: new Date().toISOString(),
      node: process.version,
      fixture: path.relative(process.cwd(), values.fixture),
      config: values.config ?? "shipped (packages/control-plane/src/routing/default-routing.ts)",
      runs,
    },
    null,
    2,
  )}\n`,
);
console.log(`\nwritten to ${path.relative(process.cwd(), out)}`);
