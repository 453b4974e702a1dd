// Resolve's accuracy on the labelled evaluation set (bench/fixtures/resolve-eval.json): a ~50-CFB
// team knowledge base in a fresh SQLite file, ~65 proposals labelled by what a careful reviewer
// would want, run through the real pipeline (query → FTS5 candidates → scores → decision). The
// same runner backs `pnpm bench:resolve-eval`, which prints the misses with their components.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// Relative import, test only: the runner lives with the benchmarks (it needs @solserver/db, which
// this pure package must not depend on).
import { runEvaluation, type TEvaluation } from "../../../bench/resolve-eval-runner";

const TARGET = 0.9;

let evaluation: TEvaluation;
beforeAll(async () => {
  evaluation = await runEvaluation();
}, 20_000);
afterAll(() => {
  if (!evaluation || evaluation.accuracy >= TARGET) return;
  // On failure, say which cases missed (details: `pnpm bench:resolve-eval`).
  const lines = evaluation.misses.map(
    (m) => `${m.id}: expected ${m.expected.decision}, got ${m.actual.decision} (top ${m.top[0]?.score ?? 0})`,
  );
  console.warn(`resolve evaluation misses:\n${lines.join("\n")}`);
});

describe("resolve evaluation set", () => {
  it("covers every decision class with a labelled case", () => {
    for (const kind of ["update", "review", "create", "merge"] as const) {
      expect(evaluation.perClass[kind].total).toBeGreaterThan(0);
    }
    expect(evaluation.cases).toBeGreaterThanOrEqual(60);
  });

  it(`decides at least ${TARGET * 100}% of the cases as a careful reviewer would`, () => {
    expect(evaluation.accuracy).toBeGreaterThanOrEqual(TARGET);
  });

  it("finishes well within the test budget", () => {
    expect(evaluation.ms.total).toBeLessThan(20_000);
  });
});
