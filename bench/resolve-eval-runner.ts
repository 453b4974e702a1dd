// The Umbra resolve evaluation (seed 001 §6), shared by `pnpm bench:resolve-eval` (a report) and
// packages/resolve/test/evaluation.test.ts (the accuracy bar): a small team knowledge base is
// imported into a fresh SQLite file, optionally inside thousands of noise CFBs written with the
// set's own vocabulary (lib/realistic-corpus.ts), then every labelled proposal goes through the
// real pipeline (the service's candidates: the candidate index, plus nearest neighbours in hybrid
// mode → resolveOutcome, no previous decision) and its decision is compared with the label a
// careful reviewer gave it. Cases carry a split: the tuning half shaped the algorithm, the
// held-out half is the figure reported.
import { readFileSync } from "node:fs";
import path from "node:path";
import {
  RESOLVE_DECISIONS,
  type TCfbDraft,
  type TDecisionRule,
  type TResolveDecisionKind,
  type TResolveProposal,
  type TScoredCandidate,
} from "@solserver/contracts";
import { resolveCandidates, type TSemanticSearch } from "@solserver/control-plane";
import { createPrismaClient, createRepositories } from "@solserver/db";
import { createTestDatabase, testCfb } from "@solserver/db/testing";
import {
  buildCandidateQuery,
  compositeScore,
  decideOptions,
  resolveOutcome,
  scoreCandidates,
  type TSemanticScale,
} from "@solserver/resolve";
import { realisticNoise, type TSourceText } from "./lib/realistic-corpus";

export const DEFAULT_FIXTURE = path.join(import.meta.dirname, "fixtures", "resolve-eval.json");
/** Candidates asked of the search for each proposal. */
export const CANDIDATE_LIMIT = 20;

export type TEvalCorpusEntry = {
  key: string;
  domain: string;
  title: string;
  summary: string;
  tags: string[];
  entities: string[];
};

export type TEvalSplit = "tune" | "holdout";
type TEvalCase = {
  id: string;
  category: string;
  split: TEvalSplit;
  proposal: TResolveProposal;
  /** `target` (update, review) and `targets` (merge) are corpus keys. */
  expected: { decision: TResolveDecisionKind; target?: string; targets?: string[] };
  note?: string;
};

export type TEvalFixture = { corpus: TEvalCorpusEntry[]; cases: TEvalCase[] };

/** A scored candidate with its corpus key instead of the generated CFB id. */
type TEvalScore = {
  key: string;
  score: number;
  components: TScoredCandidate["components"];
  flags: TScoredCandidate["flags"];
};

export type TCaseResult = {
  id: string;
  category: string;
  expected: TEvalCase["expected"];
  actual: { decision: TResolveDecisionKind; target: string | null; merge: string[] };
  correct: boolean;
  /** The decision class was right but it named the wrong CFB(s). */
  wrong_target: boolean;
  /** An update or merge of a CFB the label does not name, or a create of a restated CFB. */
  harmful: boolean;
  terms: string[];
  top: TEvalScore[];
  reason_codes: string[];
  ms: number;
};

type TTally = { total: number; correct: number; accuracy: number };
type TConfusion = Record<TResolveDecisionKind, Record<TResolveDecisionKind, number>>;

export type TEvaluation = {
  corpus: number;
  /** Noise CFBs around the corpus. */
  noise: number;
  split: TEvalSplit | "all";
  cases: number;
  correct: number;
  accuracy: number;
  /** By expected decision. */
  perClass: Record<TResolveDecisionKind, TTally>;
  perCategory: Record<string, TTally>;
  /** confusion[expected][actual]: counts by decision class only (a wrong target is on the diagonal). */
  confusion: TConfusion;
  misses: TCaseResult[];
  harmful: number;
  results: TCaseResult[];
  /** Per-case resolve time (candidates + decision), ms. */
  latency: { p50: number; p99: number };
  /** Wall time of the whole evaluation, and of the import alone. */
  ms: { total: number; import: number };
};

