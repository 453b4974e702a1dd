import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadWorkflowOrThrow, UMBRA_BEAT_YAML } from "../src";
import { drive } from "./drive";

const EXAMPLES = path.resolve(import.meta.dirname, "../examples");
const example = (name: string) => loadWorkflowOrThrow(readFileSync(path.join(EXAMPLES, name), "utf8"));

describe("examples", () => {
  it("every example file loads", () => {
    const files = readdirSync(EXAMPLES).filter((f) => f.endsWith(".yaml"));
    expect(files.sort()).toEqual([
      "conditional-quality-gate.yaml",
      "custom-checkpoint.yaml",
      "early-exit-on-issues.yaml",
      "review-before-major-changes.yaml",
      "simple-approval.yaml",
      "skip-optional-phases.yaml",
      "umbra-beat.yaml",
    ]);
    for (const file of files) expect(() => example(file), file).not.toThrow();
  });

  it("UMBRA_BEAT_YAML is examples/umbra-beat.yaml, byte for byte (regenerate: pnpm checkpoint:examples)", () => {
    expect(UMBRA_BEAT_YAML).toBe(readFileSync(path.join(EXAMPLES, "umbra-beat.yaml"), "utf8"));
  });

  it("simple-approval: Continue, then done", () => {
    const { state, ran } = drive(example("simple-approval.yaml"), { decisions: ["Continue"] });
    expect(ran).toEqual(["discovery", "planning"]);
    expect(state).toMatchObject({ status: "done", exit_code: 0 });
  });

  it("custom-checkpoint: redo, skip 3 and 4 with feedback", () => {
    const { state, ran } = drive(example("custom-checkpoint.yaml"), {
      decisions: ["Redo This Phase", { label: "Skip Next 2 Phases", feedback: "Not needed for MVP" }],
      host: () => ({ data: { subagents_spawned: 2 } }),
    });
    expect(ran).toEqual(["phase_1", "phase_2", "phase_2", "phase_5"]);
    expect(state.status).toBe("done");
    expect(state.context.skip_phases).toEqual(["phase_3", "phase_4"]);
  });

  it("review-before-major-changes: revise the plan twice, then proceed", () => {
    const { state, ran } = drive(example("review-before-major-changes.yaml"), {
      decisions: ["Revise plan", "Revise plan", "Looks good, proceed"],
    });
    expect(ran).toEqual(["planning", "planning", "planning", "coding"]);
    expect(state.context.phases.iteration_counts).toEqual({ planning: 3, implementation: 3, coding: 1 });
    expect(state.status).toBe("done");
  });

  it("conditional-quality-gate: shown for production features, fixed once", () => {
    const { state, ran } = drive(example("conditional-quality-gate.yaml"), {
      start: { context: { feature: { flags: ["backend", "production"] } } },
      decisions: ["No, fix tests", "Yes, continue"],
    });
    expect(ran).toEqual(["implementation", "testing", "testing", "release"]);
    expect(state.status).toBe("done");
  });

  it("conditional-quality-gate: not shown for other features", () => {
    const { state, ran } = drive(example("conditional-quality-gate.yaml"), {
      start: { context: { feature: { flags: ["backend"] } } },
    });
    expect(ran).toEqual(["implementation", "testing", "release"]);
    expect(state.context.checkpoints).toEqual([]);
  });

  it("skip-optional-phases: skip tuning with feedback", () => {
    const { state, ran } = drive(example("skip-optional-phases.yaml"), {
      decisions: [{ label: "Skip for now", feedback: "after launch" }],
    });
    expect(ran).toEqual(["implementation", "optimization", "documentation"]);
    expect(state.context.checkpoints[0]).toMatchObject({ skipped: ["performance_tuning"], feedback: "after launch" });
  });

  it("early-exit-on-issues: retry once, then abort with a reason (exit 2)", () => {
    const { state, ran } = drive(example("early-exit-on-issues.yaml"), {
      host: (phase) => (phase === "validation" ? { data: { critical_issues: 3 } } : undefined),
      decisions: ["Fix and retry", { label: "Abort workflow", feedback: "too many issues" }],
    });
    expect(ran).toEqual(["implementation", "validation", "validation"]);
    expect(state).toMatchObject({ status: "aborted", exit_code: 2, next: { kind: "finished", exit_code: 2 } });
    expect(state.context.checkpoints.at(-1)).toEqual({
      phase: "validation",
      decision: "abort",
      feedback: "too many issues",
      timestamp: expect.any(String),
    });
  });

  it("early-exit-on-issues: no issues, no checkpoint", () => {
    const { state } = drive(example("early-exit-on-issues.yaml"), { host: () => ({ data: { critical_issues: 0 } }) });
    expect(state.status).toBe("done");
  });

  describe("umbra-beat", () => {
    const umbra = loadWorkflowOrThrow(UMBRA_BEAT_YAML);
    const host = (phase: string, run: number) =>
      phase === "resolve_pending" ? { variables: { pending_count: run * 3 }, data: { pending: run * 3 } } : undefined;

    it("Continue runs every step in order", () => {
      const { state, ran, states } = drive(umbra, { host, decisions: ["Continue"] });
      expect(ran).toEqual(["collect_triggers", "resolve_pending", "promote", "recompute_stats"]);
      const review = states.find((s) => s.pending !== null)?.pending;
      expect(review).toEqual({
        phase_id: "review",
        kind: "custom",
        prompt: "Review 3 proposals before promoting?",
        files: ["out/umbra/beat-summary.md"],
        options: [
          { label: "Continue", with_feedback: false },
          { label: "Repeat resolve", with_feedback: false },
          { label: "Skip promotion", with_feedback: true },
          { label: "Abort", with_feedback: false },
        ],
      });
      expect(state).toMatchObject({ status: "done", exit_code: 0 });
    });

    it("Repeat resolve, then Skip promotion with feedback", () => {
      const { state, ran, states } = drive(umbra, {
        host,
        decisions: ["Repeat resolve", { label: "Skip promotion", feedback: "wait for Monday" }],
      });
      expect(ran).toEqual(["collect_triggers", "resolve_pending", "resolve_pending", "recompute_stats"]);
      expect(states.filter((s) => s.pending).map((s) => s.pending?.prompt)).toEqual([
        "Review 3 proposals before promoting?",
        "Review 6 proposals before promoting?",
      ]);
      expect(state.context.phases.iteration_counts).toEqual({
        collect_triggers: 1,
        resolve_pending: 2,
        review: 2,
        recompute_stats: 1,
      });
      expect(state.context.pending).toBe(6);
      expect(state.context.checkpoints.map((c) => c.decision)).toEqual(["repeat_phase", "skip_phases"]);
    });

    it("Abort ends with exit code 2 before promotion", () => {
      const { state, ran } = drive(umbra, { host, decisions: ["Abort"] });
      expect(ran).toEqual(["collect_triggers", "resolve_pending"]);
      expect(state).toMatchObject({ status: "aborted", exit_code: 2, abort: { reason: "user" } });
    });
  });
});
