// Checkpoint assignees and timeouts in a run: what `pending` carries, the deadline, and
// expireDecision taking an option or escalating once.

import { describe, expect, it } from "vitest";
import {
  CheckpointError,
  canDecide,
  decide,
  expireDecision,
  loadWorkflowOrThrow,
  parseRunState,
  phaseCompleted,
  startRun,
  type TRunState,
  type TWorkflow,
} from "../src";

const T0 = "2025-10-31T14:00:00.000Z";
const later = (ms: number) => new Date(Date.parse(T0) + ms).toISOString();
const HOUR = 3_600_000;

const REVIEW = loadWorkflowOrThrow(`
name: review
variables: { version: "1.2" }
phases:
  - { id: build, run: { command: [make] } }
  - id: approve
    checkpoint:
      prompt: "Ship {{version}}?"
      assignees: { accounts: [lead@x.example] }
      timeout: { after: 2h, option: Hold }
      options:
        - { label: Ship, on_select: { action: continue } }
        - { label: Rebuild, on_select: { action: repeat_phase, target: build } }
        - { label: Hold, with_feedback: true, on_select: { action: skip_phases, phases: [publish] } }
  - { id: publish, run: s.publish }
  - { id: report, run: s.report }
`);

const ESCALATE = loadWorkflowOrThrow(`
name: escalate
phases:
  - id: gate
    run: s.check
    checkpoint:
      approval_required: true
      assignees: { accounts: [lead@x.example] }
      timeout: { after: 30m, escalate_to: { role: jam } }
  - { id: next, run: s.next }
`);

const PLAIN = loadWorkflowOrThrow(`
name: plain
phases:
  - { id: a, run: s.a, checkpoint: { approval_required: true, assignees: { role: jam } } }
`);

