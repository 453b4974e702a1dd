import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { executorKinds, expireDecision, loadWorkflowOrThrow, UMBRA_BEAT_YAML } from "../src";
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
      "release-pipeline.yaml",
      "review-before-major-changes.yaml",
      "simple-approval.yaml",
      "skip-optional-phases.yaml",
      "umbra-beat.yaml",
      "webhook-step.yaml",
      "worker-step.yaml",
    ]);
    for (const file of files) expect(() => example(file), file).not.toThrow();
  });

  it("every YAML example in the README loads", () => {
    const readme = readFileSync(path.resolve(import.meta.dirname, "../README.md"), "utf8");
    const blocks = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)].map((match) => match[1] ?? "");
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    for (const yaml of blocks) expect(() => loadWorkflowOrThrow(yaml), yaml.slice(0, 40)).not.toThrow();
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
        assignees: null,
        deadline: null,
        timeout: null,
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

  describe("release-pipeline", () => {
    const release = example("release-pipeline.yaml");

    it("commands with their templates substituted, the lead's checkpoint, then the tag", () => {
      const { state, steps, states } = drive(release, {
        start: { variables: { version: "2.0.0" } },
        decisions: ["Ship"],
      });
      expect(executorKinds(release)).toEqual(["command"]);
      expect(release.notify).toEqual({
        webhook: "https://hooks.example.com/solserver/releases",
        secret_env: "SOLSERVER_WEBHOOK_SECRET_RELEASE",
      });
      expect(steps.map((step) => step.executor?.kind === "command" && step.executor.command.join(" "))).toEqual([
        "pnpm exec tsc --noEmit -p packages/checkpoint",
        "pnpm exec vitest run packages/checkpoint --reporter=junit --outputFile=out/release/junit.xml",
        "pnpm pack --pack-destination ../../out/release/pkg",
        "node packages/checkpoint/examples/release/summary.mjs 2.0.0 out/release/junit.xml out/release/pkg out/release/summary.md",
        "node packages/checkpoint/examples/release/tag.mjs v2.0.0",
      ]);
      expect(steps[2]?.executor).toMatchObject({ cwd: "packages/checkpoint", env: { RELEASE_VERSION: "2.0.0" } });
      expect(steps[3]?.executor).toMatchObject({ artifacts: ["out/release/summary.md"] });
      // The tag step is a dry run unless the run says otherwise.
      expect(steps[4]?.executor).toMatchObject({ env: { RELEASE_CREATE_TAG: "false" } });
      const waiting = states.find((s) => s.pending !== null)?.pending;
      expect(waiting).toMatchObject({
        prompt: "Ship release 2.0.0?",
        assignees: { accounts: ["release-lead@solserver.local"] },
        timeout: { after: "4h", escalate_to: { role: "jam" } },
      });
      expect(state).toMatchObject({ status: "done", exit_code: 0 });
    });

    it("a failed test run is tried once more; a second failure fails the run", () => {
      const { state, ran } = drive(release, {
        host: (phase) => (phase === "test" ? { error: "2 tests failed" } : undefined),
      });
      expect(ran).toEqual(["build", "test", "test"]);
      expect(state).toMatchObject({
        status: "failed",
        exit_code: 1,
        failure: { phase_id: "test", error: "2 tests failed" },
      });
    });

    it("unanswered for 4 hours, the approval escalates to the Jam editors", () => {
      const { states } = drive(release, { decisions: ["Hold"] });
      const waiting = states.find((s) => s.pending !== null);
      if (!waiting?.pending?.deadline) throw new Error("expected a deadline");
      const escalated = expireDecision(release, waiting, { now: waiting.pending.deadline });
      expect(escalated.pending).toMatchObject({ assignees: { role: "jam" }, deadline: null });
    });
  });

  it("webhook-step: the answer's findings pause the run; unanswered, it publishes", () => {
    const workflow = example("webhook-step.yaml");
    const { steps, states } = drive(workflow, {
      host: (phase) => (phase === "style_check" ? { data: { findings: 2 } } : undefined),
      decisions: ["Publish anyway"],
    });
    expect(steps.map((step) => step.executor)).toEqual([
      {
        kind: "webhook",
        webhook: "https://style.example.com/check?ruleset=house",
        secret_env: "SOLSERVER_WEBHOOK_SECRET_STYLE",
        timeout: "30s",
        timeout_ms: 30_000,
        retries: 2,
      },
      {
        kind: "webhook",
        webhook: "https://style.example.com/publish",
        secret_env: "SOLSERVER_WEBHOOK_SECRET_STYLE",
        timeout: "10s",
        timeout_ms: 10_000,
        retries: 3,
      },
    ]);
    const waiting = states.find((s) => s.pending !== null);
    if (!waiting?.pending?.deadline) throw new Error("expected a deadline");
    const expired = expireDecision(workflow, waiting, { now: waiting.pending.deadline });
    expect(expired.context.checkpoints.at(-1)).toMatchObject({
      decision: "continue",
      label: "Publish anyway",
      timed_out: true,
    });
    expect(expired.next).toMatchObject({ kind: "run_phase", phase_id: "publish", run: "webhook" });
  });

  it("worker-step: an incomplete draft is claimed again; unanswered for 3 days, the run is aborted", () => {
    const workflow = example("worker-step.yaml");
    const { steps, states } = drive(workflow, {
      host: (phase, run) => (phase === "draft" ? { data: { draft_ready: run > 1 } } : undefined),
      decisions: ["Continue"],
    });
    expect(steps.map((step) => `${step.phase_id}#${step.attempt}`)).toEqual(["draft#1", "draft#2", "file#1"]);
    expect(steps[0]?.executor).toEqual({ kind: "worker", worker: "agents.drafting", lease: "15m", lease_ms: 900_000 });
    const waiting = states.find((s) => s.pending !== null);
    if (!waiting?.pending?.deadline) throw new Error("expected a deadline");
    expect(waiting.pending.assignees).toEqual({ accounts: ["editor@solserver.local", "jam@solserver.local"] });
    const expired = expireDecision(workflow, waiting, { now: waiting.pending.deadline });
    expect(expired).toMatchObject({ status: "aborted", exit_code: 2, abort: { reason: "timeout" } });
  });
});
