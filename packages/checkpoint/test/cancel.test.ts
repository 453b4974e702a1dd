// cancelRun: a run under way ends aborted by a person with the reason logged; a finished run,
// another workflow's state or a blank reason are refused.
import { describe, expect, it } from "vitest";
import { CheckpointError, cancelRun, decide, loadWorkflowOrThrow, startRun } from "../src/index";

const flow = loadWorkflowOrThrow(`name: c
phases:
  - id: work
    run: { worker: agents.work }
  - id: review
    checkpoint: { approval_required: true }
`);
const now = "2026-11-27T12:00:00.000Z";

describe("cancelRun", () => {
  it("ends a run waiting for a worker as aborted by a person (exit 2), the reason in its log", () => {
    const state = startRun(flow, { now });
    const cancelled = cancelRun(flow, state, { now, reason: "  queue typo  " });
    expect(cancelled).toMatchObject({
      status: "aborted",
      exit_code: 2,
      next: { kind: "finished", exit_code: 2 },
      abort: { reason: "user", message: "Cancelled: queue typo" },
      pending: null,
    });
    expect(cancelled.log.at(-1)).toMatchObject({
      level: "warn",
      message: "Workflow cancelled: queue typo",
      timestamp: now,
    });
    // The input state is not changed.
    expect(state.status).toBe("running");
  });

  it("refuses a finished run, a blank reason and another workflow's state", () => {
    const state = startRun(flow, { now });
    const ended = cancelRun(flow, state, { now, reason: "stop" });
    expect(() => cancelRun(flow, ended, { now, reason: "again" })).toThrow(CheckpointError);
    expect(() => cancelRun(flow, state, { now, reason: "  " })).toThrow(/reason: say why/);
    const other = loadWorkflowOrThrow("name: other\nphases:\n  - id: a\n    checkpoint: { approval_required: true }\n");
    const otherState = startRun(other, { now });
    expect(() => cancelRun(flow, otherState, { now, reason: "x" })).toThrow(/belongs to workflow "other"/);
    expect(decide(other, otherState, { label: "Continue", now }).status).toBe("done");
  });
});
