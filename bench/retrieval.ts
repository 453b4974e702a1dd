// Benchmark: does a turn's retrieval inject the CFBs that answer a question? Through the product's
// own path (retrievalCandidates: the candidate index and the vector store on a real SQLite
// database, the embedded sentence model), on data split into a tuning and a held-out part:
//
// - LoCoMo (snap-research, ACL 2024; ../shared/benchmarks/locomo): each conversation is a
//   knowledge base of one CFB per dialog turn (title: the speaker and the session's date; summary:
//   what they said, with the photo's caption; entity: the speaker). Questions of categories 1-4;
//   recall@1/5/8 of the evidence turns and hit@8. Conversations 26, 30, 41, 42, 43 tune; 44, 47,
//   48, 49, 50 are reported.
// - The paraphrase set (bench/fixtures/retrieval-paraphrase.json, written by a helper who never
//   read the ranking code): 159 questions over 75 CFBs, most sharing no content word with their
//   answer, some in Spanish and German; alone and inside 2,000 and 20,000 noise CFBs of the same
//   vocabulary (lib/realistic-corpus.ts). hit@8; its split says which half tunes.
// - Unrelated messages (CLINC150's out-of-scope messages, ../shared/benchmarks/clinc150: val
//   tunes, test is reported) asked of the paraphrase knowledge base: the share that gets no CFB.
//
// Each question is ranked by the lexical channel alone, the semantic channel alone, the fusion
// (retrieval-fusion.json), and plain Okapi BM25 over the same CFBs (the baseline).
// `--fit` searches the fusion's weight and floor on the tuning parts and writes
// packages/control-plane/src/retrieval-fusion.json; without it the held-out parts are reported.
// Run: `pnpm bench:retrieval [--fit] [--sizes 0,2000,20000]`. Writes bench/results/retrieval.json.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import type { TCfbDraft } from "@solserver/contracts";
import {
  fuseCandidates,
  fusionFeatures,
  fusionFor,
  openSemanticSearch,
  retrievalCandidates,
  type TFusion,
  type TRetrievalCandidate,
  type TSemanticChannel,
} from "@solserver/control-plane";
import { createPrismaClient, createRepositories, type TRepositories } from "@solserver/db";
import { createTestDatabase, testCfb } from "@solserver/db/testing";
import { analyzeTerms } from "@solserver/text";
import { cachedLocalEmbeddings } from "./lib/cached-embeddings";
import { realisticNoise } from "./lib/realistic-corpus";
import { resultsFile } from "./lib/results-file";

const { values } = parseArgs({
  options: {
    fit: { type: "boolean", default: false },
    sizes: { type: "string", default: "0,2000,20000" },
    // The tuning parts, for looking at what the fit sees; never the figures to report.
    split: { type: "string", default: "holdout" },
    // Writes every question's candidates with both channels' scores (for studying the fusion).
    dump: { type: "string" },
  },
});
const SPLIT = values.split === "tune" ? "tune" : "holdout";
const FIT = values.fit;
const SIZES = values.sizes.split(",").map(Number);
const K = 8;
const SHARED = path.resolve(import.meta.dirname, "../../shared/benchmarks");
const LOCOMO = { tune: ["26", "30", "41", "42", "43"], held: ["44", "47", "48", "49", "50"] };

const provider = cachedLocalEmbeddings();

type TQuestion = { text: string; wanted: Set<string>; group: string };
type TAsked = { q: TQuestion; candidates: TRetrievalCandidate[]; bm25: string[] };

/** One knowledge base on a fresh database: the CFBs imported and embedded, then every question asked. */
async function ask(drafts: TCfbDraft[], keys: string[], questions: (ids: Map<string, string>) => TQuestion[]) {
  const database = await createTestDatabase("retrieval-bench");
  const db = await createPrismaClient(database.url);
  try {
    const repos = createRepositories(db);
    const ids = new Map<string, string>();
    for (let i = 0; i < drafts.length; i += 5000) {
      const chunk = await repos.cfbs.import(drafts.slice(i, i + 5000));
      for (const [j, id] of chunk.entries()) ids.set(keys[i + j] as string, id);
    }
    await repos.cfbs.index.sync();
    const matching = await openSemanticSearch(repos, provider);
    await matching.sync();
    provider.save();
    const bm25 = okapi(repos, drafts, ids, keys);
    const asked: TAsked[] = [];
    for (const q of questions(ids)) {
      const vector = await matching.search.embed(q.text);
      const semantic: TSemanticChannel = {
        model: matching.search.model,
        nearest: (k) => matching.search.nearest(vector, k),
        similarities: (list) => matching.search.similarities(vector, list),
      };
      const source = { search: repos.cfbs.index.search, retrievable: repos.cfbs.retrievable };
      asked.push({ q, candidates: await retrievalCandidates(source, q.text, { semantic }), bm25: bm25(q.text) });
    }
    provider.save();
    return asked;
  } finally {
    await db.$disconnect();
    database.cleanup();
  }
}

