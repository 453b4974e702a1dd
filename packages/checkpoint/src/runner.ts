// The runner as a pure state machine: (definition, state, input) → a new state. The host runs
// the steps, shows the checkpoints and stores the state; nothing here reads a clock or a file.

import { type TNow, timestamp } from "./clock";
import { pendingPhase, takeOption } from "./decisions";
import { CheckpointError } from "./errors";
import { afterPhase, checkpointOptions, currentPhase, enterPhase, failRun, log, runStep } from "./flow";
import { type TJsonObject, toPlainData } from "./plain-data";
import type { TWorkflow } from "./schema";
import { hostData, RUN_STATE_VERSION, resumeState, type TRunState } from "./state";

export const MAX_FEEDBACK_CHARS = 10_000;
/** A failed step's message is kept whole up to here; beyond, it is cut (a stack trace, a log). */
export const MAX_ERROR_CHARS = 10_000;

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
    failure: null,
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
  const draft = resumeState(workflow, state);
  const at = timestamp(input.now);
  const phaseId = runningPhase(workflow, draft, input.phase_id);
  if (input.data !== undefined) Object.assign(draft.context, hostData(input.data, "data"));
  draft.variables = { ...draft.variables, ...variablesOf(input.variables) };
  log(draft, "info", `Phase completed: ${phaseId}`, at);
  afterPhase(workflow, draft, at);
  return draft;
}

export type TPhaseFailedInput = {
  now: TNow;
  /** The phase whose step failed: must be the one the state is waiting for. */
  phase_id: string;
  /** What went wrong, for people: kept in the log and, if the run ends, in `state.failure`. */
  error: string;
};

/**
 * The host's step for `state.next` failed (a command's non-zero exit, a webhook that kept
 * failing, a worker whose lease ran out). Seed gap-check semantics: a phase with a gap_check that
 * has retries left runs again (`attempt` + 1, counted in gap_retries like a gap retry, whatever
 * the gap condition says); otherwise the run ends `failed` with exit code 1 and `failure`.
 * Retries never add iterations, so max_iterations still bounds repeats of the phase.
 */
export function phaseFailed(workflow: TWorkflow, state: TRunState, input: TPhaseFailedInput): TRunState {
  const draft = resumeState(workflow, state);
  const at = timestamp(input.now);
  if (typeof input.phase_id !== "string") throw new CheckpointError("INVALID_INPUT", "phase_id: must be a string");
  const phaseId = runningPhase(workflow, draft, input.phase_id);
  const error = errorText(input.error);
  const phase = currentPhase(workflow, draft);
  log(draft, "error", `Phase failed: ${phaseId}: ${error}`, at);
  const retries = draft.context.phases.gap_retries[phaseId] ?? 0;
  const gap = phase.gap_check;
  if (gap === undefined || retries >= gap.max_retries || phase.run === undefined) {
    if (gap !== undefined) log(draft, "warn", `No retries left for ${phaseId} (${gap.max_retries})`, at);
    failRun(draft, phaseId, error, at);
    return draft;
  }
  draft.context.phases.gap_retries[phaseId] = retries + 1;
  log(draft, "info", `Running ${phaseId} again after the failure (retry ${retries + 1} of ${gap.max_retries})`, at);
  runStep(draft, phase, phase.run, retries + 2, at);
  return draft;
}

/** The id of the phase the state waits on the host for; `claimed` guards against a stale callback. */
function runningPhase(workflow: TWorkflow, draft: TRunState, claimed: string | undefined): string {
  const next = draft.next;
  if (draft.status !== "running" || next.kind !== "run_phase") {
    throw new CheckpointError("INVALID_STATE", `no phase is running (status ${draft.status})`);
  }
  if (currentPhase(workflow, draft).id !== next.phase_id) {
    throw new CheckpointError("INVALID_STATE", `the definition's phase ${draft.phase_index} is not "${next.phase_id}"`);
  }
  if (claimed !== undefined && claimed !== next.phase_id) {
    throw new CheckpointError("INVALID_STATE", `phase "${claimed}" is not running; "${next.phase_id}" is`);
  }
  return next.phase_id;
}

/** A failure is reported, never refused for its length: a refusal would lose the failure itself. */
function errorText(error: unknown): string {
  if (typeof error !== "string") throw new CheckpointError("INVALID_INPUT", "error: must be a string");
  const text = error.trim() || "the step failed without a message";
  return text.length <= MAX_ERROR_CHARS ? text : `${text.slice(0, MAX_ERROR_CHARS)}… (${text.length} characters)`;
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
  const draft = resumeState(workflow, state);
  const at = timestamp(input.now);
  const phase = pendingPhase(workflow, draft);
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
  takeOption(workflow, draft, phase, option, { feedback }, at);
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
