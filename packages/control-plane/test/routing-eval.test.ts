// The shipped routing config on the routing evaluation set (bench/fixtures/routing-eval.json,
// docs/routing.md "Evaluation set"): messages typed the way people type, labelled with the domain
// a person would expect, split by id into a tuning half (odd) and a held-out half (even). The
// same runner backs `pnpm bench:routing`, which prints the misses.
//
// The issue's target is >= 95 % on the held-out half. It is not met: round 3's held-out half,
// written blind to the router and measured once, read 88.3 %; docs/routing.md keeps every figure.
// These tests hold what was reached: the tuning half at the target, and floors under the
// held-out figures (as measured now, less about one miss) so that a config change that makes
// routing worse fails here.
import { describe, expect, it } from "vitest";
import { loadRoutingFixture, runRoutingEvaluation } from "../../../bench/routing-eval-runner";
import { DEFAULT_ROUTING } from "../src/routing/default-routing";

const TARGET = 0.95;
/** What the held-out half of all rounds reads with the shipped config (92.7 %), less about two misses. */
const HOLDOUT_FLOOR = 0.91;
/** Round 3's held-out half (written blind, 90.0 % now), less about one miss. */
const ROUND3_HOLDOUT_FLOOR = 0.88;

const fixture = loadRoutingFixture();
const holdout = runRoutingEvaluation(DEFAULT_ROUTING, "holdout", fixture);
const tune = runRoutingEvaluation(DEFAULT_ROUTING, "tune", fixture);
const round3 = runRoutingEvaluation(DEFAULT_ROUTING, "holdout", fixture, 3);
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

  it(`round 3's held-out half (written blind to the router): at least ${ROUND3_HOLDOUT_FLOOR * 100} %`, () => {
    expect(round3.cases).toBe(60);
    expect(round3.accuracy, misses(round3).join("\n")).toBeGreaterThanOrEqual(ROUND3_HOLDOUT_FLOOR);
  });

  it("never sends a message labelled for the RV desk to another named domain (ops, solserver)", () => {
    const rv = [...holdout.misses, ...tune.misses].filter((m) => m.expected === "rv_service");
    expect(rv.filter((m) => m.actual !== "general").map((m) => m.id)).toEqual([]);
  });
});