/** Plain Okapi BM25 (k1 1.2, b 0.75) over each CFB's title, summary and labels, on the analyser's terms. */
function okapi(_repos: TRepositories, drafts: TCfbDraft[], ids: Map<string, string>, keys: string[]) {
  const docs = drafts.map((d) => analyzeTerms([d.title, d.summary, ...d.tags, ...d.entities].join("\n")));
  const df = new Map<string, number>();
  const tfs = docs.map((d) => {
    const tf = new Map<string, number>();
    for (const t of d) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const t of tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
    return tf;
  });
  const postings = new Map<string, number[]>();
  tfs.forEach((tf, i) => {
    for (const t of tf.keys()) {
      const list = postings.get(t) ?? [];
      list.push(i);
      postings.set(t, list);
    }
  });
  const avg = docs.reduce((s, d) => s + d.length, 0) / Math.max(1, docs.length);
  return (text: string): string[] => {
    const score = new Map<number, number>();
    for (const t of new Set(analyzeTerms(text))) {
      const n = df.get(t) ?? 0;
      if (n === 0) continue;
      const idf = Math.log(1 + (docs.length - n + 0.5) / (n + 0.5));
      for (const i of postings.get(t) ?? []) {
        const f = tfs[i]?.get(t) ?? 0;
        const len = docs[i]?.length ?? 0;
        score.set(i, (score.get(i) ?? 0) + (idf * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * len) / avg)));
      }
    }
    return [...score.entries()]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, K)
      .map(([i]) => ids.get(keys[i] as string) as string);
  };
}

/** The ids each ranking injects for one asked question. */
function rankings(a: TAsked, fusion: TFusion): Record<string, string[]> {
  const lexical = a.candidates
    .filter((c) => c.lexical > 0)
    .sort((x, y) => y.lexical * y.boost - x.lexical * x.boost)
    .slice(0, K)
    .map((c) => c.cfb.cfb_id);
  const semantic = a.candidates
    .filter((c) => c.cosine !== null)
    .sort((x, y) => (y.cosine ?? 0) - (x.cosine ?? 0))
    .slice(0, K)
    .map((c) => c.cfb.cfb_id);
  const fused = fuseCandidates(a.candidates, K, fusion).map((r) => r.cfb.cfb_id);
  return { bm25: a.bm25, lexical, semantic, fused };
}

type TScores = { n: number; r1: number; r5: number; r8: number; hit8: number; empty: number };

function score(asked: readonly TAsked[], fusion: TFusion): Record<string, Record<string, TScores>> {
  const out: Record<string, Record<string, TScores>> = {};
  for (const a of asked) {
    for (const [method, ids] of Object.entries(rankings(a, fusion))) {
      for (const group of ["all", a.q.group]) {
        out[method] ??= {};
        const groups = out[method];
        groups[group] ??= { n: 0, r1: 0, r5: 0, r8: 0, hit8: 0, empty: 0 };
        const s = groups[group];
        const recall = (k: number) =>
          a.q.wanted.size === 0 ? 0 : ids.slice(0, k).filter((id) => a.q.wanted.has(id)).length / a.q.wanted.size;
        s.n += 1;
        s.r1 += recall(1);
        s.r5 += recall(5);
        s.r8 += recall(K);
        s.hit8 += ids.some((id) => a.q.wanted.has(id)) ? 1 : 0;
        s.empty += ids.length === 0 ? 1 : 0;
      }
    }
  }
  for (const groups of Object.values(out))
    for (const s of Object.values(groups))
      for (const k of ["r1", "r5", "r8", "hit8", "empty"] as const) s[k] = Math.round((1000 * s[k]) / s.n) / 10;
  return out;
}

