// Evaluation of Umbra resolve (seed 001 §6) on a labelled set: bench/fixtures/resolve-eval.json
// (a ~70-CFB team knowledge base and ~190 proposals labelled update / create / review / merge by
// what a careful reviewer would want, split into a tuning half and a held-out half). Each size
// runs the held-out half (the figure reported) and the tuning half, inside 0, 10k and 100k noise
// CFBs written with the set's own vocabulary, in lexical mode and, with --embedder, hybrid mode.
// Prints accuracy per class and category, the confusion matrix, harmful outcomes, latency and
// the held-out misses. A report: it always exits 0.
// Run: `pnpm bench:resolve-eval` (--sizes 0,10000,100000, --splits holdout,tune, --fixture FILE,
// --local for hybrid with the embedded sentence model, or --embedder URL
// --embedder-model NAME for hybrid, --misses to list misses). Writes bench/results/resolve-eval.json
// (resolve-eval-<set>.json for another --fixture).
import { writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { RESOLVE_DECISIONS } from "@solserver/contracts";
import { createOpenAICompatibleEmbeddings, openSemanticSearch } from "@solserver/control-plane";
import { cachedLocalEmbeddings } from "./lib/cached-embeddings";
import { benchDatabase, resultsFile } from "./lib/results-file";
import {
  DEFAULT_FIXTURE,
  runEvaluation,
  type TCaseResult,
  type TEvalOptions,
  type TEvalSplit,
  type TEvaluation,
} from "./resolve-eval-runner";

const TARGET = { lexical: 0.9, hybrid: 0.95 };

const { values } = parseArgs({
  options: {
    fixture: { type: "string", default: DEFAULT_FIXTURE },
    sizes: { type: "string", default: "0,10000,100000" },
    splits: { type: "string", default: "holdout,tune" },
    embedder: { type: "string" },
    // Hybrid mode with the embedded sentence model (the product's default).
    local: { type: "boolean", default: false },
    "embedder-model": { type: "string", default: "wink-sg-100d" },
    misses: { type: "boolean", default: false },
    top: { type: "string", default: "3" },
  },
});
const SIZES = values.sizes.split(",").map((s) => Number(s.trim()));
const SPLITS = values.splits.split(",").map((s) => s.trim()) as TEvalSplit[];
const TOP = Number(values.top);
if (SIZES.some((n) => !Number.isInteger(n) || n < 0 || n > 1_000_000)) {
  console.error("error: --sizes must be comma-separated integers in [0, 1000000]");
  process.exit(2);
}
if (SPLITS.some((s) => s !== "tune" && s !== "holdout")) {
  console.error("error: --splits must list tune and/or holdout");
  process.exit(2);
}
if (!Number.isInteger(TOP) || TOP < 1 || TOP > 10) {
  console.error("error: --top must be an integer in [1, 10]");
  process.exit(2);
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const f2 = (x: number | null) => (x === null ? "  - " : x.toFixed(2));

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
  const harm = r.harmful ? " HARMFUL" : r.wrong_target ? " (wrong target)" : "";
  const lines = [`  ✗ ${r.id} (${r.category}): expected ${want}, got ${got}${harm}`];
  for (const s of r.top) {
    const c = s.components;
    lines.push(
      `      ${s.score.toFixed(4)}  ${s.key.padEnd(22)} text ${f2(c.text_similarity)}  tag ${f2(c.tag_overlap)}  ` +
        `entity ${f2(c.entity_overlap)}  title ${f2(c.title_similarity)}  new ${f2(c.new_share)}` +
        `${c.semantic_similarity === null ? "" : `  cos ${c.semantic_similarity.toFixed(2)}`} ${s.flags.join(" ")}`,
    );
  }
  if (r.top.length === 0) lines.push("      (no candidates)");
  lines.push(`      reasons: ${r.reason_codes.join(", ")}`);
  return lines.join("\n");
}

function report(e: TEvaluation, mode: string): void {
  console.log(
    `\n== ${mode}, ${e.split}, ${e.corpus} CFBs + ${e.noise.toLocaleString("en-US")} noise: ` +
      `${pct(e.accuracy)} (${e.correct}/${e.cases}), harmful ${e.harmful}, ` +
      `resolve p50 ${e.latency.p50} ms p99 ${e.latency.p99} ms`,
  );
  console.log(
    `   per class: ${RESOLVE_DECISIONS.map((d) => `${d} ${e.perClass[d].correct}/${e.perClass[d].total}`).join(", ")}`,
  );
  console.log(
    `   per category: ${Object.entries(e.perCategory)
      .map(([c, t]) => `${c} ${t.correct}/${t.total}`)
      .join(", ")}`,
  );
  console.log(`   confusion (rows expected, columns actual: ${RESOLVE_DECISIONS.join(" ")}):`);
  for (const x of RESOLVE_DECISIONS)
    console.log(`     ${x.padEnd(7)} ${RESOLVE_DECISIONS.map((a) => String(e.confusion[x][a]).padStart(4)).join("")}`);
  if (values.misses || e.split === "holdout") for (const m of e.misses) console.log(describe(m));
}

const modes: { mode: "lexical" | "hybrid"; semantic?: TEvalOptions["semantic"] }[] = [{ mode: "lexical" }];
if (values.embedder || values.local) {
  const provider = values.local
    ? cachedLocalEmbeddings()
    : createOpenAICompatibleEmbeddings({ baseUrl: values.embedder as string, model: values["embedder-model"] });
  modes.push({
    mode: "hybrid",
    semantic: async (repos) => {
      const semantic = await openSemanticSearch(repos, provider);
      await semantic.sync((line: string) => console.log(`   ${line}`));
      return semantic.search;
    },
  });
}

const runs: Record<string, unknown>[] = [];
for (const size of SIZES) {
  for (const { mode, semantic } of modes) {
    for (const split of SPLITS) {
      const e = await runEvaluation({
        fixture: values.fixture,
        noise: size,
        split,
        topScores: TOP,
        semantic,
        progress: (line) => console.log(`   ${line}`),
      });
      report(e, mode);
      runs.push({
        mode,
        split,
        noise: size,
        corpus: e.corpus,
        cases: e.cases,
        correct: e.correct,
        accuracy: Math.round(e.accuracy * 10_000) / 10_000,
        harmful: e.harmful,
        target: TARGET[mode],
        met: split === "holdout" ? e.accuracy >= TARGET[mode] && e.harmful === 0 : null,
        latency_ms: e.latency,
        per_class: e.perClass,
        per_category: e.perCategory,
        confusion: e.confusion,
        misses: e.misses.map(({ terms: _terms, ...m }) => m),
      });
    }
  }
}

const set = path.basename(values.fixture, ".json");
const out = resultsFile(set === "resolve-eval" ? set : `resolve-eval-${set}`);
writeFileSync(
  out,
  `${JSON.stringify({ when: new Date().toISOString(), node: process.version, database: benchDatabase(), fixture: path.relative(process.cwd(), values.fixture), runs }, null, 2)}\n`,
);
console.log(`\nwritten to ${path.relative(process.cwd(), out)}`);