/** Runs the first phase at T0 + 1 s so the run waits at its checkpoint. */
function waiting(workflow: TWorkflow): TRunState {
  return phaseCompleted(workflow, startRun(workflow, { now: T0 }), { now: later(1000) });
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

describe("pending: assignees, deadline, timeout", () => {
  it("carries the assignees and a deadline of arrival + after", () => {
    const state = waiting(REVIEW);
    expect(state.pending).toEqual({
      phase_id: "approve",
      kind: "custom",
      prompt: "Ship 1.2?",
      files: [],
      options: [
        { label: "Ship", with_feedback: false },
        { label: "Rebuild", with_feedback: false },
        { label: "Hold", with_feedback: true },
      ],
      assignees: { accounts: ["lead@x.example"] },
      deadline: later(1000 + 2 * HOUR),
      timeout: { after: "2h", after_ms: 2 * HOUR, option: "Hold" },
    });
    expect(state.log.at(-1)?.message).toBe(`Decision due by ${later(1000 + 2 * HOUR)}`);
  });

  it("nulls without assignees or timeout; an approval checkpoint carries them too", () => {
    expect(waiting(PLAIN).pending).toMatchObject({ assignees: { role: "jam" }, deadline: null, timeout: null });
    expect(waiting(ESCALATE).pending).toMatchObject({
      kind: "approval",
      assignees: { accounts: ["lead@x.example"] },
      deadline: later(1000 + HOUR / 2),
      timeout: { after: "30m", after_ms: HOUR / 2, escalate_to: { role: "jam" } },
    });
  });

  it("a deadline counts from each arrival: a repeat gets a fresh one", () => {
    const first = waiting(REVIEW);
    const again = phaseCompleted(REVIEW, decide(REVIEW, first, { label: "Rebuild", now: later(5000) }), {
      now: later(9000),
    });
    expect(again.pending?.deadline).toBe(later(9000 + 2 * HOUR));
  });

  it("a timed checkpoint reached without a clock is refused, not left without a deadline", () => {
    const first = loadWorkflowOrThrow(
      "name: t\nphases: [{ id: a, checkpoint: { approval_required: true, timeout: { after: 1h, option: Continue } } }]\n",
    );
    expectCode(() => startRun(first), "INVALID_INPUT");
    expect(startRun(first, { now: T0 }).pending?.deadline).toBe(later(HOUR));
  });
});

describe("expireDecision", () => {
  it("not yet due: the very same state object", () => {
    const state = waiting(REVIEW);
    expect(expireDecision(REVIEW, state, { now: later(1000) })).toBe(state);
    expect(expireDecision(REVIEW, state, { now: later(1000 + 2 * HOUR - 1) })).toBe(state);
  });

  it("not waiting, or waiting without a deadline: the very same state object, never a throw", () => {
    const running = startRun(REVIEW, { now: T0 });
    expect(expireDecision(REVIEW, running, { now: later(99 * HOUR) })).toBe(running);
    const plain = waiting(PLAIN);
    expect(expireDecision(PLAIN, plain, { now: later(99 * HOUR) })).toBe(plain);
    const done = decide(PLAIN, plain, { label: "Continue", now: later(2000) });
    expect(done.status).toBe("done");
    expect(expireDecision(PLAIN, done, { now: later(99 * HOUR) })).toBe(done);
    // Even a workflow mismatch is not looked at while nothing is due.
    expect(expireDecision(REVIEW, plain, { now: later(99 * HOUR) })).toBe(plain);
  });

  it("option: at the deadline the option is taken as if decided, recorded with timed_out", () => {
    const state = waiting(REVIEW);
    const deadline = later(1000 + 2 * HOUR);
    const expired = expireDecision(REVIEW, state, { now: deadline });
    expect(expired.context.checkpoints).toEqual([
      {
        phase: "approve",
        decision: "skip_phases",
        skipped: ["publish"],
        timed_out: true,
        label: "Hold",
        timestamp: deadline,
      },
    ]);
    expect(expired.context.skip_phases).toEqual(["publish"]);
    expect(expired).toMatchObject({
      status: "running",
      pending: null,
      next: { kind: "run_phase", phase_id: "report" },
    });
    // The same choice by hand moves the run the same way (only the record differs).
    const byHand = decide(REVIEW, state, { label: "Hold", now: deadline });
    expect({ ...expired, log: [], context: { ...expired.context, checkpoints: [] } }).toEqual({
      ...byHand,
      log: [],
      context: { ...byHand.context, checkpoints: [] },
    });
    expect(state.pending).not.toBeNull(); // the input is never mutated
  });

  it("option Abort: the run ends with exit code 2, reason timeout", () => {
    const workflow = loadWorkflowOrThrow(
      "name: t\nphases:\n  - { id: a, run: s.a, checkpoint: { approval_required: true, timeout: { after: 1d, option: Abort } } }\n  - { id: b, run: s.b }\n",
    );
    const expired = expireDecision(workflow, waiting(workflow), { now: later(2 * 24 * HOUR) });
    expect(expired).toMatchObject({
      status: "aborted",
      exit_code: 2,
      abort: { reason: "timeout", message: "aborted by the checkpoint's timeout at a" },
    });
    expect(expired.context.checkpoints).toEqual([
      { phase: "a", decision: "abort", timed_out: true, label: "Abort", timestamp: later(2 * 24 * HOUR) },
    ]);
  });

  it("escalate_to: assignees replaced, deadline cleared, recorded once; the run keeps waiting", () => {
    const state = waiting(ESCALATE);
    const now = later(HOUR);
    const escalated = expireDecision(ESCALATE, state, { now });
    expect(escalated.status).toBe("awaiting_decision");
    expect(escalated.pending).toMatchObject({ assignees: { role: "jam" }, deadline: null, timeout: null });
    expect(escalated.context.checkpoints).toEqual([
      { phase: "gate", decision: "escalated", timed_out: true, assignees: { role: "jam" }, timestamp: now },
    ]);
    expect(escalated.log.at(-1)).toMatchObject({
      level: "warn",
      message: expect.stringContaining("escalated to role jam"),
    });
    // Escalates once: later sweeps change nothing.
    expect(expireDecision(ESCALATE, escalated, { now: later(99 * HOUR) })).toBe(escalated);
    // A person (now a Jam editor) decides as usual.
    const decided = decide(ESCALATE, escalated, { label: "Continue", now: later(2 * HOUR) });
    expect(decided.next).toMatchObject({ kind: "run_phase", phase_id: "next" });
    expect(decided.context.checkpoints.map((record) => record.decision)).toEqual(["escalated", "continue"]);
  });

  it("a person deciding before the sweep still wins", () => {
    const state = waiting(REVIEW);
    const decided = decide(REVIEW, state, { label: "Ship", now: later(3 * HOUR) });
    expect(decided.context.checkpoints[0]).toEqual({
      phase: "approve",
      decision: "continue",
      timestamp: later(3 * HOUR),
    });
    expect(expireDecision(REVIEW, decided, { now: later(4 * HOUR) })).toBe(decided);
  });

  it("refuses an invalid clock, and a due state of another workflow", () => {
    const state = waiting(REVIEW);
    expectCode(() => expireDecision(REVIEW, state, { now: "whenever" }), "INVALID_INPUT");
    const other = loadWorkflowOrThrow(`name: other\n${"phases: [{ id: a }]"}\n`);
    expectCode(() => expireDecision(other, state, { now: later(99 * HOUR) }), "INVALID_STATE");
  });

  it("expired states are plain JSON and parse back", () => {
    for (const [workflow, now] of [
      [REVIEW, later(3 * HOUR)],
      [ESCALATE, later(HOUR)],
    ] as const) {
      const expired = expireDecision(workflow, waiting(workflow), { now });
      expect(parseRunState(JSON.parse(JSON.stringify(expired)))).toEqual(expired);
    }
  });
});

describe("canDecide", () => {
  it.each([
    [null, { email: "a@x.example", role: "user" }, true],
    [{ role: "jam" as const }, { email: "a@x.example", role: "jam" }, true],
    [{ role: "jam" as const }, { email: "a@x.example", role: "user" }, false],
    [{ accounts: ["Lead@X.example"] }, { email: "lead@x.example", role: "user" }, true],
    [{ accounts: ["lead@x.example"] }, { email: "other@x.example", role: "jam" }, false],
    [{ accounts: ["lead@x.example"] }, { role: "jam" }, false],
  ])("%j decided by %j → %s", (assignees, decider, expected) => {
    expect(canDecide(assignees, decider)).toBe(expected);
  });
});
