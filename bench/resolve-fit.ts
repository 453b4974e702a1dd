// Fits resolve's decision rule (weights, label gate, bands) on the tuning halves of the labelled
// sets, deterministically: every case is scored once with the embedded sentence model (hybrid,
// the product's default), then a grid of rules decides them all, and the rule with the best
// tuning accuracy (a harmful decision counts as three wrong ones) is written to
// packages/resolve/src/decision-rule.json. The held-out halves are then reported with the shipped
// and the fitted rule side by side. `pnpm bench:resolve-fit` (--report only reports).
// Sets: bench/fixtures/resolve-eval.json, resolve-blind.json, resolve-subjects.json.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import type { TDecisionRule } from "@solserver/contracts";
import { openSemanticSearch } from "@solserver/control-plane";
import { DECISION_RULE } from "@solserver/resolve";
import { cachedLocalEmbeddings } from "./lib/cached-embeddings";
import { fitCases, type TFitCase } from "./resolve-eval-runner";

const { values } = parseArgs({ options: { report: { type: "boolean", default: false } } });
const FIXTURES = ["resolve-eval.json", "resolve-blind.json", "resolve-subjects.json"].map((f) =>
  path.join(import.meta.dirname, "fixtures", f),
);
const RULE_FILE = path.join(import.meta.dirname, "..", "packages", "resolve", "src", "decision-rule.json");
const HARM = 3;

const provider = cachedLocalEmbeddings();
const semantic = async (repos: Parameters<typeof openSemanticSearch>[0]) => {
  const s = await openSemanticSearch(repos, provider);
  await s.sync();
  provider.save();
  return s.search;
};

const sets: { name: string; cases: TFitCase[] }[] = [];
for (const fixture of FIXTURES)
  sets.push({
    name: path.basename(fixture, ".json"),
    cases: await fitCases({ fixture, semantic, progress: (l) => console.log(l) }),
  });

function measure(cases: readonly TFitCase[], rule: TDecisionRule) {
  let correct = 0;
  let harmful = 0;
  for (const c of cases) {
    const r = c.correct(rule);
    if (r.correct) correct++;
    if (r.harmful) harmful++;
  }
  return { n: cases.length, correct, harmful, accuracy: cases.length ? correct / cases.length : 1 };
}

const split = (which: "tune" | "holdout") => sets.flatMap((s) => s.cases.filter((c) => c.split === which));
const objective = (rule: TDecisionRule) => {
  const m = measure(split("tune"), rule);
  return m.correct - HARM * m.harmful;
};

let best = { rule: DECISION_RULE, objective: objective(DECISION_RULE) };
if (!values.report) {
  const r2 = (x: number) => Math.round(x * 100) / 100;
  for (const text of [0.4, 0.5, 0.6, 0.7])
    for (const tag of [0.1, 0.2, 0.3])
      for (const entity of [0.1, 0.2, 0.3])
        for (const title of [0.05, 0.1])
          for (const labelGate of [0.3, 0.4, 0.5])
            for (const low of [0.45, 0.5, 0.55, 0.6])
              for (const high of [0.65, 0.7, 0.75, 0.8])
                for (const contradiction of [0.25, 0.3, 0.35, 0.4, 0.45]) {
                  if (low >= high) continue;
                  const rule: TDecisionRule = {
                    weights: { text, tag, entity, title },
                    labelGate,
                    bands: { ...DECISION_RULE.bands, low: r2(low), high: r2(high), contradiction },
                  };
                  const o = objective(rule);
                  if (o > best.objective) best = { rule, objective: o };
                }
  writeFileSync(RULE_FILE, `${JSON.stringify(best.rule, null, 2)}\n`);
  console.log(`fitted: ${JSON.stringify(best.rule)}; written to ${path.relative(process.cwd(), RULE_FILE)}`);
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
for (const which of ["tune", "holdout"] as const)
  for (const s of sets) {
    const cases = s.cases.filter((c) => c.split === which);
    const shipped = measure(cases, DECISION_RULE);
    const fitted = measure(cases, best.rule);
    console.log(
      `${which.padEnd(7)} ${s.name.padEnd(18)} shipped ${pct(shipped.accuracy)} (${shipped.harmful} harmful)  fitted ${pct(fitted.accuracy)} (${fitted.harmful} harmful)  n=${cases.length}`,
    );
  }
await provider.close();
