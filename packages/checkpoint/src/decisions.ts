// Taking a checkpoint option: record it in the seed's shape, then apply its action. Shared by a
// person's decision (decide) and a timeout that takes an option for them (expireDecision), so a
// timed-out choice moves the run exactly as the same choice made by hand would.

import { CheckpointError } from "./errors";
import { end, enterPhase, log } from "./flow";
import type { TCheckpointOption, TPhase, TWorkflow } from "./schema";
import type { TCheckpointRecord, TRunState } from "./state";

/** `timed_out`: the option was taken by the checkpoint's timeout, not by a person. */
export type TTaken = { feedback?: string | undefined; timed_out?: boolean };

export function takeOption(
  workflow: TWorkflow,
  draft: TRunState,
  phase: TPhase,
  option: TCheckpointOption,
  taken: TTaken,
  at: string,
): void {
  const { feedback, timed_out: timedOut } = taken;
  const { action, phases: skipped } = option.on_select;
  const target = option.on_select.target === "current" ? phase.id : option.on_select.target;
  const record: TCheckpointRecord = {
    phase: phase.id,
    decision: action,
    ...(action === "skip_phases" && skipped ? { skipped: [...skipped] } : {}),
    ...(action === "repeat_phase" && target ? { target } : {}),
    ...(feedback === undefined ? {} : { feedback }),
    // The action alone may not tell which option the timeout took (two may continue).
    ...(timedOut === true ? { timed_out: true as const, label: option.label } : {}),
    timestamp: at,
  };
  draft.context.checkpoints.push(record);
  draft.pending = null;
  const how = timedOut === true ? "Timed out" : "Decision";
  log(draft, "info", `${how} at ${phase.id}: ${option.label} (${action})`, at);
  switch (action) {
    case "abort":
      end(
        draft,
        2,
        timedOut === true
          ? { reason: "timeout", message: `aborted by the checkpoint's timeout at ${phase.id}` }
          : { reason: "user", message: `aborted by the user at ${phase.id}` },
      );
      log(draft, "info", timedOut === true ? "Workflow aborted by timeout" : "Workflow aborted by user", at);
      break;
    case "repeat_phase": {
      const index = workflow.phases.findIndex((candidate) => candidate.id === target);
      if (index < 0) throw new CheckpointError("INVALID_STATE", `repeat target "${target}" is not a phase`);
      enterPhase(workflow, draft, index, at, true);
      break;
    }
    case "skip_phases":
      draft.context.skip_phases = [...new Set([...draft.context.skip_phases, ...(skipped ?? [])])];
      enterPhase(workflow, draft, draft.phase_index + 1, at);
      break;
    case "continue":
      enterPhase(workflow, draft, draft.phase_index + 1, at);
      break;
  }
}

/** The pending checkpoint's phase, checked against the definition (a changed definition is refused). */
export function pendingPhase(workflow: TWorkflow, draft: TRunState): TPhase {
  const pending = draft.pending;
  if (draft.status !== "awaiting_decision" || pending === null) {
    throw new CheckpointError("INVALID_STATE", `no checkpoint is waiting for a decision (status ${draft.status})`);
  }
  const phase = workflow.phases[draft.phase_index];
  if (phase?.id !== pending.phase_id) {
    throw new CheckpointError(
      "INVALID_STATE",
      `the definition's phase ${draft.phase_index} is not "${pending.phase_id}"`,
    );
  }
  return phase;
}
