import { describe, expect, it } from "vitest";
import {
  CheckpointError,
  decide,
  loadWorkflowOrThrow,
  parseRunState,
  phaseCompleted,
  startRun,
  type TRunState,
  type TWorkflow,
  UMBRA_BEAT_YAML,
} from "../src";
import { at, drive } from "./drive";

const APPROVAL = loadWorkflowOrThrow(`
name: approval
phases:
  - id: discovery
    run: agent.discover
    checkpoint: { approval_required: true }
  - id: planning
    run: agent.plan
`);

const CUSTOM = loadWorkflowOrThrow(`
name: custom
variables: { output_dir: out }
phases:
  - id: phase_1
    run: step.one
  - id: phase_2
    run: step.two
    checkpoint:
      prompt: "Review outputs before proceeding?"
      show_files: ["{{output_dir}}/plan.md", "{{ output_dir }}/architecture.md"]
      options:
        - { label: Continue, on_select: { action: continue } }
        - { label: Redo This Phase, on_select: { action: repeat_phase, target: current } }
        - { label: Back to start, on_select: { action: repeat_phase, target: phase_1 } }
        - label: Skip Next 2 Phases
          with_feedback: true
          on_select: { action: skip_phases, phases: [phase_3, phase_4] }
        - { label: Abort Workflow, on_select: { action: abort } }
  - id: phase_3
    run: step.three
  - id: phase_4
    run: step.four
  - id: phase_5
    run: step.five
`);

/** Runs phases until the run waits for a decision (or ends). */
function untilCheckpoint(workflow: TWorkflow, state: TRunState, data?: Record<string, unknown>): TRunState {
  let current = state;
  for (let i = 1; current.next.kind === "run_phase" && i < 50; i++) {
    current = phaseCompleted(workflow, current, { now: at(i), ...(data ? { data } : {}) });
  }
  return current;
}

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

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

describe("startRun", () => {
  it("positions at the first phase, iteration 1", () => {
    const state = startRun(CUSTOM, { now: at(0) });
    expect(state).toMatchObject({
      version: 1,
      workflow: "custom",
      status: "running",
      phase_index: 0,
      next: { kind: "run_phase", phase_id: "phase_1", run: "step.one", iteration: 1, attempt: 1 },
      pending: null,
      exit_code: null,
      variables: { output_dir: "out" },
    });
    expect(state.context).toEqual({
      phases: { iteration_counts: { phase_1: 1 }, gap_retries: { phase_1: 0 } },
      skip_phases: [],
      checkpoints: [],
    });
  });

  it("honours an initial skip list and host context; run variables override the definition's", () => {
    const state = startRun(CUSTOM, {
      skip_phases: ["phase_1"],
      context: { feature: { flags: ["backend"] } },
      variables: { output_dir: "build" },
    });
    expect(state.next).toMatchObject({ phase_id: "phase_2" });
    expect(state.context.feature).toEqual({ flags: ["backend"] });
    expect(state.log.map((l) => l.message)).toContain("Skipping phase: phase_1");
    expect(untilCheckpoint(CUSTOM, state).pending?.files).toEqual(["build/plan.md", "build/architecture.md"]);
  });

  it("rejects unknown skip phases, reserved context keys and non-data context", () => {
    expectCode(() => startRun(CUSTOM, { skip_phases: ["nope"] }), "INVALID_INPUT");
    expectCode(() => startRun(CUSTOM, { context: { checkpoints: [] } }), "INVALID_INPUT");
    expectCode(() => startRun(CUSTOM, { context: { when: new Date() } }), "INVALID_INPUT");
    expectCode(() => startRun(CUSTOM, { context: { f: () => 1 } }), "INVALID_INPUT");
    expectCode(() => startRun(CUSTOM, { now: "yesterday-ish" }), "INVALID_INPUT");
  });

  it("a workflow whose phases are all skipped is done at once", () => {
    const state = startRun(APPROVAL, { skip_phases: ["discovery", "planning"] });
    expect(state).toMatchObject({ status: "done", exit_code: 0, next: { kind: "finished", exit_code: 0 } });
  });
});