// ---- the data sets -----------------------------------------------------------------------------------

function locomo(conversation: string) {
  const d = JSON.parse(readFileSync(path.join(SHARED, "locomo", `${conversation}.json`), "utf8"));
  const drafts: TCfbDraft[] = [];
  const keys: string[] = [];
  for (const key of Object.keys(d).filter((k) => /^session_\d+$/.test(k))) {
    for (const t of d[key] as { speaker: string; dia_id: string; text: string; blip_caption?: string }[]) {
      keys.push(t.dia_id);
      drafts.push(
        testCfb({
          domain: "general",
          title: `${t.speaker}, ${d[`${key}_date_time`]}`,
          summary: t.blip_caption ? `${t.text} [shares a photo: ${t.blip_caption}]` : t.text,
          tags: [],
          entities: [t.speaker],
        }),
      );
    }
  }
  const qa = (d.qa as { question: string; evidence: string[]; category: number }[]).filter(
    (q) => q.category >= 1 && q.category <= 4,
  );
  return {
    drafts,
    keys,
    questions: (ids: Map<string, string>) =>
      qa.flatMap((q) => {
        const wanted = new Set(
          q.evidence
            .flatMap((e) => e.split(/[;,\s]+/))
            .map((e) => ids.get(e))
            .filter((id): id is string => id !== undefined),
        );
        return wanted.size === 0 ? [] : [{ text: q.question, wanted, group: `category ${q.category}` }];
      }),
  };
}

type TParaphrase = {
  cfbs: { key: string; domain: string; title: string; summary: string; tags: string[]; entities: string[] }[];
  questions: { id: string; cfb: string; message: string; lang: string; shares_content_word: boolean; split: string }[];
};
const paraphrase = JSON.parse(
  readFileSync(path.join(import.meta.dirname, "fixtures", "retrieval-paraphrase.json"), "utf8"),
) as TParaphrase;
const clinc = JSON.parse(readFileSync(path.join(SHARED, "clinc150", "data_full.json"), "utf8")) as Record<
  string,
  [string, string][]
>;

function paraphraseBase(size: number, split: "tune" | "holdout") {
  const own = paraphrase.cfbs.map(({ key: _key, ...c }) => testCfb(c));
  const noise = realisticNoise(
    size,
    paraphrase.cfbs,
    paraphrase.questions.map((q) => ({
      domain: "general",
      title: q.message,
      summary: q.message,
      tags: [],
      entities: [],
    })),
  );
  const drafts = [...noise.slice(0, size / 2), ...own, ...noise.slice(size / 2)];
  const keys = [
    ...noise.slice(0, size / 2).map((_, i) => `noise-${i}`),
    ...paraphrase.cfbs.map((c) => c.key),
    ...noise.slice(size / 2).map((_, i) => `noise-${size / 2 + i}`),
  ];
  const unrelated = (split === "tune" ? clinc.oos_val : clinc.oos_test) ?? [];
  return {
    drafts,
    keys,
    questions: (ids: Map<string, string>) => [
      ...paraphrase.questions
        .filter((q) => q.split === split)
        .map((q) => ({
          text: q.message,
          wanted: new Set([ids.get(q.cfb) as string]),
          group:
            q.lang !== "en" ? `other language (${q.lang})` : q.shares_content_word ? "shares a word" : "no shared word",
        })),
      ...unrelated.map(([text]) => ({ text, wanted: new Set<string>(), group: "unrelated" })),
    ],
  };
}

// ---- run -----------------------------------------------------------------------------------------

async function locomoAsked(conversations: string[]) {
  const asked: TAsked[] = [];
  for (const c of conversations) {
    const set = locomo(c);
    asked.push(...(await ask(set.drafts, set.keys, set.questions)));
    console.log(`LoCoMo ${c}: ${set.drafts.length} turns asked`);
  }
  return asked;
}

async function paraphraseAsked(size: number, split: "tune" | "holdout") {
  const set = paraphraseBase(size, split);
  const asked = await ask(set.drafts, set.keys, set.questions);
  console.log(`paraphrase set inside ${size} noise CFBs (${split}) asked`);
  return asked;
}

const answered = (asked: readonly TAsked[]) => asked.filter((a) => a.q.wanted.size > 0);
const unrelated = (asked: readonly TAsked[]) => asked.filter((a) => a.q.wanted.size === 0);

