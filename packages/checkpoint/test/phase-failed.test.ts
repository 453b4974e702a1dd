// phaseFailed: a host's step failed. Gap-check retries if the phase has some left, else the run
// ends `failed` (exit 1) with `failure`; retries never count as iterations.

import { describe, expect, it } from "vitest";
import {
  CheckpointError,
  decide,
  loadWorkflowOrThrow,
  MAX_ERROR_CHARS,
  parseRunState,
  phaseCompleted,
  phaseFailed,
  startRun,
} from "../src";
import { at, drive } from "./drive";

const NO_RETRY = loadWorkflowOrThrow(`
name: no-retry
phases:
  - { id: build, run: { command: [make] } }
  - { id: ship, run: s.ship }
`);

const RETRY = loadWorkflowOrThrow(`
name: retry
phases:
  - id: test
    run: { command: [make, test] }
    gap_check: { condition: "context.flaky > 0", max_retries: 2 }
  - { id: ship, run: s.ship }
`);

function expectCode(fn: () => unknown, code: string): void {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(CheckpointError);
    expect((error as CheckpointError).code).toBe(code);
    return;
  }
  throw new Error(`expected CheckpointError ${code}`);
}

describe("phaseFailed", () => {
  it("without a gap_check, the run ends failed: exit 1, failure, no pending", () => {
    const state = phaseFailed(NO_RETRY, startRun(NO_RETRY, { now: at(0) }), {
      now: at(1),
      phase_id: "build",
      error: "make exited with 2",
    });
    expect(state).toMatchObject({
      status: "failed",
      exit_code: 1,
      next: { kind: "finished", exit_code: 1 },
      failure: { phase_id: "build", error: "make exited with 2" },
      abort: null,
      pending: null,
    });
    expect(state.log.slice(-2).map((entry) => [entry.level, entry.message])).toEqual([
      ["error", "Phase failed: build: make exited with 2"],
      ["error", "Workflow failed at build: make exited with 2"],
    ]);
    expectCode(() => phaseCompleted(NO_RETRY, state, { now: at(2) }), "INVALID_STATE");
    expectCode(() => phaseFailed(NO_RETRY, state, { now: at(2), phase_id: "build", error: "again" }), "INVALID_STATE");
  });

  it("with a gap_check, the phase runs again (attempt + 1) whatever the condition says, then fails", () => {
    const { state, steps } = drive(RETRY, { host: () => ({ error: "tests failed" }) });
    expect(steps.map((step) => [step.phase_id, step.iteration, step.attempt])).toEqual([
      ["test", 1, 1],
      ["test", 1, 2],
      ["test", 1, 3],
    ]);
    expect(steps[2]?.executor).toMatchObject({ command: ["make", "test"] });
    expect(state).toMatchObject({
      status: "failed",
      exit_code: 1,
      failure: { phase_id: "test", error: "tests failed" },
    });
    expect(state.context.phases).toEqual({ iteration_counts: { test: 1 }, gap_retries: { test: 2 } });
    expect(state.log.map((entry) => entry.message)).toContain("No retries left for test (2)");
  });

  it("a retry that succeeds carries on; failures and gap retries share the phase's budget", () => {
    // Fails once, then succeeds but the gap check asks for one more run: 2 retries in all.
    const { state, steps } = drive(RETRY, {
      host: (phase, run) =>
        phase !== "test" ? undefined : run === 1 ? { error: "flaky" } : { data: { flaky: run === 2 ? 1 : 0 } },
    });
    expect(steps.map((step) => `${step.phase_id}#${step.attempt}`)).toEqual(["test#1", "test#2", "test#3", "ship#1"]);
    expect(state).toMatchObject({ status: "done", exit_code: 0, failure: null });

    // Two failures use the whole budget: the gap check cannot add a third run.
    const spent = drive(RETRY, {
      host: (phase, run) => (phase !== "test" ? undefined : run <= 2 ? { error: "flaky" } : { data: { flaky: 1 } }),
    });
    expect(spent.steps.map((step) => `${step.phase_id}#${step.attempt}`)).toEqual([
      "test#1",
      "test#2",
      "test#3",
      "ship#1",
    ]);
    expect(spent.state.log.map((entry) => entry.message)).toContain(
      "Gap check for test still open after 2 retries; moving on",
    );
  });

  it("retries do not count as iterations: max_iterations still bounds repeats, each with fresh retries", () => {
    const workflow = loadWorkflowOrThrow(`
name: bounded
max_iterations: 2
phases:
  - id: draft
    run: { worker: agents.draft }
    gap_check: { condition: "false", max_retries: 1 }
  - id: review
    checkpoint:
      prompt: Again?
      options:
        - { label: Again, on_select: { action: repeat_phase, target: draft } }
        - { label: Done, on_select: { action: continue } }
`);
    let state = startRun(workflow, { now: at(0) });
    state = phaseFailed(workflow, state, { now: at(1), phase_id: "draft", error: "lease expired" });
    expect(state.next).toMatchObject({ phase_id: "draft", iteration: 1, attempt: 2 });
    state = phaseCompleted(workflow, state, { now: at(2) });
    state = decide(workflow, state, { label: "Again", now: at(3) });
    // Iteration 2 starts with its own retry budget.
    expect(state.next).toMatchObject({ phase_id: "draft", iteration: 2, attempt: 1 });
    state = phaseFailed(workflow, state, { now: at(4), phase_id: "draft", error: "lease expired" });
    expect(state.next).toMatchObject({ phase_id: "draft", iteration: 2, attempt: 2 });
    state = phaseCompleted(workflow, state, { now: at(5) });
    state = decide(workflow, state, { label: "Again", now: at(6) });
    expect(state).toMatchObject({ status: "aborted", exit_code: 1, abort: { reason: "max_iterations" } });
    expect(state.context.phases.iteration_counts).toEqual({ draft: 2, review: 2 });
  });

  it("a long error is kept in part; an empty one gets a message", () => {
    const long = phaseFailed(NO_RETRY, startRun(NO_RETRY, { now: at(0) }), {
      now: at(1),
      phase_id: "build",
      error: "x".repeat(MAX_ERROR_CHARS + 5),
    });
    expect(long.failure?.error).toBe(`${"x".repeat(MAX_ERROR_CHARS)}… (${MAX_ERROR_CHARS + 5} characters)`);
    const empty = phaseFailed(NO_RETRY, startRun(NO_RETRY, { now: at(0) }), {
      now: at(1),
      phase_id: "build",
      error: " ",
    });
    expect(empty.failure?.error).toBe("the step failed without a message");
  });

  it("refuses a stale or wrong call without touching the state", () => {
    const state = startRun(NO_RETRY, { now: at(0) });
    const before = structuredClone(state);
    expectCode(() => phaseFailed(NO_RETRY, state, { now: at(1), phase_id: "ship", error: "x" }), "INVALID_STATE");
    expectCode(
      () => phaseFailed(NO_RETRY, state, { now: at(1), phase_id: "build", error: 3 as unknown as string }),
      "INVALID_INPUT",
    );
    expectCode(
      () => phaseFailed(NO_RETRY, state, { now: at(1), phase_id: undefined as unknown as string, error: "x" }),
      "INVALID_INPUT",
    );
    expectCode(() => phaseFailed(NO_RETRY, state, { now: "later", phase_id: "build", error: "x" }), "INVALID_INPUT");
    expectCode(() => phaseFailed(RETRY, state, { now: at(1), phase_id: "build", error: "x" }), "INVALID_STATE");
    expect(state).toEqual(before);
  });

  it("a failed state is plain JSON and parses back", () => {
    const state = phaseFailed(NO_RETRY, startRun(NO_RETRY, { now: at(0) }), {
      now: at(1),
      phase_id: "build",
      error: "boom",
    });
    expect(parseRunState(JSON.parse(JSON.stringify(state)))).toEqual(state);
  });
});
