// Precision and recall of the PII scanner on the labelled corpus
// (packages/gate/test/fixtures/pii-corpus.jsonl), per type, on the tune split, the holdout split
// and all snippets; scored by the same function the corpus test asserts with
// (scorePiiCorpus in @solserver/gate/testing). The holdout figure is the one to quote.
// Run: `pnpm bench:pii` (tsx, like the other benches: it imports the workspace's TypeScript).
// Writes bench/results/pii-corpus.json.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PII_TYPES } from "@solserver/contracts";
import { parsePiiCorpus, scorePiiCorpus } from "@solserver/gate/testing";

const corpusPath = path.join(import.meta.dirname, "..", "packages", "gate", "test", "fixtures", "pii-corpus.jsonl");
const rows = parsePiiCorpus(readFileSync(corpusPath, "utf8"));
const started = performance.now();
const { scores, errors } = scorePiiCorpus(rows);
const ms = performance.now() - started;

const SPLITS = ["tune", "holdout", "all"];
const inSplit = (split) => (split === "all" ? rows : rows.filter((r) => r.split === split));
const fmt = (x) => (x === null ? "  —  " : x.toFixed(3));

console.log(
  `PII corpus: ${rows.length} snippets (${inSplit("tune").length} tune, ${inSplit("holdout").length} holdout)`,
);
console.log("split    type          values  found  TP  FP  FN  precision  recall");
for (const split of SPLITS) {
  for (const type of PII_TYPES) {
    const s = scores[split][type];
    console.log(
      `${split.padEnd(8)} ${type.padEnd(12)} ${String(s.tp + s.fn).padStart(7)} ${String(s.tp + s.fp).padStart(6)} ` +
        `${String(s.tp).padStart(3)} ${String(s.fp).padStart(3)} ${String(s.fn).padStart(3)}      ${fmt(s.precision)}   ${fmt(s.recall)}`,
    );
  }
}
for (const e of errors) console.log(`  ${e}`);
console.log(`scored in ${ms.toFixed(1)} ms; targets on holdout: recall >= 0.98, precision >= 0.99 per type`);

const result = {
  corpus: "packages/gate/test/fixtures/pii-corpus.jsonl",
  snippets: rows.length,
  splits: Object.fromEntries(
    SPLITS.map((split) => [
      split,
      {
        snippets: inSplit(split).length,
        with_pii: inSplit(split).filter((r) => r.expect.length > 0).length,
        without_pii: inSplit(split).filter((r) => r.expect.length === 0).length,
      },
    ]),
  ),
  kinds: Object.fromEntries(
    [...new Set(rows.map((r) => r.kind))].sort().map((k) => [k, rows.filter((r) => r.kind === k).length]),
  ),
  scores: Object.fromEntries(
    SPLITS.map((split) => [
      split,
      Object.fromEntries(
        PII_TYPES.map((type) => {
          const s = scores[split][type];
          const round = (x) => (x === null ? null : Number(x.toFixed(4)));
          return [type, { ...s, precision: round(s.precision), recall: round(s.recall) }];
        }),
      ),
    ]),
  ),
  errors,
  targets: { holdout_recall: 0.98, holdout_precision: 0.99 },
  node: process.version,
  when: new Date().toISOString(),
};
writeFileSync(path.join(import.meta.dirname, "results", "pii-corpus.json"), `${JSON.stringify(result, null, 2)}\n`);
