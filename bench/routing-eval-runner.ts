// The routing evaluation (docs/routing.md, ## Evaluation): every message of a labelled set is
// routed as the first turn of a new thread (no previous domain, no domainHints, no procedure) and
// compared with the domain a person would expect. Two sets: bench/fixtures/routing-eval.json
// (written in rounds; odd ids tune, even ids held out) and bench/fixtures/routing-blind.json
// (written blind to the router before issue 34; its own tune/holdout split). Pure and synchronous:
// used by `pnpm bench:routing` and by packages/control-plane/test/routing-eval.test.ts.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { TDomainProbability } from "@solserver/engine";

export const ROUTING_FIXTURES = {
  eval: path.join(import.meta.dirname, "fixtures", "routing-eval.json"),
  blind: path.join(import.meta.dirname, "fixtures", "routing-blind.json"),
} as const;

export type TRoutingSplit = "tune" | "holdout";
type TRoutingCase = {
  id: string;
  split: TRoutingSplit;
  message: string;
  expected: string;
  /** What kind of message it is (typo, slang, a language, …): the set's categories, or its lang and style. */
  categories: string[];
};
export type TRoutingFixture = { description: string; domains: string[]; cases: TRoutingCase[] };

/** A router under evaluation: the domain it picks for a new thread's first message, and its ranking. */
export type TRouteFn = (message: string) => { domain: string; ranking: TDomainProbability[] };

type TRoutingCaseResult = TRoutingCase & { actual: string; ranking: TDomainProbability[] };

export type TRoutingEvaluation = {
  split: TRoutingSplit;
  cases: number;
  correct: number;
  accuracy: number;
  /** Per expected domain, and per category (a case counts in each of its categories): correct / total. */
  perDomain: Record<string, { correct: number; total: number }>;
  perCategory: Record<string, { correct: number; total: number }>;
  /** confusion[expected][actual] */
  confusion: Record<string, Record<string, number>>;
  misses: TRoutingCaseResult[];
};

type TRawCase = Omit<TRoutingCase, "categories"> & { categories?: string[]; lang?: string; style?: string };

/** A labelled set, checked: unique ids, both splits, labels among its domains. */
export function loadRoutingFixture(file: string): TRoutingFixture {
  const raw = JSON.parse(readFileSync(file, "utf8")) as { description: string; domains?: string[]; cases: TRawCase[] };
  const domains = raw.domains ?? [...new Set(raw.cases.map((c) => c.expected))];
  const ids = new Set<string>();
  const cases = raw.cases.map((c): TRoutingCase => {
    if (ids.has(c.id)) throw new Error(`${file}: duplicate id ${c.id}`);
    ids.add(c.id);
    if (c.split !== "tune" && c.split !== "holdout") throw new Error(`${file}: ${c.id} has no split`);
    if (!domains.includes(c.expected)) throw new Error(`${file}: ${c.id} expects unknown domain ${c.expected}`);
    const categories = c.categories ?? [c.lang, c.style].filter((x): x is string => typeof x === "string");
    return { id: c.id, split: c.split, message: c.message, expected: c.expected, categories };
  });
  return { description: raw.description, domains, cases };
}

const tally = () => ({ correct: 0, total: 0 });

/** Routes every case of `split` and scores the routes against the labels. */
export function runRoutingEvaluation(
  route: TRouteFn,
  fixture: TRoutingFixture,
  split: TRoutingSplit,
): TRoutingEvaluation {
  const cases = fixture.cases.filter((c) => c.split === split);
  const perDomain: TRoutingEvaluation["perDomain"] = {};
  const perCategory: TRoutingEvaluation["perCategory"] = {};
  const confusion: TRoutingEvaluation["confusion"] = {};
  for (const d of fixture.domains) {
    perDomain[d] = tally();
    confusion[d] = Object.fromEntries(fixture.domains.map((a) => [a, 0]));
  }
  const count = (tallies: Record<string, { correct: number; total: number }>, key: string, ok: boolean) => {
    const t = tallies[key] ?? tally();
    t.total++;
    if (ok) t.correct++;
    tallies[key] = t;
  };
  const misses: TRoutingCaseResult[] = [];
  let correct = 0;
  for (const c of cases) {
    const { domain, ranking } = route(c.message);
    const ok = domain === c.expected;
    if (ok) correct++;
    count(perDomain, c.expected, ok);
    for (const category of c.categories) count(perCategory, category, ok);
    const row = confusion[c.expected] ?? {};
    row[domain] = (row[domain] ?? 0) + 1;
    confusion[c.expected] = row;
    if (!ok) misses.push({ ...c, actual: domain, ranking });
  }
  return {
    split,
    cases: cases.length,
    correct,
    accuracy: cases.length === 0 ? 0 : correct / cases.length,
    perDomain,
    perCategory,
    confusion,
    misses,
  };
}
