// The runner as a pure state machine: (definition, state, input) → a new state. The host runs
// the steps, shows the checkpoints and stores the state; nothing here reads a clock or a file.

import { CheckpointError } from "./errors";
import { afterPhase, checkpointOptions, currentPhase, end, enterPhase, log } from "./flow";
import { type TJsonObject, toPlainData } from "./plain-data";
import type { TWorkflow } from "./schema";
import { hostData, parseRunState, RUN_STATE_VERSION, type TCheckpointRecord, type TRunState } from "./state";

export const MAX_FEEDBACK_CHARS = 10_000;

/** A point in time from the host's clock: a Date, or ISO 8601 text. */
export type TNow = Date | string;

export type TStartOptions = {
  /** Override or add to the definition's `variables`. */
  variables?: Record<string, unknown>;
  /** Initial host data for the context (not `phases`, `skip_phases` or `checkpoints`). */
  context?: Record<string, unknown>;
  /** Phases to skip from the start (ids of this workflow). */
  skip_phases?: string[];
  now?: TNow;
};

export function startRun(workflow: TWorkflow, options: TStartOptions = {}): TRunState {
  const at = options.now === undefined ? null : timestamp(options.now);
  const skip = options.skip_phases ?? [];
  for (const id of skip) {
    if (!workflow.phases.some((phase) => phase.id === id)) {
      throw new CheckpointError("INVALID_INPUT", `skip_phases: unknown phase "${id}"`);
    }
  }
  const state: TRunState = {
    version: RUN_STATE_VERSION,
    workflow: workflow.name,
    status: "running",
    phase_index: 0,
    variables: {
      ...(toPlainData(workflow.variables, "workflow.variables") as TJsonObject),
      ...variablesOf(options.variables),
    },
    context: {
      ...(options.context === undefined ? {} : hostData(options.context, "context")),
      phases: { iteration_counts: {}, gap_retries: {} },
      skip_phases: [...new Set(skip)],
      checkpoints: [],
    },
    next: { kind: "finished", exit_code: 0 },
    pending: null,
    exit_code: null,
    abort: null,
    log: [],
  };
  log(state, "info", `Workflow started: ${workflow.name}`, at);
  enterPhase(workflow, state, 0, at);
  return state;
}

export type TPhaseCompletedInput = {
  now: TNow;
  /** When given, must be the phase the state is waiting for (guards against a stale callback). */
  phase_id?: string;
  /** Merged into the context, key by key (shallow); what conditions read. */
  data?: Record<string, unknown>;
  /** Merged into the run's variables (e.g. a count a later prompt shows). */
  variables?: Record<string, unknown>;
};

/** The host ran `state.next.run`: merge its data, then gap check and checkpoint. */
export function phaseCompleted(workflow: TWorkflow, state: TRunState, input: TPhaseCompletedInput): TRunState {
  const draft = resume(workflow, state);
  const at = timestamp(input.now);
  const next = draft.next;
  if (draft.status !== "running" || next.kind !== "run_phase") {
    throw new CheckpointError("INVALID_STATE", `no phase is running (status ${draft.status})`);
  }
  if (currentPhase(workflow, draft).id !== next.phase_id) {
    throw new CheckpointError("INVALID_STATE", `the definition's phase ${draft.phase_index} is not "${next.phase_id}"`);
  }
  if (input.phase_id !== undefined && input.phase_id !== next.phase_id) {
    throw new CheckpointError("INVALID_STATE", `phase "${input.phase_id}" is not running; "${next.phase_id}" is`);
  }
  if (input.data !== undefined) Object.assign(draft.context, hostData(input.data, "data"));
  draft.variables = { ...draft.variables, ...variablesOf(input.variables) };
  log(draft, "info", `Phase completed: ${next.phase_id}`, at);
  afterPhase(workflow, draft, at);
  return draft;
}

export type TDecisionInput = {
  /** One of `state.pending.options[].label`. */
  label: string;
  /** Only for options with `with_feedback: true`. */
  feedback?: string;
  now: TNow;
};