describe("simple approval (seed)", () => {
  it("shows Continue / Abort after the phase", () => {
    const state = phaseCompleted(APPROVAL, startRun(APPROVAL), { now: at(1) });
    expect(state.status).toBe("awaiting_decision");
    expect(state.next).toEqual({ kind: "await_decision", phase_id: "discovery" });
    expect(state.pending).toEqual({
      phase_id: "discovery",
      kind: "approval",
      prompt: "Continue with next phase?",
      files: [],
      options: [
        { label: "Continue", with_feedback: false },
        { label: "Abort", with_feedback: false },
      ],
      assignees: null,
      deadline: null,
      timeout: null,
    });
  });

  it("CONTINUE proceeds to the next phase", () => {
    const waiting = phaseCompleted(APPROVAL, startRun(APPROVAL), { now: at(1) });
    const state = decide(APPROVAL, waiting, { label: "Continue", now: at(2) });
    expect(state.next).toMatchObject({ kind: "run_phase", phase_id: "planning" });
    expect(state.context.checkpoints).toEqual([{ phase: "discovery", decision: "continue", timestamp: at(2) }]);
    const done = phaseCompleted(APPROVAL, state, { now: at(3) });
    expect(done).toMatchObject({ status: "done", exit_code: 0, phase_index: 2 });
  });

  it("ABORT exits with code 2", () => {
    const waiting = phaseCompleted(APPROVAL, startRun(APPROVAL), { now: at(1) });
    const state = decide(APPROVAL, waiting, { label: "Abort", now: new Date(at(2)) });
    expect(state).toMatchObject({
      status: "aborted",
      exit_code: 2,
      next: { kind: "finished", exit_code: 2 },
      abort: { reason: "user" },
      pending: null,
    });
    expect(state.context.checkpoints).toEqual([{ phase: "discovery", decision: "abort", timestamp: at(2) }]);
    expect(state.log.map((l) => l.message)).toContain("Workflow aborted by user");
  });
});

