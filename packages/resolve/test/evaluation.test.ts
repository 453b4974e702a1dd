// Resolve's accuracy on the labelled evaluation set (bench/fixtures/resolve-eval.json): a
// 71-CFB team knowledge base in a fresh SQLite file and ~230 proposals labelled by what a careful
// reviewer would want, run through the real pipeline (the candidate index → resolveOutcome). The
// figure that counts is the held-out half's (the tuning half shaped the algorithm); the same
// runner backs `pnpm bench:resolve-eval`, which prints the misses with their components and runs
// the 100k size too.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// Relative import, test only: the runner lives with the benchmarks (it needs @solserver/db, which
// this pure package must not depend on).
import { runEvaluation, type TEvaluation } from "../../../bench/resolve-eval-runner";

// Bars a little under what is measured (docs/resolve.md#evaluation-set, lexical mode): 80.9 % held
// out alone and 78.7 % inside 10,000 noise CFBs, 4 harmful decisions. The set was relabelled for
// issue 33 (a changed value is a review) and "harmful" now also counts an update where a review
// or a new CFB was due, so these are lower than the figures before; the target (95 %, 0
// harmful) is not met, and these bars only keep what was reached.
const TARGET = 0.78;
const TARGET_10K = 0.75;
const MAX_HARMFUL = 4;

let alone: TEvaluation;
let noisy: TEvaluation;
beforeAll(async () => {
  alone = await runEvaluation({ split: "holdout" });
  noisy = await runEvaluation({ split: "holdout", noise: 10_000 });
}, 120_000);
afterAll(() => {
  for (const e of [alone, noisy]) {
    if (!e) continue;
    const lines = e.misses.map(
      (m) => `${m.id}: expected ${m.expected.decision}, got ${m.actual.decision}${m.harmful ? " (HARMFUL)" : ""}`,
    );
    if (e.accuracy < TARGET || e.harmful > MAX_HARMFUL)
      console.warn(`resolve evaluation (${e.noise} noise) misses:\n${lines.join("\n")}`);
  }
});

describe("resolve evaluation set (held-out half)", () => {
  it("covers every decision class with held-out cases", () => {
    for (const kind of ["update", "review", "create", "merge"] as const) {
      expect(alone.perClass[kind].total).toBeGreaterThan(0);
    }
    expect(alone.cases).toBeGreaterThanOrEqual(80);
    expect(alone.split).toBe("holdout");
  });

  it(`decides at least ${TARGET * 100}% of the held-out cases as a careful reviewer would`, () => {
    expect(alone.accuracy).toBeGreaterThanOrEqual(TARGET);
  });

  it(`writes knowledge the label says is wrong (harmful) at most ${MAX_HARMFUL} times`, () => {
    expect(alone.harmful).toBeLessThanOrEqual(MAX_HARMFUL);
    expect(noisy.harmful).toBeLessThanOrEqual(MAX_HARMFUL);
  });

  it(`stays at ${TARGET_10K * 100}% or more inside 10,000 noise CFBs of the same vocabulary`, () => {
    expect(noisy.noise).toBe(10_000);
    expect(noisy.accuracy).toBeGreaterThanOrEqual(TARGET_10K);
  });
});