const FUSION_FILE = path.join(import.meta.dirname, "..", "packages", "control-plane", "src", "retrieval-fusion.json");
const FEATURES = [
  "lexical",
  "lexical / best lexical",
  "cosine",
  "cosine - best cosine",
  "1 / (1 + lexical rank)",
  "1 / (1 + cosine rank)",
  "best lexical",
  "best cosine",
  "shares a word",
];

/**
 * A logistic regression of "this candidate answers the question" on the fusion's features, by
 * gradient descent from zero (deterministic), the classes weighed equally, a little L2.
 */
function logistic(asked: readonly TAsked[]): Required<Omit<TFusion, "gate">> {
  const xs: number[][] = [];
  const ys: number[] = [];
  for (const a of asked) {
    fusionFeatures(a.candidates).forEach((x, i) => {
      xs.push(x);
      ys.push(a.q.wanted.has(a.candidates[i]?.cfb.cfb_id as string) ? 1 : 0);
    });
  }
  const n = xs.length;
  const d = FEATURES.length;
  const mean = Array.from({ length: d }, (_, k) => xs.reduce((s, x) => s + (x[k] as number), 0) / n);
  const spread = Array.from(
    { length: d },
    (_, k) => Math.sqrt(xs.reduce((s, x) => s + ((x[k] as number) - (mean[k] as number)) ** 2, 0) / n) || 1,
  );
  const z = xs.map((x) => x.map((v, k) => (v - (mean[k] as number)) / (spread[k] as number)));
  const positive = ys.reduce((s, y) => s + y, 0) / n;
  const weightOf = (y: number) => (y === 1 ? 0.5 / positive : 0.5 / (1 - positive));
  const w = new Array<number>(d + 1).fill(0);
  for (let step = 0; step < 3000; step++) {
    const g = new Array<number>(d + 1).fill(0);
    for (let i = 0; i < n; i++) {
      const zi = z[i] as number[];
      let s = w[d] as number;
      for (let k = 0; k < d; k++) s += (w[k] as number) * (zi[k] as number);
      const err = (1 / (1 + Math.exp(-s)) - (ys[i] as number)) * weightOf(ys[i] as number);
      for (let k = 0; k < d; k++) g[k] = (g[k] as number) + err * (zi[k] as number);
      g[d] = (g[d] as number) + err;
    }
    for (let k = 0; k <= d; k++) w[k] = (w[k] as number) - 0.5 * ((g[k] as number) / n + 1e-3 * (w[k] as number));
  }
  const round = (v: number) => Math.round(v * 10_000) / 10_000;
  return {
    mean: mean.map(round),
    spread: spread.map(round),
    weights: w.slice(0, d).map(round),
    bias: round(w[d] as number),
  };
}

/**
 * The gate: the (lexical, cosine) under which a message gets no CFB, such that at most 1 % of the
 * tuning questions that have an answer are left with nothing in each set (LoCoMo, the paraphrase
 * set); of those, the one that leaves the most unrelated messages with nothing.
 */
function fitGate(asked: readonly TAsked[], withCosine: boolean): TFusion["gate"] {
  const best = (a: TAsked) => ({
    lexical: Math.max(0, ...a.candidates.map((c) => c.lexical)),
    cosine: Math.max(0, ...a.candidates.map((c) => c.cosine ?? 0)),
  });
  const answered = asked.filter((a) => a.q.wanted.size > 0);
  const sets = [
    answered.filter((a) => a.q.group.startsWith("category")).map(best),
    answered.filter((a) => !a.q.group.startsWith("category")).map(best),
  ];
  const unrelated = asked.filter((a) => a.q.wanted.size === 0).map(best);
  let chosen = { gate: { lexical: 0, cosine: 0 }, closed: -1 };
  for (let l = 0; l <= 1.2001; l += 0.05)
    for (let c = 0; c <= (withCosine ? 0.8001 : 0); c += 0.025) {
      const gate = { lexical: Math.round(l * 100) / 100, cosine: withCosine ? Math.round(c * 1000) / 1000 : 1 };
      const closes = (b: { lexical: number; cosine: number }) => b.lexical < gate.lexical && b.cosine < gate.cosine;
      if (sets.some((set) => set.filter(closes).length > set.length * 0.01)) continue;
      const closed = unrelated.filter(closes).length;
      if (closed > chosen.closed) chosen = { gate, closed };
    }
  return chosen.gate;
}