describe("custom checkpoint (seed)", () => {
  const waiting = () => untilCheckpoint(CUSTOM, startRun(CUSTOM, { now: at(0) }));

  it("displays the prompt and logs the substituted files", () => {
    const state = waiting();
    expect(state.pending).toMatchObject({
      phase_id: "phase_2",
      kind: "custom",
      prompt: "Review outputs before proceeding?",
      files: ["out/plan.md", "out/architecture.md"],
    });
    expect(state.log.filter((l) => l.message.startsWith("Review: ")).map((l) => l.message)).toEqual([
      "Review: out/plan.md",
      "Review: out/architecture.md",
    ]);
  });

  it("continue: records the decision only", () => {
    const state = decide(CUSTOM, waiting(), { label: "Continue", now: at(9) });
    expect(state.next).toMatchObject({ phase_id: "phase_3" });
    expect(state.context.checkpoints).toEqual([{ phase: "phase_2", decision: "continue", timestamp: at(9) }]);
  });

  it("repeat_phase current: increments the count and runs the phase again", () => {
    const state = decide(CUSTOM, waiting(), { label: "Redo This Phase", now: at(9) });
    expect(state.next).toEqual({ kind: "run_phase", phase_id: "phase_2", run: "step.two", iteration: 2, attempt: 1 });
    expect(state.context.phases.iteration_counts).toEqual({ phase_1: 1, phase_2: 2 });
    expect(state.context.checkpoints).toEqual([
      { phase: "phase_2", decision: "repeat_phase", target: "phase_2", timestamp: at(9) },
    ]);
  });

  it("repeat_phase to an earlier phase re-runs everything from there", () => {
    const { ran, state } = drive(CUSTOM, { decisions: ["Back to start", "Continue"] });
    expect(ran).toEqual(["phase_1", "phase_2", "phase_1", "phase_2", "phase_3", "phase_4", "phase_5"]);
    expect(state.context.phases.iteration_counts).toMatchObject({ phase_1: 2, phase_2: 2, phase_3: 1 });
  });

  it("skip_phases: adds to the skip list, records skipped and feedback (seed record shape)", () => {
    const state = decide(CUSTOM, waiting(), {
      label: "Skip Next 2 Phases",
      feedback: "Not needed for MVP",
      now: at(9),
    });
    expect(state.context.skip_phases).toEqual(["phase_3", "phase_4"]);
    expect(state.next).toMatchObject({ phase_id: "phase_5" });
    const record = state.context.checkpoints[0];
    expect(record).toEqual({
      phase: "phase_2",
      decision: "skip_phases",
      skipped: ["phase_3", "phase_4"],
      feedback: "Not needed for MVP",
      timestamp: at(9),
    });
    expect(Object.keys(record ?? {})).toEqual(["phase", "decision", "skipped", "feedback", "timestamp"]);
  });

  it("skip_phases without feedback records no feedback key", () => {
    const state = decide(CUSTOM, waiting(), { label: "Skip Next 2 Phases", now: at(9) });
    expect(state.context.checkpoints[0]).not.toHaveProperty("feedback");
  });

  it("skipped phases stay skipped when a repeat passes them again", () => {
    const workflow = loadWorkflowOrThrow(`
name: skip-repeat
phases:
  - { id: a, run: step.a }
  - id: b
    run: step.b
    checkpoint:
      prompt: Skip c?
      options: [{ label: Skip c, on_select: { action: skip_phases, phases: [c] } }]
  - { id: c, run: step.c }
  - id: d
    run: step.d
    checkpoint:
      prompt: Again from b?
      options:
        - { label: Again, on_select: { action: repeat_phase, target: b } }
        - { label: Done, on_select: { action: continue } }
`);
    const { ran, state } = drive(workflow, { decisions: ["Skip c", "Again", "Skip c", "Done"] });
    expect(ran).toEqual(["a", "b", "d", "b", "d"]);
    expect(state.context.skip_phases).toEqual(["c"]);
    expect(state.context.phases.iteration_counts).toEqual({ a: 1, b: 2, d: 2 });
  });

  it("abort: exit code 2", () => {
    const state = decide(CUSTOM, waiting(), { label: "Abort Workflow", now: at(9) });
    expect(state).toMatchObject({ status: "aborted", exit_code: 2 });
  });

  it("rejects unknown labels, feedback on options without with_feedback, and decisions while running", () => {
    expectCode(() => decide(CUSTOM, waiting(), { label: "continue", now: at(9) }), "UNKNOWN_OPTION");
    expectCode(
      () => decide(CUSTOM, waiting(), { label: "Continue", feedback: "hi", now: at(9) }),
      "FEEDBACK_NOT_ALLOWED",
    );
    expectCode(() => decide(CUSTOM, startRun(CUSTOM), { label: "Continue", now: at(9) }), "INVALID_STATE");
    expectCode(() => phaseCompleted(CUSTOM, waiting(), { now: at(9) }), "INVALID_STATE");
    expectCode(
      () => decide(CUSTOM, waiting(), { label: "Skip Next 2 Phases", feedback: "x".repeat(10_001), now: at(9) }),
      "INVALID_INPUT",
    );
  });

  it("rejects a stale phase id, a state of another workflow and a finished run", () => {
    expectCode(() => phaseCompleted(CUSTOM, startRun(CUSTOM), { now: at(1), phase_id: "phase_2" }), "INVALID_STATE");
    expectCode(() => phaseCompleted(APPROVAL, startRun(CUSTOM), { now: at(1) }), "INVALID_STATE");
    const aborted = decide(CUSTOM, waiting(), { label: "Abort Workflow", now: at(9) });
    expectCode(() => phaseCompleted(CUSTOM, aborted, { now: at(10) }), "INVALID_STATE");
    expectCode(() => decide(CUSTOM, aborted, { label: "Continue", now: at(10) }), "INVALID_STATE");
  });
});

