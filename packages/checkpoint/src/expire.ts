// Applying a checkpoint's timeout once the host's clock passes `pending.deadline`. The host calls
// expireDecision for waiting runs (a sweep, or before showing or deciding one); it is a no-op for
// any run that is not due, so calling it often is safe.

import type { TAssignees } from "./assignees";
import { type TNow, timestamp } from "./clock";
import { pendingPhase, takeOption } from "./decisions";
import { CheckpointError } from "./errors";
import { checkpointOptions, log } from "./flow";
import type { TWorkflow } from "./schema";
import { resumeState, type TRunState } from "./state";

export type TExpireInput = { now: TNow };

/**
 * If the run waits for a decision whose deadline is at or before `now`, applies the timeout:
 * - `option`: that option is taken as if decided (same transition as decide), and the record in
 *   `context.checkpoints` carries `timed_out: true` and the option's `label`;
 * - `escalate_to`: the pending checkpoint's assignees become escalate_to, its deadline and timeout
 *   are cleared (it escalates once), and `{ phase, decision: "escalated", timed_out: true,
 *   assignees, timestamp }` is recorded.
 * Otherwise (not waiting, no deadline, not yet due) it returns the very same state object, so
 * `expireDecision(w, s, { now }) === s` tells the host there is nothing to store. Throws only for
 * an invalid `now`, or a due state that does not fit the definition.
 */
export function expireDecision(workflow: TWorkflow, state: TRunState, input: TExpireInput): TRunState {
  const at = timestamp(input.now);
  // Read before any parse: states stored before deadlines existed have none and stay untouched.
  const deadline = state.status === "awaiting_decision" ? state.pending?.deadline : undefined;
  if (typeof deadline !== "string" || Date.parse(at) < Date.parse(deadline)) return state;
  const draft = resumeState(workflow, state);
  const phase = pendingPhase(workflow, draft);
  const pending = draft.pending;
  const timeout = pending?.timeout;
  if (!pending || !timeout) return state;
  if ("escalate_to" in timeout) {
    draft.pending = { ...pending, assignees: timeout.escalate_to, deadline: null, timeout: null };
    draft.context.checkpoints.push({
      phase: phase.id,
      decision: "escalated",
      timed_out: true,
      assignees: timeout.escalate_to,
      timestamp: at,
    });
    log(draft, "warn", `No decision at ${phase.id} by ${deadline}: escalated to ${describe(timeout.escalate_to)}`, at);
    return draft;
  }
  const option = (checkpointOptions(phase) ?? []).find((candidate) => candidate.label === timeout.option);
  if (!option) {
    throw new CheckpointError(
      "INVALID_STATE",
      `the timeout's option "${timeout.option}" is not offered at ${phase.id}`,
    );
  }
  log(draft, "warn", `No decision at ${phase.id} by ${deadline}: taking "${option.label}"`, at);
  takeOption(workflow, draft, phase, option, { timed_out: true }, at);
  return draft;
}

function describe(assignees: TAssignees): string {
  return "role" in assignees ? `role ${assignees.role}` : assignees.accounts.join(", ");
}
