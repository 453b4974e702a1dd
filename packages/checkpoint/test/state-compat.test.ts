// Stored runs survive the upgrade: states written before executors, assignees, deadlines and
// failures existed still parse and resume; and every state the new transitions produce (random
// scripts with failures, timeouts and escalations) stays plain JSON that parses back to itself.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  decide,
  expireDecision,
  loadWorkflowOrThrow,
  parseRunState,
  phaseCompleted,
  phaseFailed,
  startRun,
  type TRunState,
  type TStoredRunState,
  UMBRA_BEAT_YAML,
} from "../src";
import { at } from "./drive";

/** An Umbra beat waiting at review, exactly as the previous version of the runner stored it. */
const OLD_WAITING: TStoredRunState = {
  version: 1,
  workflow: "umbra-beat",
  status: "awaiting_decision",
  phase_index: 2,
  variables: { summary_file: "out/umbra/beat-summary.md", pending_count: 2 },
  context: {
    phases: {
      iteration_counts: { collect_triggers: 1, resolve_pending: 1, review: 1 },
      gap_retries: { collect_triggers: 0, resolve_pending: 0, review: 0 },
    },
    skip_phases: [],
    checkpoints: [],
    pending: 2,
  },
  next: { kind: "await_decision", phase_id: "review" },
  pending: {
    phase_id: "review",
    kind: "custom",
    prompt: "Review 2 proposals before promoting?",
    files: ["out/umbra/beat-summary.md"],
    options: [
      { label: "Continue", with_feedback: false },
      { label: "Repeat resolve", with_feedback: false },
      { label: "Skip promotion", with_feedback: true },
      { label: "Abort", with_feedback: false },
    ],
  },
  exit_code: null,
  abort: null,
  log: [{ level: "info", message: "Workflow started: umbra-beat", timestamp: "2025-10-31T14:00:00.000Z" }],
};

/** The same run one step earlier: resolve_pending under way, a string step, no executor. */
const OLD_RUNNING: TStoredRunState = {
  ...OLD_WAITING,
  status: "running",
  phase_index: 1,
  context: {
    phases: {
      iteration_counts: { collect_triggers: 1, resolve_pending: 1 },
      gap_retries: { collect_triggers: 0, resolve_pending: 0 },
    },
    skip_phases: [],
    checkpoints: [],
  },
  next: { kind: "run_phase", phase_id: "resolve_pending", run: "umbra.resolve_pending", iteration: 1, attempt: 1 },
  pending: null,
};

const umbra = loadWorkflowOrThrow(UMBRA_BEAT_YAML);

describe("states stored before this version", () => {
  it("parse with the new fields at null", () => {
    const state = parseRunState(JSON.parse(JSON.stringify(OLD_WAITING)));
    expect(state.failure).toBeNull();
    expect(state.pending).toMatchObject({ assignees: null, deadline: null, timeout: null });
    expect(parseRunState(OLD_RUNNING).next).toEqual(OLD_RUNNING.next);
  });

  it("resume: a waiting run is decided, a running one completes its step", () => {
    const decided = decide(umbra, OLD_WAITING as TRunState, { label: "Continue", now: at(10) });
    expect(decided.next).toMatchObject({ kind: "run_phase", phase_id: "promote", run: "umbra.promote_approved" });
    const resumed = phaseCompleted(umbra, OLD_RUNNING as TRunState, { now: at(10), phase_id: "resolve_pending" });
    expect(resumed.pending).toMatchObject({ phase_id: "review", assignees: null, deadline: null });
    expect(expireDecision(umbra, OLD_WAITING as TRunState, { now: at(10_000) })).toBe(OLD_WAITING);
  });
});

