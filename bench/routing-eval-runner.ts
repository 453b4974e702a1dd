// The routing evaluation (docs/routing.md, ## Evaluation set): every message of
// bench/fixtures/routing-eval.json is routed as the first turn of a new thread (no previous
// domain, no domainHints, no procedure) by the selector step's router, and compared with the
// domain a person would expect. Pure and synchronous: used by `pnpm bench:routing`
// (bench/routing-eval.ts) and by packages/control-plane/test/routing-eval.test.ts.
import { readFileSync } from "node:fs";
import path from "node:path";
import { routeTurn, type TRoutingConfig } from "@solserver/engine";

export const DEFAULT_ROUTING_FIXTURE = path.join(import.meta.dirname, "fixtures", "routing-eval.json");

export type TRoutingSplit = "tune" | "holdout";
export type TRoutingCase = {
  id: string;
  /** The batch the case was written in (docs/routing.md, ## Evaluation set). */
  round: number;
  split: TRoutingSplit;
  message: string;
  expected: string;
  categories: string[];
};
export type TRoutingFixture = { description: string; domains: string[]; cases: TRoutingCase[] };

export type TRoutingCaseResult = TRoutingCase & {
  actual: string;
  /** The domains that scored, best first, with what they matched. */
  scores: { domain: string; score: number; hits: string[] }[];
};

export type TRoutingEvaluation = {
  split: TRoutingSplit;
  /** The round evaluated, or null for all of them. */
  round: number | null;
  cases: number;
  correct: number;
  accuracy: number;
  /** Per expected domain: correct / total. */
  perDomain: Record<string, { correct: number; total: number }>;
  /** Per category of message (a case counts in each of its categories). */
  perCategory: Record<string, { correct: number; total: number }>;
  /** confusion[expected][actual] */
  confusion: Record<string, Record<string, number>>;
  misses: TRoutingCaseResult[];
};

/** The fixture, checked: unique ids, the split alternating by id, labels among its domains. */
export function loadRoutingFixture(file = DEFAULT_ROUTING_FIXTURE): TRoutingFixture {
  const fixture = JSON.parse(readFileSync(file, "utf8")) as TRoutingFixture;
  const ids = new Set<string>();
  for (const c of fixture.cases) {
    if (ids.has(c.id)) throw new Error(`${file}: duplicate id ${c.id}`);
    ids.add(c.id);
    const n = Number(c.id.replace(/^\D+/, ""));
    const split: TRoutingSplit = n % 2 === 1 ? "tune" : "holdout";
    if (c.split !== split) throw new Error(`${file}: ${c.id} must be in the ${split} split (odd ids tune)`);
    if (!fixture.domains.includes(c.expected)) throw new Error(`${file}: ${c.id} expects unknown domain ${c.expected}`);
    if (!Number.isInteger(c.round) || c.round < 1) throw new Error(`${file}: ${c.id} needs a round (1, 2, …)`);
  }
  return fixture;
}

const tally = () => ({ correct: 0, total: 0 });

/** Routes every case of `split` (of one round, or all) with `config` and scores the routes against the labels. */
export function runRoutingEvaluation(
  config: TRoutingConfig,
  split: TRoutingSplit,
  fixture: TRoutingFixture = loadRoutingFixture(),
  round: number | null = null,
): TRoutingEvaluation {
  const cases = fixture.cases.filter((c) => c.split === split && (round === null || c.round === round));
  const perDomain: TRoutingEvaluation["perDomain"] = {};
  const perCategory: TRoutingEvaluation["perCategory"] = {};
  const confusion: TRoutingEvaluation["confusion"] = {};
  for (const d of fixture.domains) {
    perDomain[d] = tally();
    confusion[d] = Object.fromEntries(fixture.domains.map((a) => [a, 0]));
  }
  const misses: TRoutingCaseResult[] = [];
  let correct = 0;
  const count = (tallies: Record<string, { correct: number; total: number }>, key: string, ok: boolean) => {
    const t = tallies[key] ?? tally();
    t.total++;
    if (ok) t.correct++;
    tallies[key] = t;
  };
  for (const c of cases) {
    const route = routeTurn(config, {
      message: c.message,
      previousDomain: null,
      hintHistory: [],
      procedureSystem: null,
    });
    const ok = route.domain === c.expected;
    if (ok) correct++;
    count(perDomain, c.expected, ok);
    for (const category of c.categories) count(perCategory, category, ok);
    const row = confusion[c.expected] ?? {};
    row[route.domain] = (row[route.domain] ?? 0) + 1;
    confusion[c.expected] = row;
    if (!ok) misses.push({ ...c, actual: route.domain, scores: route.scores });
  }
  return {
    split,
    round,
    cases: cases.length,
    correct,
    accuracy: cases.length === 0 ? 0 : correct / cases.length,
    perDomain,
    perCategory,
    confusion,
    misses,
  };
}
