// Benchmark: how well resolve's text component tracks human similarity judgements, on the public
// STS benchmark (Cer et al., SemEval-2017; ../shared/benchmarks/stsb: sentence pairs scored 0-5 by
// people, and the same pairs machine-translated to German and Spanish, row by row). Resolve's
// own evaluation set was written for it; this one was not, so it shows whether the component's
// ranking of "how much do these two texts say the same thing" holds on text nobody here chose.
//
// Per pair, Spearman's rank correlation ×100 (average ranks for ties) between the gold score and
// - jaccard: token Jaccard of the lowercased words (the baseline);
// - lexical: resolve's lexical text match (matchText on two textProfiles, `.text ?? 0`);
// - semantic: the cosine of the embedded sentence model's vectors (USE-lite);
// - hybrid: the text component resolve scores with semantic matching on,
//   max(lexical, semanticComponent(cosine)) at the default SEMANTIC_SCALE.
// Sets: `en` (English sentence1 against sentence2) and `en-de` / `en-es` (English sentence1
// against the translated sentence2, same gold; the files must align row by row, which is checked
// on the gold scores). For a cross-language set it also counts the pairs people scored ≥ 4 that
// reach a full text component (1.0). The test split is the figure to report; dev is printed as
// the tuning figure.
// Run: `npx tsx bench/stsb.ts [--sets en,en-de] [--splits test,dev]`. Embeddings are cached in
// bench/.cache. Writes bench/results/stsb.json.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { matchText, SEMANTIC_SCALE, semanticComponent, textProfile } from "@solserver/resolve";
import { cachedLocalEmbeddings } from "./lib/cached-embeddings";
import { resultsPath } from "./lib/results-file";

const { values } = parseArgs({
  options: { sets: { type: "string", default: "en,en-de" }, splits: { type: "string", default: "test,dev" } },
});
const SETS = values.sets.split(",").map((s) => s.trim());
const SPLITS = values.splits.split(",").map((s) => s.trim());
if (SETS.some((s) => !/^en(-(de|es))?$/.test(s)) || SPLITS.some((s) => s !== "test" && s !== "dev")) {
  console.error("error: --sets takes en, en-de, en-es; --splits takes test, dev");
  process.exit(2);
}
const DATA = path.resolve(import.meta.dirname, "../../shared/benchmarks/stsb");
const FULL_GOLD = 4;

type TRow = { s1: string; s2: string; gold: number };

/** One CSV line: `sentence1,sentence2,score`, a field quoted when it holds a comma ("" inside). */
function parseLine(line: string): string[] {
  const fields: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (quoted && c === '"' && line[i + 1] === '"') {
      field += '"';
      i++;
    } else if (c === '"') quoted = !quoted;
    else if (c === "," && !quoted) {
      fields.push(field);
      field = "";
    } else field += c;
  }
  fields.push(field);
  return fields;
}

function readRows(language: string, split: string): TRow[] {
  const file = path.join(DATA, `stsb-${language}-${split}.csv`);
  return readFileSync(file, "utf8")
    .split(/\r?\n/)
    .filter((line) => line.trim().length > 0)
    .map((line) => {
      const [s1, s2, score] = parseLine(line);
      const gold = Number(score);
      if (s1 === undefined || s2 === undefined || !Number.isFinite(gold)) throw new Error(`${file}: bad row ${line}`);
      return { s1, s2, gold };
    });
}

/** The pairs of a set: English sentence1 against sentence2 in English or in the other language. */
function pairsOf(set: string, split: string): TRow[] {
  const en = readRows("en", split);
  const other = set.split("-")[1];
  if (other === undefined) return en;
  const translated = readRows(other, split);
  if (translated.length !== en.length || translated.some((r, i) => r.gold !== en[i]?.gold))
    throw new Error(`stsb-${other}-${split}.csv does not align row by row with stsb-en-${split}.csv`);
  return en.map((r, i) => ({ ...r, s2: (translated[i] as TRow).s2 }));
}

/** 1-based ranks, ties sharing their average rank. */
function ranks(xs: readonly number[]): number[] {
  const order = xs.map((_, i) => i).sort((a, b) => (xs[a] as number) - (xs[b] as number));
  const out = new Array<number>(xs.length);
  for (let start = 0; start < order.length; ) {
    let end = start;
    while (end + 1 < order.length && xs[order[end + 1] as number] === xs[order[start] as number]) end++;
    for (let k = start; k <= end; k++) out[order[k] as number] = (start + end) / 2 + 1;
    start = end + 1;
  }
  return out;
}