/**
 * A labelled set. The blind sets (resolve-subjects.json, resolve-blind.json) name a case's kind
 * `kind` or `category`, a merge's two CFBs as a list in `target`, and a review without a target
 * (a proposal with no subject): they are read into the same shape.
 */
export function loadFixture(file: string = DEFAULT_FIXTURE): TEvalFixture {
  const raw = JSON.parse(readFileSync(file, "utf8")) as {
    corpus: TEvalCorpusEntry[];
    cases: (Omit<TEvalCase, "category" | "expected"> & {
      category?: string;
      kind?: string;
      expected: { decision: TResolveDecisionKind; target?: string | string[] | null; targets?: string[] };
    })[];
  };
  const fixture: TEvalFixture = {
    corpus: raw.corpus,
    cases: raw.cases.map((c) => {
      const target = c.expected.target;
      const expected: TEvalCase["expected"] = Array.isArray(target)
        ? { decision: c.expected.decision, targets: target }
        : {
            decision: c.expected.decision,
            ...(target ? { target } : {}),
            ...(c.expected.targets ? { targets: c.expected.targets } : {}),
          };
      return { id: c.id, category: c.category ?? c.kind ?? "", split: c.split, proposal: c.proposal, expected };
    }),
  };
  const keys = new Set(fixture.corpus.map((c) => c.key));
  if (keys.size !== fixture.corpus.length) throw new Error("resolve-eval: duplicate corpus key");
  for (const c of fixture.cases) {
    if (!RESOLVE_DECISIONS.includes(c.expected.decision)) throw new Error(`resolve-eval: ${c.id}: bad decision`);
    const named = [c.expected.target, ...(c.expected.targets ?? [])].filter((k): k is string => k !== undefined);
    for (const k of named) if (!keys.has(k)) throw new Error(`resolve-eval: ${c.id}: unknown corpus key ${k}`);
    const wants = c.expected.decision;
    if (wants === "update" && !c.expected.target) throw new Error(`resolve-eval: ${c.id}: update needs a target`);
    if (wants === "merge" && c.expected.targets?.length !== 2) throw new Error(`resolve-eval: ${c.id}: merge needs 2`);
    if (c.split !== "tune" && c.split !== "holdout")
      throw new Error(`resolve-eval: ${c.id}: split must be tune or holdout`);
  }
  return fixture;
}

/** A corpus entry as the CFB it becomes (authoritative, user approved). */
export function draftOf(c: TEvalCorpusEntry): TCfbDraft {
  return testCfb({ domain: c.domain, title: c.title, summary: c.summary, tags: c.tags, entities: c.entities });
}

function isCorrect(expected: TEvalCase["expected"], actual: TCaseResult["actual"]): boolean {
  if (expected.decision !== actual.decision) return false;
  switch (expected.decision) {
    case "create":
      return true;
    case "review":
      // A review without a named CFB (a proposal with no subject) is right whatever it compares with.
      return expected.target === undefined || expected.target === actual.target;
    case "merge": {
      const want = [...(expected.targets ?? [])].sort();
      const got = [...actual.merge].sort();
      return want.length === got.length && want.every((k, i) => k === got[i]);
    }
    default:
      return expected.target === actual.target;
  }
}

/**
 * Harmful: knowledge written without a person's look that the label says is wrong: an update or
 * a merge where a review or a new CFB was due, or of a CFB the label does not name (an unrelated
 * one, the wrong member of a pair), or a new CFB for a proposal that restates one (a duplicate).
 */
function isHarmful(c: TEvalCase, actual: TCaseResult["actual"]): boolean {
  const named = new Set([c.expected.target, ...(c.expected.targets ?? [])].filter((k) => k !== undefined));
  if (actual.decision === "update" || actual.decision === "merge")
    return (
      c.expected.decision === "review" ||
      c.expected.decision === "create" ||
      [actual.target, ...actual.merge].some((k) => k !== null && !named.has(k))
    );
  return actual.decision === "create" && c.expected.decision === "update";
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round((sorted[i] as number) * 100) / 100;
}