describe("conditions in the run", () => {
  const GATED = loadWorkflowOrThrow(`
name: gated
phases:
  - id: build
    run: step.build
    checkpoint:
      condition: "context.phases.iteration_counts[phase.id] > 1 || context.feature.flags.includes('backend')"
      prompt: Look again?
      options:
        - { label: Again, on_select: { action: repeat_phase, target: current } }
        - { label: Done, on_select: { action: continue } }
`);

  it("a false condition skips the checkpoint (logged at debug)", () => {
    const state = untilCheckpoint(GATED, startRun(GATED, { context: { feature: { flags: [] } } }));
    expect(state.status).toBe("done");
    expect(state.log).toContainEqual(
      expect.objectContaining({ level: "debug", message: "Checkpoint condition false, skipping" }),
    );
  });

  it("a condition that fails at run time is logged and the checkpoint skipped (seed)", () => {
    const state = untilCheckpoint(GATED, startRun(GATED));
    expect(state.status).toBe("done");
    expect(state.log).toContainEqual(
      expect.objectContaining({ level: "error", message: expect.stringContaining("Checkpoint condition failed") }),
    );
  });

  it("phase.id and iteration counts are visible to the condition", () => {
    let state = untilCheckpoint(GATED, startRun(GATED, { context: { feature: { flags: ["backend"] } } }));
    expect(state.status).toBe("awaiting_decision");
    state = decide(GATED, state, { label: "Again", now: at(5) });
    // Second iteration: shown because iteration_counts.build is 2, even with the flag gone.
    state = untilCheckpoint(GATED, state, { feature: { flags: [] } });
    expect(state.status).toBe("awaiting_decision");
    expect(state.context.phases.iteration_counts.build).toBe(2);
  });
});

describe("gap check", () => {
  const GAP = loadWorkflowOrThrow(`
name: gap
phases:
  - id: collect
    run: step.collect
    gap_check: { condition: "context.gaps > 0", max_retries: 2 }
  - id: report
    run: step.report
    gap_check: { condition: "context.missing.length > 0" }
`);

  it("retries while the gap is open, at most max_retries times, then moves on", () => {
    const { ran, states, state } = drive(GAP, {
      host: (phase) => (phase === "collect" ? { data: { gaps: 1 } } : undefined),
    });
    expect(ran.filter((p) => p === "collect")).toHaveLength(3);
    const attempts = states.flatMap((s) =>
      s.next.kind === "run_phase" && s.next.phase_id === "collect" ? [s.next.attempt] : [],
    );
    expect(attempts).toEqual([1, 2, 3]);
    expect(state.context.phases.iteration_counts.collect).toBe(1);
    expect(state.log).toContainEqual(
      expect.objectContaining({ level: "warn", message: expect.stringContaining("still open") }),
    );
  });

  it("stops retrying once the gap closes", () => {
    const { ran } = drive(GAP, {
      host: (phase, run) => (phase === "collect" ? { data: { gaps: run < 2 ? 1 : 0 } } : undefined),
    });
    expect(ran).toEqual(["collect", "collect", "report"]);
  });

  it("a gap condition that fails is logged and does not retry", () => {
    const { ran, state } = drive(GAP, { host: () => ({ data: { gaps: 0 } }) });
    expect(ran).toEqual(["collect", "report"]);
    expect(state.log).toContainEqual(
      expect.objectContaining({ level: "error", message: expect.stringContaining("Gap check failed for report") }),
    );
  });
});