const FLOW = loadWorkflowOrThrow(`
name: flow
variables: { dir: web, version: "1" }
max_iterations: 3
phases:
  - id: build
    run: { command: [make, "v{{version}}"], cwd: "{{dir}}", artifacts: [out/*.tgz] }
    gap_check: { condition: "context.flaky === true", max_retries: 1 }
  - id: approve
    checkpoint:
      prompt: "Ship {{version}}?"
      assignees: { accounts: [lead@x.example] }
      timeout: { after: 1m, escalate_to: { role: jam } }
      options:
        - { label: Ship, on_select: { action: continue } }
        - { label: Rebuild, on_select: { action: repeat_phase, target: build } }
        - { label: Stop, with_feedback: true, on_select: { action: abort } }
  - id: notify
    run: { webhook: "https://hooks.example.com/{{version}}" }
    checkpoint:
      approval_required: true
      timeout: { after: 30s, option: Continue }
  - id: archive
    run: { worker: agents.archive }
`);

type TMove = { kind: "ok" | "fail" | "flaky" | "expire"; pick: number; wait: number };

describe("random runs with failures, timeouts and escalations", () => {
  const move = fc.record({
    kind: fc.constantFrom<TMove["kind"]>("ok", "fail", "flaky", "expire"),
    pick: fc.nat(2),
    wait: fc.nat(120),
  });

  const play = (moves: TMove[]): TRunState[] => {
    let clock = 0;
    const tick = (seconds: number) => {
      clock += seconds;
      return at(clock);
    };
    let state = startRun(FLOW, { now: tick(0) });
    const states = [state];
    for (let i = 0; state.next.kind !== "finished"; i++) {
      expect(i).toBeLessThan(200);
      const m = moves[i % Math.max(moves.length, 1)] ?? { kind: "ok", pick: 0, wait: 1 };
      const next = state.next;
      if (next.kind === "run_phase") {
        if (m.kind === "fail")
          state = phaseFailed(FLOW, state, { now: tick(1), phase_id: next.phase_id, error: "boom" });
        else state = phaseCompleted(FLOW, state, { now: tick(1), data: { flaky: m.kind === "flaky" } });
      } else if (m.kind === "expire" || i >= 60) {
        // Past every deadline: escalate, or take the timeout's option; else a person decides.
        const expired = expireDecision(FLOW, state, { now: tick(m.wait + 61) });
        state =
          expired !== state
            ? expired
            : decide(FLOW, state, {
                label: i >= 60 ? "Ship" : (["Ship", "Rebuild", "Stop"][m.pick] ?? "Ship"),
                now: tick(1),
              });
      } else {
        const labels = state.pending?.kind === "approval" ? ["Continue", "Abort"] : ["Ship", "Rebuild", "Stop"];
        state = decide(FLOW, state, { label: labels[m.pick % labels.length] ?? "Ship", now: tick(1) });
      }
      states.push(state);
    }
    return states;
  };

  it("every state is plain JSON, parses back to itself, and the run ends within its bounds", () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(fc.array(move, { minLength: 1, maxLength: 20 }), (moves) => {
        const states = play(moves);
        for (const state of states) {
          const stored = JSON.parse(JSON.stringify(state));
          expect(stored).toEqual(state);
          expect(parseRunState(stored)).toEqual(state);
          for (const count of Object.values(state.context.phases.iteration_counts))
            expect(count).toBeLessThanOrEqual(3);
          if (state.next.kind === "run_phase" && state.next.phase_id === "build") {
            expect(state.next.executor).toMatchObject({ command: ["make", "v1"], cwd: "web" });
          }
        }
        const last = states.at(-1) as TRunState;
        expect(["done", "aborted", "failed"]).toContain(last.status);
        expect(last.status === "failed").toBe(last.failure !== null);
        expect(last.exit_code).toBe(
          last.status === "done" ? 0 : last.status === "failed" || last.abort?.reason === "max_iterations" ? 1 : 2,
        );
        expect(play(moves)).toEqual(states);
        seen.add(last.status);
        for (const record of last.context.checkpoints) if (record.timed_out) seen.add(record.decision);
      }),
      { numRuns: 300 },
    );
    // The scripts did reach every new path, not only the happy one.
    expect([...seen].sort()).toEqual(["aborted", "continue", "done", "escalated", "failed"]);
  });
});