/** The evaluation set's texts as noise sources: its CFBs lend their prose, its proposals their words. */
export function noiseSources(fixture: TEvalFixture): { prose: TSourceText[]; others: TSourceText[] } {
  return {
    prose: fixture.corpus.map((c) => ({
      domain: c.domain,
      title: c.title,
      summary: c.summary,
      tags: c.tags,
      entities: c.entities,
    })),
    others: fixture.cases.map((c) => ({
      domain: c.proposal.domain,
      title: c.proposal.title,
      summary: c.proposal.delta_summary,
      tags: [...c.proposal.tags],
      entities: [...c.proposal.entities],
    })),
  };
}

function emptyConfusion(): TConfusion {
  const row = () => Object.fromEntries(RESOLVE_DECISIONS.map((d) => [d, 0])) as Record<TResolveDecisionKind, number>;
  return Object.fromEntries(RESOLVE_DECISIONS.map((d) => [d, row()])) as TConfusion;
}

const tally = (total: number, correct: number): TTally => ({
  total,
  correct,
  accuracy: total === 0 ? 1 : correct / total,
});

export type TEvalOptions = {
  fixture?: string;
  topScores?: number;
  /** Noise CFBs imported around the corpus (half before it, half after). */
  noise?: number;
  split?: TEvalSplit | "all";
  /** Hybrid mode: nearest neighbours and their similarity from this semantic search. */
  semantic?: (repos: ReturnType<typeof createRepositories>) => Promise<TSemanticSearch>;
  /** Called with progress lines (imports take seconds at 100k). */
  progress?: (line: string) => void;
};

/** Runs the cases of the fixture against a fresh temp database; the database is removed after. */
export async function runEvaluation(opts: TEvalOptions = {}): Promise<TEvaluation> {
  const started = performance.now();
  const fixture = loadFixture(opts.fixture);
  const topScores = opts.topScores ?? 3;
  const split = opts.split ?? "all";
  const noiseCount = opts.noise ?? 0;
  const sources = noiseSources(fixture);
  const noise = noiseCount > 0 ? realisticNoise(noiseCount, sources.prose, sources.others) : [];
  const database = await createTestDatabase("resolve-eval");
  const db = await createPrismaClient(database.url);
  try {
    const repos = createRepositories(db);
    const importStarted = performance.now();
    const half = Math.floor(noise.length / 2);
    await repos.cfbs.import(noise.slice(0, half));
    const ids = await repos.cfbs.import(fixture.corpus.map(draftOf));
    await repos.cfbs.import(noise.slice(half));
    await repos.cfbs.index.sync();
    const importMs = performance.now() - importStarted;
    opts.progress?.(`imported ${fixture.corpus.length} + ${noise.length} CFBs in ${(importMs / 1000).toFixed(1)} s`);
    const semantic = opts.semantic ? await opts.semantic(repos) : undefined;
    const keyOf = new Map(ids.map((id, i) => [id, (fixture.corpus[i] as TEvalCorpusEntry).key]));
    const key = (id: string | null) => (id === null ? null : (keyOf.get(id) ?? id));

    const results: TCaseResult[] = [];
    const times: number[] = [];
    for (const c of fixture.cases.filter((x) => split === "all" || x.split === split)) {
      const caseStarted = performance.now();
      const knowledge = {
        candidates: repos.cfbs.candidates,
        candidatesByIds: repos.cfbs.index.candidatesByIds,
        semantic,
      };
      const candidates = await resolveCandidates(knowledge, c.proposal, CANDIDATE_LIMIT);
      const outcome = resolveOutcome(c.proposal, candidates, null, { semanticScale: semantic?.scale() });
      const ms = performance.now() - caseStarted;
      times.push(ms);
      const actual = {
        decision: outcome.decision,
        target: key(outcome.target_cfb_id),
        merge: outcome.merge_cfb_ids.map((id) => key(id) as string),
      };
      const correct = isCorrect(c.expected, actual);
      results.push({
        id: c.id,
        category: c.category,
        expected: c.expected,
        actual,
        correct,
        wrong_target: !correct && c.expected.decision === actual.decision,
        harmful: isHarmful(c, actual),
        terms: buildCandidateQuery(c.proposal).terms,
        top: outcome.scores.slice(0, topScores).map((s) => ({
          key: key(s.cfb_id) as string,
          score: s.score,
          components: s.components,
          flags: s.flags,
        })),
        reason_codes: outcome.reason_codes,
        ms,
      });
    }
    times.sort((a, b) => a - b);
    const confusion = emptyConfusion();
    for (const r of results) confusion[r.expected.decision][r.actual.decision] += 1;
    const perClass = Object.fromEntries(
      RESOLVE_DECISIONS.map((d) => {
        const of = results.filter((r) => r.expected.decision === d);
        return [d, tally(of.length, of.filter((r) => r.correct).length)];
      }),
    ) as Record<TResolveDecisionKind, TTally>;
    const categories = [...new Set(results.map((r) => r.category))];
    const perCategory = Object.fromEntries(
      categories.map((cat) => {
        const of = results.filter((r) => r.category === cat);
        return [cat, tally(of.length, of.filter((r) => r.correct).length)];
      }),
    );
    const correct = results.filter((r) => r.correct).length;
    return {
      corpus: fixture.corpus.length,
      noise: noise.length,
      split,
      cases: results.length,
      correct,
      accuracy: results.length === 0 ? 0 : correct / results.length,
      perClass,
      perCategory,
      confusion,
      misses: results.filter((r) => !r.correct),
      harmful: results.filter((r) => r.harmful).length,
      results,
      latency: { p50: percentile(times, 50), p99: percentile(times, 99) },
      ms: { total: performance.now() - started, import: importMs },
    };
  } finally {
    await db.$disconnect();
    database.cleanup();
  }
}