/** The user chose an option at the pending checkpoint: record it, then apply its action. */
export function decide(workflow: TWorkflow, state: TRunState, input: TDecisionInput): TRunState {
  const draft = resume(workflow, state);
  const at = timestamp(input.now);
  const pending = draft.pending;
  if (draft.status !== "awaiting_decision" || pending === null) {
    throw new CheckpointError("INVALID_STATE", `no checkpoint is waiting for a decision (status ${draft.status})`);
  }
  const phase = currentPhase(workflow, draft);
  if (phase.id !== pending.phase_id) {
    throw new CheckpointError(
      "INVALID_STATE",
      `the definition's phase ${draft.phase_index} is not "${pending.phase_id}"`,
    );
  }
  const options = checkpointOptions(phase) ?? [];
  const option = options.find((candidate) => candidate.label === input.label);
  if (!option) {
    const labels = options.map((candidate) => JSON.stringify(candidate.label)).join(", ");
    throw new CheckpointError(
      "UNKNOWN_OPTION",
      `no option ${JSON.stringify(input.label)} at ${phase.id}; options: ${labels}`,
    );
  }
  const feedback = feedbackOf(input.feedback, option.with_feedback === true, option.label);
  const { action, phases: skipped } = option.on_select;
  const target = option.on_select.target === "current" ? phase.id : option.on_select.target;
  const record: TCheckpointRecord = {
    phase: phase.id,
    decision: action,
    ...(action === "skip_phases" && skipped ? { skipped: [...skipped] } : {}),
    ...(action === "repeat_phase" && target ? { target } : {}),
    ...(feedback === undefined ? {} : { feedback }),
    timestamp: at,
  };
  draft.context.checkpoints.push(record);
  draft.pending = null;
  log(draft, "info", `Decision at ${phase.id}: ${option.label} (${action})`, at);
  switch (action) {
    case "abort":
      end(draft, 2, { reason: "user", message: `aborted by the user at ${phase.id}` });
      log(draft, "info", "Workflow aborted by user", at);
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
  return draft;
}

/** A checked private copy of the caller's state: transitions mutate the copy only. */
function resume(workflow: TWorkflow, state: TRunState): TRunState {
  const draft = parseRunState(state);
  if (draft.workflow !== workflow.name) {
    throw new CheckpointError(
      "INVALID_STATE",
      `this state belongs to workflow "${draft.workflow}", not "${workflow.name}"`,
    );
  }
  return draft;
}

function feedbackOf(feedback: unknown, allowed: boolean, label: string): string | undefined {
  if (feedback === undefined) return undefined;
  if (!allowed) throw new CheckpointError("FEEDBACK_NOT_ALLOWED", `option "${label}" does not take feedback`);
  if (typeof feedback !== "string") throw new CheckpointError("INVALID_INPUT", "feedback: must be a string");
  if (feedback.length > MAX_FEEDBACK_CHARS) {
    throw new CheckpointError(
      "INVALID_INPUT",
      `feedback: is ${feedback.length} characters; the limit is ${MAX_FEEDBACK_CHARS}`,
    );
  }
  return feedback;
}

function variablesOf(variables: Record<string, unknown> | undefined): TJsonObject {
  if (variables === undefined) return {};
  const plain = toPlainData(variables, "variables");
  if (typeof plain !== "object" || plain === null || Array.isArray(plain)) {
    throw new CheckpointError("INVALID_INPUT", "variables: must be an object");
  }
  return plain;
}

function timestamp(now: TNow): string {
  if (now instanceof Date) {
    if (Number.isNaN(now.getTime())) throw new CheckpointError("INVALID_INPUT", "now: is an invalid Date");
    return now.toISOString();
  }
  if (typeof now !== "string" || Number.isNaN(Date.parse(now))) {
    throw new CheckpointError("INVALID_INPUT", "now: must be a Date or an ISO 8601 timestamp");
  }
  return now;
}