if (values.dump) {
  const rows = (set: string, split: string, asked: TAsked[]) =>
    asked.map((a) => ({
      set,
      split,
      group: a.q.group,
      wanted: a.q.wanted.size,
      candidates: a.candidates.map((c) => ({
        lexical: c.lexical,
        cosine: c.cosine,
        boost: c.boost,
        relevant: a.q.wanted.has(c.cfb.cfb_id),
      })),
    }));
  const out = [
    ...rows("locomo", "tune", await locomoAsked(LOCOMO.tune)),
    ...rows("locomo", "holdout", await locomoAsked(LOCOMO.held)),
  ];
  for (const size of SIZES)
    for (const split of ["tune", "holdout"] as const)
      out.push(...rows(`paraphrase-${size}`, split, await paraphraseAsked(size, split)));
  writeFileSync(values.dump, JSON.stringify(out));
} else if (FIT) {
  // The tuning parts: LoCoMo's tuning conversations, the paraphrase set's tuning half alone and
  // inside 2,000 noise CFBs, CLINC150's validation out-of-scope messages.
  const asked = [
    ...(await locomoAsked(LOCOMO.tune)),
    ...(await paraphraseAsked(0, "tune")),
    ...(await paraphraseAsked(2000, "tune")),
  ];
  const lexicalOnly = asked.map((a) => ({ ...a, candidates: a.candidates.map((c) => ({ ...c, cosine: null })) }));
  const models = {
    lexical: { gate: fitGate(lexicalOnly, false) },
    [provider.model]: { features: FEATURES, ...logistic(asked), gate: fitGate(asked, true) },
  };
  const fused = models[provider.model] as TFusion & { features: string[] };
  writeFileSync(FUSION_FILE, `${JSON.stringify({ models: { ...models, default: fused } }, null, 2)}\n`);
  const tuned = (fusion: TFusion) =>
    Object.fromEntries(
      ["locomo", "paraphrase"].map((set) => [
        set,
        score(
          answered(asked).filter((a) => (set === "locomo") === a.q.group.startsWith("category")),
          fusion,
        ).fused?.all,
      ]),
    );
  console.log(`fitted on the tuning parts: ${JSON.stringify(tuned(fused))}`);
  console.log(`written to ${path.relative(process.cwd(), FUSION_FILE)}`);
} else {
  const FUSION = fusionFor(provider.model);
  const lo = await locomoAsked(SPLIT === "tune" ? LOCOMO.tune : LOCOMO.held);
  const results: Record<string, unknown> = { locomo: score(lo, FUSION) };
  for (const size of SIZES) {
    const para = await paraphraseAsked(size, SPLIT);
    results[`paraphrase_${size}`] = {
      answered: score(answered(para), FUSION),
      unrelated: score(unrelated(para), FUSION),
    };
  }
  const table = (name: string, s: Record<string, Record<string, TScores>>, metric: keyof TScores) =>
    `${name}\n${Object.entries(s)
      .map(
        ([method, groups]) =>
          `  ${method.padEnd(9)} ${Object.entries(groups)
            .map(([g, v]) => `${g} ${v[metric]}%`)
            .join(" · ")}`,
      )
      .join("\n")}`;
  console.log(table(`LoCoMo ${SPLIT}, recall@8`, results.locomo as Record<string, Record<string, TScores>>, "r8"));
  for (const size of SIZES) {
    const r = results[`paraphrase_${size}`] as Record<string, Record<string, Record<string, TScores>>>;
    console.log(table(`paraphrase ${SPLIT} in ${size} noise CFBs, hit@8`, r.answered as never, "hit8"));
    console.log(
      table(`unrelated (CLINC150 oos test) in ${size} noise CFBs, share with no CFB`, r.unrelated as never, "empty"),
    );
  }
  const out = resultsFile(SPLIT === "tune" ? "retrieval-tune" : "retrieval");
  writeFileSync(
    out,
    `${JSON.stringify({ when: new Date().toISOString(), node: process.version, fusion: FUSION, results }, null, 2)}\n`,
  );
  console.log(`written to ${path.relative(process.cwd(), out)}`);
}
await provider.close();