/** A labelled case scored once, decidable under any rule (the fit's unit). */
export type TFitCase = {
  id: string;
  category: string;
  split: TEvalSplit;
  correct(rule: TDecisionRule): { correct: boolean; harmful: boolean };
};

/**
 * Every case of a fixture with its candidates scored (hybrid when `semantic` is given), ready to
 * be decided under many rules: the scoring, the expensive part, runs once.
 */
export async function fitCases(opts: Pick<TEvalOptions, "fixture" | "semantic" | "progress">): Promise<TFitCase[]> {
  const fixture = loadFixture(opts.fixture);
  const database = await createTestDatabase("resolve-fit");
  const db = await createPrismaClient(database.url);
  try {
    const repos = createRepositories(db);
    const ids = await repos.cfbs.import(fixture.corpus.map(draftOf));
    await repos.cfbs.index.sync();
    const semantic = opts.semantic ? await opts.semantic(repos) : undefined;
    const scale: TSemanticScale | undefined = semantic?.scale();
    const keyOf = new Map(ids.map((id, i) => [id, (fixture.corpus[i] as TEvalCorpusEntry).key]));
    const key = (id: string | null) => (id === null ? null : (keyOf.get(id) ?? id));
    const out: TFitCase[] = [];
    for (const c of fixture.cases) {
      const knowledge = {
        candidates: repos.cfbs.candidates,
        candidatesByIds: repos.cfbs.index.candidatesByIds,
        semantic,
      };
      const candidates = await resolveCandidates(knowledge, c.proposal, CANDIDATE_LIMIT);
      const profiles = new Map();
      const scored = scoreCandidates(c.proposal, candidates, profiles, scale);
      const decider = decideOptions(c.proposal, profiles);
      out.push({
        id: c.id,
        category: c.category,
        split: c.split,
        correct(rule) {
          const rescored = scored.map((s) => ({ ...s, score: compositeScore(s.components, rule) }));
          const outcome = decider.decide(rescored, null, rule);
          const actual = {
            decision: outcome.decision,
            target: key(outcome.target_cfb_id),
            merge: outcome.merge_cfb_ids.map((id) => key(id) as string),
          };
          return { correct: isCorrect(c.expected, actual), harmful: isHarmful(c, actual) };
        },
      });
    }
    opts.progress?.(`${fixture.cases.length} cases of ${path.basename(opts.fixture ?? DEFAULT_FIXTURE)} scored`);
    return out;
  } finally {
    await db.$disconnect();
    database.cleanup();
  }
}
