// Cancelling a run from outside its checkpoints: a run waiting for a worker that will never come
// (a mistyped queue), or one a person wants stopped mid-way. It ends as aborted by a person
// (exit code 2), with who and why in its log; a finished run cannot be cancelled.

import { type TNow, timestamp } from "./clock";
import { CheckpointError } from "./errors";
import { end, log } from "./flow";
import type { TWorkflow } from "./schema";
import { resumeState, type TRunState } from "./state";

export type TCancelInput = { now: TNow; reason: string };

export function cancelRun(workflow: TWorkflow, state: TRunState, input: TCancelInput): TRunState {
  const draft = resumeState(workflow, state);
  if (draft.status !== "running" && draft.status !== "awaiting_decision") {
    throw new CheckpointError("INVALID_STATE", `the run is ${draft.status}: there is nothing to cancel`);
  }
  const reason = typeof input.reason === "string" ? input.reason.trim().slice(0, 2000) : "";
  if (reason === "") throw new CheckpointError("INVALID_INPUT", "reason: say why the run is cancelled");
  const at = timestamp(input.now);
  end(draft, 2, { reason: "user", message: `Cancelled: ${reason}` });
  log(draft, "warn", `Workflow cancelled: ${reason}`, at);
  return draft;
}
