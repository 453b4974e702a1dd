// The router on messages typed the way people type (issue 34, docs/routing.md "Evaluation"):
// bench/fixtures/routing-eval.json and bench/fixtures/routing-blind.json (written blind to the
// router), each split into a tuning half and a held-out half. For each: accuracy per split, per
// domain and per category, the confusion matrix, and beside it in the same run the baseline the
// issue names: naive Bayes trained on the same examples. Prints the misses of the tuning halves
// only (--misses holdout lists the held-out ones: read them only when tuning is done).
// --sweep prints the tuning halves' accuracy at other min_confidence values (how the shipped one
// was chosen); --semantic adds the sentence model's vote (vectors cached in bench/.cache).
// Also measures the time to route one message (p50/p99) and to train the router.
// Run: `pnpm bench:routing` (--config FILE: an operator's routing config instead of the shipped
// one). A report: it always exits 0. Writes bench/results/routing-eval.json.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { loadServerEnv } from "@solserver/control-plane";
import { buildRouter, domainExamples, routeTurn, type TRouter } from "@solserver/engine";
import { cachedLocalEmbeddings } from "./lib/cached-embeddings";
import { naiveBayes } from "./lib/naive-bayes";
import { resultsPath } from "./lib/results-file";
import {
  loadRoutingFixture,
  ROUTING_FIXTURES,
  runRoutingEvaluation,
  type TRouteFn,
  type TRoutingEvaluation,
  type TRoutingSplit,
} from "./routing-eval-runner";

const { values } = parseArgs({
  options: {
    config: { type: "string" },
    misses: { type: "string", default: "tune" },
    sweep: { type: "boolean", default: false },
    semantic: { type: "boolean", default: false },
  },
});

// The routing config as the server would load it: SOLSERVER_ROUTING_CONFIG's file, or the shipped one.
const config = loadServerEnv({
  BETTER_AUTH_SECRET: "bench-routing-eval-not-a-secret-000000000",
  ...(values.config ? { SOLSERVER_ROUTING_CONFIG: path.resolve(values.config) } : {}),
}).routing;
const fixtures = Object.entries(ROUTING_FIXTURES).map(([name, file]) => ({ name, fixture: loadRoutingFixture(file) }));

let started = performance.now();
let router: TRouter = buildRouter(config);
const trainMs = performance.now() - started;
const vectors = new Map<string, Float32Array>();
if (values.semantic) {
  const provider = cachedLocalEmbeddings();
  const texts = [
    ...new Set([
      ...router.model.examples.map((e) => e.text),
      ...fixtures.flatMap((f) => f.fixture.cases.map((c) => c.message)),
    ]),
  ];
  for (let i = 0; i < texts.length; i += 256) {
    const batch = texts.slice(i, i + 256);
    (await provider.embed(batch)).forEach((v, j) => {
      vectors.set(batch[j] as string, v);
    });
  }
  provider.save();
  await provider.close();
  router = {
    ...router,
    model: router.model.withVectors(router.model.examples.map((e) => vectors.get(e.text) as Float32Array)),
  };
}

const routerAt = (minConfidence: number): TRouteFn => {
  const r = { ...router, config: { ...config, min_confidence: minConfidence } };
  return (message) =>
    routeTurn(r, {
      message,
      previousDomain: null,
      hintHistory: [],
      procedureSystem: null,
      vector: vectors.get(message) ?? null,
    });
};
const domains = config.domains.map((d) => d.id);
const nb = naiveBayes(domains, config.domains.flatMap(domainExamples));
const baseline: TRouteFn = (message) => ({ domain: nb(message), ranking: [] });

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const listed = new Set(values.misses.split(",").map((s) => s.trim()));

function report(name: string, e: TRoutingEvaluation, base: TRoutingEvaluation, labels: string[]): void {
  console.log(
    `\n== ${name}, ${e.split}: ${pct(e.accuracy)} (${e.correct}/${e.cases}); naive Bayes ${pct(base.accuracy)}`,
  );
  const line = (t: Record<string, { correct: number; total: number }>) =>
    Object.entries(t)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => `${k} ${v.correct}/${v.total}`)
      .join(", ");
  console.log(`   per domain: ${line(e.perDomain)}`);
  console.log(`   per category: ${line(e.perCategory)}`);
  console.log(`   confusion (rows expected, columns actual: ${labels.join(" ")}):`);
  for (const x of labels)
    console.log(`     ${x.padEnd(10)} ${labels.map((a) => String(e.confusion[x]?.[a] ?? 0).padStart(5)).join("")}`);
  if (listed.has(e.split))
    for (const m of e.misses) {
      const ranking = m.ranking.map((r) => `${r.domain} ${r.p.toFixed(2)}`).join(", ");
      console.log(`  ✗ ${m.id} expected ${m.expected}, got ${m.actual} (${ranking}) ${JSON.stringify(m.message)}`);
    }
}

const route = routerAt(config.min_confidence);
const runs = fixtures.flatMap(({ name, fixture }) =>
  (["tune", "holdout"] as TRoutingSplit[]).map((split) => {
    const e = runRoutingEvaluation(route, fixture, split);
    const base = runRoutingEvaluation(baseline, fixture, split);
    report(name, e, base, fixture.domains);
    return {
      fixture: name,
      split,
      cases: e.cases,
      accuracy: Math.round(e.accuracy * 10_000) / 10_000,
      naive_bayes: Math.round(base.accuracy * 10_000) / 10_000,
      per_domain: e.perDomain,
      per_category: e.perCategory,
      confusion: e.confusion,
      misses: e.misses.map((m) => ({ id: m.id, expected: m.expected, actual: m.actual, message: m.message })),
    };
  }),
);

if (values.sweep) {
  console.log("\n== min_confidence on the tuning halves");
  for (const t of [0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7]) {
    const at = routerAt(t);
    const scores = fixtures.map(
      ({ name, fixture }) => `${name} ${pct(runRoutingEvaluation(at, fixture, "tune").accuracy)}`,
    );
    console.log(`   ${t.toFixed(2)}: ${scores.join(", ")}`);
  }
}

// Time to route one message (the selector step's own work, the message's vector given).
const messages = fixtures.flatMap((f) => f.fixture.cases.map((c) => c.message));
const times: number[] = [];
for (let pass = 0; pass < 3; pass++)
  for (const message of messages) {
    started = performance.now();
    route(message);
    times.push(performance.now() - started);
  }
times.sort((a, b) => a - b);
const at = (q: number) => Math.round((times[Math.floor(times.length * q)] as number) * 1000) / 1000;
const latency = { messages: times.length, p50_ms: at(0.5), p99_ms: at(0.99), train_ms: Math.round(trainMs) };
console.log(
  `\nrouting one message: p50 ${latency.p50_ms} ms, p99 ${latency.p99_ms} ms; training ${latency.train_ms} ms`,
);

const out = resultsPath("routing-eval.json");
writeFileSync(
  out,
  `${JSON.stringify(
    {
      when: new Date().toISOString(),
      node: process.version,
      config: values.config ?? "shipped (packages/control-plane/src/routing/default-routing.json)",
      semantic: values.semantic ? "use-lite-512" : "off",
      min_confidence: config.min_confidence,
      examples: router.model.examples.length,
      latency,
      runs,
    },
    null,
    2,
  )}\n`,
);
console.log(`written to ${path.relative(process.cwd(), out)}`);
