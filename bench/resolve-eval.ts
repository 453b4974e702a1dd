// Evaluation of Umbra resolve (seed 001 §6) on a labelled set: bench/fixtures/resolve-eval.json
// (a ~50-CFB team knowledge base and ~65 proposals labelled update / create / review / merge by
// what a careful reviewer would want). Prints accuracy overall, per expected decision and per
// category, the confusion matrix and every miss with its top scores; a report, so it always exits 0.
// Run: `pnpm bench:resolve-eval` (--fixture FILE, --top N scores per miss). Writes
// bench/results/resolve-eval.json.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { RESOLVE_DECISIONS } from "@solserver/contracts";
import { DEFAULT_FIXTURE, runEvaluation, type TCaseResult } from "./resolve-eval-runner";

const TARGET = 0.9;

const { values } = parseArgs({
  options: { fixture: { type: "string", default: DEFAULT_FIXTURE }, top: { type: "string", default: "3" } },
});
const TOP = Number(values.top);
if (!Number.isInteger(TOP) || TOP < 1 || TOP > 10) {
  console.error("error: --top must be an integer in [1, 10]");
  process.exit(2);
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const f2 = (x: number) => x.toFixed(2);

function describe(r: TCaseResult): string {
  const e = r.expected;
  const want = e.targets
    ? `${e.decision} [${e.targets.join(", ")}]`
    : e.target
      ? `${e.decision} ${e.target}`
      : e.decision;
  const a = r.actual;
  const got =
    a.decision === "merge" ? `merge [${a.merge.join(", ")}]` : a.target ? `${a.decision} ${a.target}` : a.decision;
  const lines = [`  ✗ ${r.id} (${r.category}): expected ${want}, got ${got}${r.wrong_target ? " (wrong target)" : ""}`];
  for (const s of r.top) {
    const c = s.components;
    lines.push(
      `      ${s.score.toFixed(4)}  ${s.key.padEnd(18)} bm25 ${f2(c.bm25_norm)}  tag ${f2(c.tag_overlap)}  ` +
        `entity ${f2(c.entity_overlap)}  title ${f2(c.title_similarity)}`,
    );
  }
  if (r.top.length === 0) lines.push("      (no candidates)");
  lines.push(`      terms: ${r.terms.join(" ")}`);
  lines.push(`      reasons: ${r.reason_codes.join(", ")}`);
  return lines.join("\n");
}

const evaluation = await runEvaluation({ fixture: values.fixture, topScores: TOP });
const { perClass, confusion } = evaluation;

console.log(
  `resolve evaluation: ${evaluation.cases} cases over ${evaluation.corpus} CFBs ` +
    `(${evaluation.ms.total.toFixed(0)} ms, import ${evaluation.ms.import.toFixed(0)} ms)`,
);
console.log(`accuracy: ${pct(evaluation.accuracy)} (${evaluation.correct}/${evaluation.cases})`);
console.log("\nper expected decision:");
for (const d of RESOLVE_DECISIONS) {
  const t = perClass[d];
  console.log(`  ${d.padEnd(8)} ${pct(t.accuracy).padStart(6)}  (${t.correct}/${t.total})`);
}
console.log("\nper category:");
for (const [cat, t] of Object.entries(evaluation.perCategory)) {
  console.log(`  ${cat.padEnd(16)} ${pct(t.accuracy).padStart(6)}  (${t.correct}/${t.total})`);
}
console.log("\nconfusion (rows: expected, columns: actual; a wrong target counts on the diagonal):");
console.log(`  ${"".padEnd(10)}${RESOLVE_DECISIONS.map((d) => d.padStart(8)).join("")}`);
for (const e of RESOLVE_DECISIONS) {
  console.log(`  ${e.padEnd(10)}${RESOLVE_DECISIONS.map((a) => String(confusion[e][a]).padStart(8)).join("")}`);
}
console.log(`\nmisses (${evaluation.misses.length}):`);
for (const m of evaluation.misses) console.log(describe(m));
if (evaluation.misses.length === 0) console.log("  none");

const result = {
  when: new Date().toISOString(),
  node: process.version,
  fixture: path.relative(process.cwd(), values.fixture),
  corpus: evaluation.corpus,
  cases: evaluation.cases,
  correct: evaluation.correct,
  accuracy: Math.round(evaluation.accuracy * 10_000) / 10_000,
  target: TARGET,
  met: evaluation.accuracy >= TARGET,
  per_class: perClass,
  per_category: evaluation.perCategory,
  confusion,
  misses: evaluation.misses,
  results: evaluation.results.map(({ terms: _terms, ...r }) => ({ ...r, ms: Math.round(r.ms * 100) / 100 })),
};
const out = path.join(import.meta.dirname, "results", "resolve-eval.json");
writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
console.log(
  `\n${result.met ? "PASS" : "FAIL"}: accuracy ${pct(evaluation.accuracy)} ${result.met ? "≥" : "<"} ${pct(TARGET)} target`,
);
console.log(`written to ${path.relative(process.cwd(), out)}`);
