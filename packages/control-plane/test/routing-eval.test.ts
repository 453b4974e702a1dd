// The shipped routing config on the routing evaluation set (bench/fixtures/routing-eval.json,
// docs/routing.md "Evaluation set"): messages typed the way people type, labelled with the domain
// a person would expect, split by id into a tuning half (odd) and a held-out half (even). The
// same runner backs `pnpm bench:routing`, which prints the misses.
//
// The target is ≥ 95 % on the held-out half. It is not met: the held-out halves measured 88.0 %
// (round 1, the first matcher) and 90.2 % (round 2, written after round 1 was spent, measured once
// with the final matcher). The target test below is therefore declared `it.fails`: it runs the
// measurement on every run and turns red the day the target is met, to be made a plain `it`.
// Until then the floor test keeps the held-out figure from sliding back.
import { describe, expect, it } from "vitest";
import { loadRoutingFixture, runRoutingEvaluation } from "../../../bench/routing-eval-runner";
import { DEFAULT_ROUTING } from "../src/routing/default-routing";

const TARGET = 0.95;
/** What the held-out half (all rounds) measured with the shipped config, less one miss or so. */
const HOLDOUT_FLOOR = 0.9;

const fixture = loadRoutingFixture();
const holdout = runRoutingEvaluation(DEFAULT_ROUTING, "holdout", fixture);
const tune = runRoutingEvaluation(DEFAULT_ROUTING, "tune", fixture);
const misses = (e: typeof holdout) => e.misses.map((m) => `${m.id} → ${m.actual}: ${m.message}`);

describe("routing evaluation set", () => {
  it("has at least 60 messages, split alternately by id into two halves of every domain", () => {
    expect(fixture.cases.length).toBeGreaterThanOrEqual(60);
    expect(holdout.cases + tune.cases).toBe(fixture.cases.length);
    expect(Math.abs(holdout.cases - tune.cases)).toBeLessThanOrEqual(1);
    for (const domain of fixture.domains) {
      expect(holdout.perDomain[domain]?.total ?? 0).toBeGreaterThan(0);
      expect(tune.perDomain[domain]?.total ?? 0).toBeGreaterThan(0);
    }
    const categories = new Set(fixture.cases.flatMap((c) => c.categories));
    for (const kind of ["typo", "slang", "plural", "possessive", "full-width", "language", "ambiguous", "spacing"])
      expect(categories).toContain(kind);
  });

  it("tuning half: at least 95 %", () => {
    expect(tune.accuracy, misses(tune).join("\n")).toBeGreaterThanOrEqual(TARGET);
  });

  it(`held-out half: at least the measured floor (${HOLDOUT_FLOOR * 100} %)`, () => {
    expect(holdout.accuracy, misses(holdout).join("\n")).toBeGreaterThanOrEqual(HOLDOUT_FLOOR);
  });

  it.fails("held-out half: at least 95 % (the target, not met yet: docs/routing.md)", () => {
    expect(holdout.accuracy).toBeGreaterThanOrEqual(TARGET);
  });

  it("never sends a message labelled for the RV desk to another named domain (ops, solserver)", () => {
    const rv = [...holdout.misses, ...tune.misses].filter((m) => m.expected === "rv_service");
    expect(rv.filter((m) => m.actual !== "general").map((m) => m.id)).toEqual([]);
  });
});
