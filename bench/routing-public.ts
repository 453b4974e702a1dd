// The router's classifier on a public benchmark (issue 34): CLINC150 (Larson et al., EMNLP 2019;
// ../shared/benchmarks/clinc150, CC BY 3.0), its 150 intents grouped into its 10 domains. Trains
// on the `train` split (15,000 messages), sets the refusal threshold on `val` (the confidence under
// which at most 5% of in-scope validation messages fall), and reports the held-out `test` split
// (4,500 messages): 10-domain accuracy, and the out-of-scope test messages (1,000) refused at that
// threshold beside the in-scope ones refused. Beside it, in the same run, the baseline the issue
// names: multinomial naive Bayes over the analyser's terms, trained on the same messages.
// With --semantic the embedded sentence model's vectors of every message join (cached in
// bench/.cache; the first run embeds ~24,000 messages).
// Run: `pnpm bench:routing-public` (--semantic). Writes bench/results/routing-public.json.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { trainRouter } from "@solserver/engine";
import { cachedLocalEmbeddings } from "./lib/cached-embeddings";
import { naiveBayes } from "./lib/naive-bayes";
import { resultsPath } from "./lib/results-file";

const { values } = parseArgs({ options: { semantic: { type: "boolean", default: false } } });
const DIR = path.join(import.meta.dirname, "..", "..", "shared", "benchmarks", "clinc150");
type TRow = [string, string];
const data = JSON.parse(readFileSync(path.join(DIR, "data_full.json"), "utf8")) as Record<string, TRow[]>;
const intents = JSON.parse(readFileSync(path.join(DIR, "domains.json"), "utf8")) as Record<string, string[]>;
const domainOf = new Map(Object.entries(intents).flatMap(([d, list]) => list.map((i) => [i, d] as const)));
const DOMAINS = Object.keys(intents);
const labelled = (rows: TRow[]) => rows.map(([text, intent]) => ({ text, domain: domainOf.get(intent) ?? "oos" }));
const split = (name: string) => labelled(data[name] ?? []);
const train = split("train");
const val = split("val");
const test = split("test");
const oosVal = split("oos_val");
const oosTest = split("oos_test");

const pct = (x: number) => Math.round(x * 1000) / 10;

let started = performance.now();
let model = trainRouter(DOMAINS, train);
const trainMs = Math.round(performance.now() - started);
const vectors = new Map<string, Float32Array>();
if (values.semantic) {
  const provider = cachedLocalEmbeddings();
  const texts = [...new Set([...train, ...val, ...test, ...oosVal, ...oosTest].map((e) => e.text))];
  for (let i = 0; i < texts.length; i += 256) {
    const batch = texts.slice(i, i + 256);
    (await provider.embed(batch)).forEach((v, j) => {
      vectors.set(batch[j] as string, v);
    });
    if ((i / 256) % 10 === 0) console.log(`  embedded ${Math.min(i + 256, texts.length)} of ${texts.length}`);
  }
  provider.save();
  await provider.close();
  model = model.withVectors(train.map((e) => vectors.get(e.text) as Float32Array));
}
const classify = (text: string) => model.classify(text, vectors.get(text) ?? null)[0] ?? { domain: "none", p: 0 };

function measure(rows: { text: string; domain: string }[]) {
  started = performance.now();
  const out = rows.map((r) => ({ ...classify(r.text), expected: r.domain }));
  return { out, msPerMessage: (performance.now() - started) / rows.length };
}
const onVal = measure(val).out;
const confidences = onVal.map((r) => r.p).sort((a, b) => a - b);
const threshold = confidences[Math.floor(confidences.length * 0.05)] as number;
const onTest = measure(test);
const onOos = measure(oosTest).out;
const nb = naiveBayes(DOMAINS, train);

const result = {
  when: new Date().toISOString(),
  node: process.version,
  semantic: values.semantic ? "use-lite-512" : "off",
  train: train.length,
  train_ms: trainMs,
  tuning: { val_accuracy: pct(onVal.filter((r) => r.domain === r.expected).length / val.length), threshold },
  test: {
    messages: test.length,
    accuracy: pct(onTest.out.filter((r) => r.domain === r.expected).length / test.length),
    in_scope_refused: pct(onTest.out.filter((r) => r.p < threshold).length / test.length),
    out_of_scope: oosTest.length,
    out_of_scope_refused: pct(onOos.filter((r) => r.p < threshold).length / oosTest.length),
    ms_per_message: Math.round(onTest.msPerMessage * 1000) / 1000,
  },
  baseline_naive_bayes: { test_accuracy: pct(test.filter((r) => nb(r.text) === r.domain).length / test.length) },
};
console.log(JSON.stringify(result, null, 2));
const file = resultsPath(`routing-public${values.semantic ? "-semantic" : ""}.json`);
writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
console.log(`written to ${path.relative(process.cwd(), file)}`);
