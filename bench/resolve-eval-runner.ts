// The Umbra resolve evaluation (seed 001 §6), shared by `pnpm bench:resolve-eval` (a report) and
// packages/resolve/test/evaluation.test.ts (the accuracy bar): a small team knowledge base is
// imported into a fresh SQLite file, then every labelled proposal goes through the real pipeline
// (buildCandidateQuery → the FTS5 candidate search → scoreCandidates → decide, no previous
// decision) and its decision is compared with the label a careful reviewer gave it.
import { readFileSync } from "node:fs";
import path from "node:path";
import {
  RESOLVE_DECISIONS,
  type TCfbDraft,
  type TResolveDecisionKind,
  type TResolveProposal,
  type TScoredCandidate,
} from "@solserver/contracts";
import { createPrismaClient, createRepositories } from "@solserver/db";
import { createTestDatabase } from "@solserver/db/testing";
import { buildCandidateQuery, decide, scoreCandidates } from "@solserver/resolve";

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

export type TEvalCase = {
  id: string;
  category: string;
  proposal: TResolveProposal;
  /** `target` (update, review) and `targets` (merge) are corpus keys. */
  expected: { decision: TResolveDecisionKind; target?: string; targets?: string[] };
  note?: string;
};

export type TEvalFixture = { corpus: TEvalCorpusEntry[]; cases: TEvalCase[] };

/** A scored candidate with its corpus key instead of the generated CFB id. */
export type TEvalScore = { key: string; score: number; components: TScoredCandidate["components"] };

export type TCaseResult = {
  id: string;
  category: string;
  expected: TEvalCase["expected"];
  actual: { decision: TResolveDecisionKind; target: string | null; merge: string[] };
  correct: boolean;
  /** The decision class was right but it named the wrong CFB(s). */
  wrong_target: boolean;
  terms: string[];
  top: TEvalScore[];
  reason_codes: string[];
  ms: number;
};

type TTally = { total: number; correct: number; accuracy: number };
type TConfusion = Record<TResolveDecisionKind, Record<TResolveDecisionKind, number>>;

export type TEvaluation = {
  corpus: number;
  cases: number;
  correct: number;
  accuracy: number;
  /** By expected decision. */
  perClass: Record<TResolveDecisionKind, TTally>;
  perCategory: Record<string, TTally>;
  /** confusion[expected][actual]: counts by decision class only (a wrong target is on the diagonal). */
  confusion: TConfusion;
  misses: TCaseResult[];
  results: TCaseResult[];
  /** Wall time of the whole evaluation, and of the import alone. */
  ms: { total: number; import: number };
};

export function loadFixture(file: string = DEFAULT_FIXTURE): TEvalFixture {
  const fixture = JSON.parse(readFileSync(file, "utf8")) as TEvalFixture;
  const keys = new Set(fixture.corpus.map((c) => c.key));
  if (keys.size !== fixture.corpus.length) throw new Error("resolve-eval: duplicate corpus key");
  for (const c of fixture.cases) {
    if (!RESOLVE_DECISIONS.includes(c.expected.decision)) throw new Error(`resolve-eval: ${c.id}: bad decision`);
    const named = [c.expected.target, ...(c.expected.targets ?? [])].filter((k): k is string => k !== undefined);
    for (const k of named) if (!keys.has(k)) throw new Error(`resolve-eval: ${c.id}: unknown corpus key ${k}`);
    const wants = c.expected.decision;
    if ((wants === "update" || wants === "review") && !c.expected.target)
      throw new Error(`resolve-eval: ${c.id}: ${wants} needs a target`);
    if (wants === "merge" && c.expected.targets?.length !== 2) throw new Error(`resolve-eval: ${c.id}: merge needs 2`);
  }
  return fixture;
}

function draftOf(c: TEvalCorpusEntry): TCfbDraft {
  return {
    domain: c.domain,
    kind: "authoritative",
    confidence: 0.9,
    title: c.title,
    summary: c.summary,
    text: null,
    tags: c.tags,
    entities: c.entities,
    trust_tier: "user_approved",
    source_refs: [],
  };
}

function isCorrect(expected: TEvalCase["expected"], actual: TCaseResult["actual"]): boolean {
  if (expected.decision !== actual.decision) return false;
  switch (expected.decision) {
    case "create":
      return true;
    case "merge": {
      const want = [...(expected.targets ?? [])].sort();
      const got = [...actual.merge].sort();
      return want.length === got.length && want.every((k, i) => k === got[i]);
    }
    default:
      return expected.target === actual.target;
  }
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

/** Runs every case of the fixture against a fresh temp database; the database is removed after. */
export async function runEvaluation(opts: { fixture?: string; topScores?: number } = {}): Promise<TEvaluation> {
  const started = performance.now();
  const fixture = loadFixture(opts.fixture);
  const topScores = opts.topScores ?? 3;
  const database = await createTestDatabase("resolve-eval");
  const db = await createPrismaClient(database.url);
  try {
    const repos = createRepositories(db);
    const importStarted = performance.now();
    const ids = await repos.cfbs.import(fixture.corpus.map(draftOf));
    const importMs = performance.now() - importStarted;
    const keyOf = new Map(ids.map((id, i) => [id, (fixture.corpus[i] as TEvalCorpusEntry).key]));
    const key = (id: string | null) => (id === null ? null : (keyOf.get(id) ?? id));

    const results: TCaseResult[] = [];
    for (const c of fixture.cases) {
      const caseStarted = performance.now();
      const query = buildCandidateQuery(c.proposal);
      const candidates = await repos.cfbs.candidates(query, { limit: CANDIDATE_LIMIT });
      const outcome = decide(scoreCandidates(c.proposal, candidates));
      const ms = performance.now() - caseStarted;
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
        terms: query.terms,
        top: outcome.scores.slice(0, topScores).map((s) => ({
          key: key(s.cfb_id) as string,
          score: s.score,
          components: s.components,
        })),
        reason_codes: outcome.reason_codes,
        ms,
      });
    }

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
      cases: results.length,
      correct,
      accuracy: results.length === 0 ? 0 : correct / results.length,
      perClass,
      perCategory,
      confusion,
      misses: results.filter((r) => !r.correct),
      results,
      ms: { total: performance.now() - started, import: importMs },
    };
  } finally {
    await db.$disconnect();
    database.cleanup();
  }
}