describe("max_iterations", () => {
  const LOOP = loadWorkflowOrThrow(`
name: loop
max_iterations: 3
phases:
  - id: draft
    run: step.draft
    checkpoint:
      prompt: Again?
      options:
        - { label: Again, on_select: { action: repeat_phase, target: current } }
        - { label: Done, on_select: { action: continue } }
`);

  it("a repeat past max_iterations ends the run: aborted, exit code 1, reason max_iterations", () => {
    const { state, ran } = drive(LOOP, { decisions: ["Again", "Again", "Again"] });
    expect(ran).toEqual(["draft", "draft", "draft"]);
    expect(state).toMatchObject({
      status: "aborted",
      exit_code: 1,
      next: { kind: "finished", exit_code: 1 },
      abort: { reason: "max_iterations", message: 'phase "draft" would start iteration 4; max_iterations is 3' },
    });
    expect(state.context.phases.iteration_counts.draft).toBe(3);
    expect(state.context.checkpoints).toHaveLength(3);
  });

  it("the default bound is 5", () => {
    const noMax = loadWorkflowOrThrow(`
name: loop
phases:
  - id: draft
    run: step.draft
    checkpoint:
      prompt: Again?
      options: [{ label: Again, on_select: { action: repeat_phase, target: current } }]
`);
    const { ran, state } = drive(noMax, { decisions: Array(5).fill("Again") });
    expect(ran).toHaveLength(5);
    expect(state.exit_code).toBe(1);
  });
});

describe("state", () => {
  const umbra = loadWorkflowOrThrow(UMBRA_BEAT_YAML);

  it("survives a JSON round trip mid-run and resumes to the same result", () => {
    let state = startRun(umbra, { now: at(0) });
    state = phaseCompleted(umbra, state, { now: at(1), data: { triggers: ["a", "b"] } });
    state = phaseCompleted(umbra, state, { now: at(2), variables: { pending_count: 4 } });
    expect(state.status).toBe("awaiting_decision");
    const stored = JSON.parse(JSON.stringify(state));
    expect(stored).toEqual(state);
    expect(parseRunState(stored)).toEqual(state);
    const fromStored = decide(umbra, stored, { label: "Repeat resolve", now: at(3) });
    const fromMemory = decide(umbra, state, { label: "Repeat resolve", now: at(3) });
    expect(fromStored).toEqual(fromMemory);
    expect(fromStored.next).toMatchObject({ phase_id: "resolve_pending", iteration: 2 });
  });

  it("never mutates its input: every transition returns a new object", () => {
    const start = deepFreeze(startRun(umbra, { now: at(0) }));
    const snapshot = JSON.stringify(start);
    const one = deepFreeze(phaseCompleted(umbra, start, { now: at(1) }));
    const two = deepFreeze(phaseCompleted(umbra, one, { now: at(2) }));
    const three = decide(umbra, two, { label: "Skip promotion", feedback: "later", now: at(3) });
    expect(JSON.stringify(start)).toBe(snapshot);
    expect(new Set([start, one, two, three]).size).toBe(4);
    expect(three.context).not.toBe(two.context);
    expect(two.context.checkpoints).toEqual([]);
  });

  it("rejects a corrupted stored state", () => {
    const state = JSON.parse(JSON.stringify(startRun(umbra)));
    expectCode(() => parseRunState({ ...state, status: "paused" }), "INVALID_STATE");
    expectCode(() => parseRunState({ ...state, version: 2 }), "INVALID_STATE");
    expectCode(
      () => phaseCompleted(umbra, { ...state, context: { ...state.context, phases: {} } }, { now: at(1) }),
      "INVALID_STATE",
    );
  });

  it("host data: shallow merge; reserved keys and getters are refused (the getter never runs)", () => {
    let calls = 0;
    const data = {
      get secret() {
        calls += 1;
        return 1;
      },
    };
    const state = startRun(umbra);
    expectCode(() => phaseCompleted(umbra, state, { now: at(1), data }), "INVALID_INPUT");
    expectCode(() => phaseCompleted(umbra, state, { now: at(1), data: { skip_phases: ["promote"] } }), "INVALID_INPUT");
    expectCode(
      () => phaseCompleted(umbra, state, { now: at(1), data: JSON.parse('{"__proto__": {"x": 1}}') }),
      "INVALID_INPUT",
    );
    expect(calls).toBe(0);
    const merged = phaseCompleted(umbra, state, { now: at(1), data: { a: { b: 1 }, c: undefined } });
    expect(merged.context).toMatchObject({ a: { b: 1 } });
    expect(merged.context).not.toHaveProperty("c");
  });
});