function pearson(a: readonly number[], b: readonly number[]): number {
  const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  const ma = mean(a);
  const mb = mean(b);
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    const da = (a[i] as number) - ma;
    const db = (b[i] as number) - mb;
    ab += da * db;
    aa += da * da;
    bb += db * db;
  }
  return ab / Math.sqrt(aa * bb);
}

/** Spearman ×100, to one decimal. */
const spearman = (gold: readonly number[], xs: readonly number[]) =>
  Math.round(pearson(ranks(gold), ranks(xs)) * 1000) / 10;

const words = (s: string) =>
  new Set(
    s
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean),
  );
function jaccard(a: string, b: string): number {
  const wa = words(a);
  const wb = words(b);
  let shared = 0;
  for (const w of wa) if (wb.has(w)) shared++;
  const union = wa.size + wb.size - shared;
  return union === 0 ? 0 : shared / union;
}

function cosine(a: Float32Array, b: Float32Array): number {
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    ab += (a[i] as number) * (b[i] as number);
    aa += (a[i] as number) ** 2;
    bb += (b[i] as number) ** 2;
  }
  return ab / Math.sqrt(aa * bb);
}

const provider = cachedLocalEmbeddings();
async function embedAll(texts: readonly string[]): Promise<Float32Array[]> {
  const out: Float32Array[] = [];
  for (let i = 0; i < texts.length; i += 64) out.push(...(await provider.embed(texts.slice(i, i + 64))));
  provider.save();
  return out;
}

type TResult = {
  set: string;
  split: string;
  n: number;
  jaccard: number;
  lexical: number;
  semantic: number;
  hybrid: number;
  /** Cross-language sets: pairs with gold ≥ 4, and how many of them reach a text component of 1.0. */
  full?: { reached: number; of: number };
};

async function evaluate(set: string, split: string): Promise<TResult> {
  const pairs = pairsOf(set, split);
  const started = performance.now();
  const v1 = await embedAll(pairs.map((p) => p.s1));
  const v2 = await embedAll(pairs.map((p) => p.s2));
  console.log(
    `${set} ${split}: ${pairs.length} pairs embedded in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  const gold = pairs.map((p) => p.gold);
  const lexical = pairs.map((p) => matchText(textProfile("", p.s1), textProfile("", p.s2)).text ?? 0);
  const semantic = pairs.map((_, i) => cosine(v1[i] as Float32Array, v2[i] as Float32Array));
  const hybrid = semantic.map((cos, i) => Math.max(lexical[i] as number, semanticComponent(cos, SEMANTIC_SCALE) ?? 0));
  const high = hybrid.filter((_, i) => (gold[i] as number) >= FULL_GOLD);
  return {
    set,
    split,
    n: pairs.length,
    jaccard: spearman(
      gold,
      pairs.map((p) => jaccard(p.s1, p.s2)),
    ),
    lexical: spearman(gold, lexical),
    semantic: spearman(gold, semantic),
    hybrid: spearman(gold, hybrid),
    ...(set === "en" ? {} : { full: { reached: high.filter((h) => h >= 1).length, of: high.length } }),
  };
}

const results: TResult[] = [];
try {
  for (const split of SPLITS) for (const set of SETS) results.push(await evaluate(set, split));
} finally {
  await provider.close();
}

const head = ["set", "split", "n", "jaccard", "lexical", "semantic", "hybrid"];
console.log(`\nSTS-B Spearman ×100 (test: held-out, report; dev: tuning)`);
console.log(head.map((h, i) => (i < 2 ? h.padEnd(7) : h.padStart(8))).join(" "));
for (const r of results) {
  const cells = [r.set, r.split, r.n, r.jaccard, r.lexical, r.semantic, r.hybrid];
  console.log(cells.map((c, i) => (i < 2 ? String(c).padEnd(7) : String(c).padStart(8))).join(" "));
}
for (const r of results)
  if (r.full)
    console.log(
      `${r.set} ${r.split}: pairs with gold ≥ ${FULL_GOLD} reaching text component 1.0: ${r.full.reached} of ${r.full.of}`,
    );

const out = resultsPath("stsb.json");
writeFileSync(
  out,
  `${JSON.stringify({ when: new Date().toISOString(), node: process.version, semantic_scale: SEMANTIC_SCALE, model: provider.model, results }, null, 2)}\n`,
);
console.log(`written to ${path.relative(process.cwd(), out)}`);
