// The runner's transitions, applied to a private copy of the state (runner.ts makes the copy, so
// callers never see a mutation). Seed order: skip list → run phase → gap check → checkpoint.

import { evaluateCondition } from "./condition/evaluate";
import { CheckpointError } from "./errors";
import { resolveExecutor } from "./executors";
import type { TCheckpointOption, TPhase, TWorkflow } from "./schema";
import type { TLogEntry, TPendingCheckpoint, TRunState } from "./state";
import { substitute } from "./template";
import { deadlineAfter } from "./timeouts";

export const APPROVAL_PROMPT = "Continue with next phase?";
/** The options of `approval_required: true` (seed: Continue / Abort). */
export const APPROVAL_OPTIONS: readonly TCheckpointOption[] = [
  { label: "Continue", with_feedback: false, on_select: { action: "continue" } },
  { label: "Abort", with_feedback: false, on_select: { action: "abort" } },
];

/** A timestamp (ISO text) for log entries and records; null when the caller gave no clock. */
export type TAt = string | null;

export function log(state: TRunState, level: TLogEntry["level"], message: string, at: TAt): void {
  state.log.push({ level, message, timestamp: at });
}

/** The options a phase's checkpoint offers, or undefined when it has none to show. */
export function checkpointOptions(phase: TPhase): readonly TCheckpointOption[] | undefined {
  const checkpoint = phase.checkpoint;
  if (checkpoint?.approval_required === true) return APPROVAL_OPTIONS;
  return checkpoint?.options;
}

/**
 * Starts the first phase at or after `index` that is not on the skip list (`force`: this exact
 * phase, as a repeat does). Every start counts an iteration; one past max_iterations stops the run.
 */
export function enterPhase(workflow: TWorkflow, state: TRunState, index: number, at: TAt, force = false): void {
  const { phases } = workflow;
  let i = index;
  while (!force && i < phases.length && state.context.skip_phases.includes(phases[i]?.id ?? "")) {
    log(state, "info", `Skipping phase: ${phases[i]?.id}`, at);
    i += 1;
  }
  const phase = phases[i];
  if (!phase) {
    finish(state, phases.length, at);
    return;
  }
  const counts = state.context.phases.iteration_counts;
  const iteration = (counts[phase.id] ?? 0) + 1;
  if (iteration > workflow.max_iterations) {
    stop(
      state,
      `phase "${phase.id}" would start iteration ${iteration}; max_iterations is ${workflow.max_iterations}`,
      at,
    );
    return;
  }
  counts[phase.id] = iteration;
  state.context.phases.gap_retries[phase.id] = 0;
  state.phase_index = i;
  state.pending = null;
  if (phase.run === undefined) {
    log(state, "debug", `Phase ${phase.id} has no step to run`, at);
    afterPhase(workflow, state, at);
    return;
  }
  log(state, "info", `Running phase: ${phase.id} (iteration ${iteration})`, at);
  runStep(state, phase, phase.run, 1, at);
}

/**
 * Asks the host to run the phase. An executor's `{{vars}}` are substituted now, with the run's
 * variables as they stand; if they no longer fit (a variable went missing, a cwd became "../x"),
 * running the step anyway would run something nobody wrote, so the run fails instead.
 */
export function runStep(state: TRunState, phase: TPhase, run: string, attempt: number, at: TAt): void {
  const iteration = state.context.phases.iteration_counts[phase.id] ?? 1;
  if (phase.executor === undefined) {
    state.status = "running";
    state.next = { kind: "run_phase", phase_id: phase.id, run, iteration, attempt };
    return;
  }
  let executor: ReturnType<typeof resolveExecutor>;
  try {
    executor = resolveExecutor(phase.executor, state.variables);
  } catch (error) {
    if (!(error instanceof CheckpointError)) throw error;
    failRun(state, phase.id, `cannot start ${phase.id}: ${error.message}`, at);
    return;
  }
  state.status = "running";
  state.next = { kind: "run_phase", phase_id: phase.id, run, executor, iteration, attempt };
}

/** The current phase has run: gap check (maybe run it again), then its checkpoint. */
export function afterPhase(workflow: TWorkflow, state: TRunState, at: TAt): void {
  const phase = currentPhase(workflow, state);
  // A phase without a step "re-runs" instantly; max_retries bounds that loop too.
  while (gapStillOpen(state, phase, at)) {
    if (phase.run !== undefined) {
      runStep(state, phase, phase.run, (state.context.phases.gap_retries[phase.id] ?? 0) + 1, at);
      return;
    }
  }
  checkpoint(workflow, state, phase, at);
}

/** Seed gap check: true (and one more retry counted) when the phase must run again. */
function gapStillOpen(state: TRunState, phase: TPhase, at: TAt): boolean {
  const gap = phase.gap_check;
  if (!gap) return false;
  const verdict = evaluateCondition(gap.condition, conditionScope(state, phase));
  const retries = state.context.phases.gap_retries[phase.id] ?? 0;
  if (!verdict.ok) {
    log(state, "error", `Gap check failed for ${phase.id}: ${verdict.error}; moving on`, at);
    return false;
  }
  if (!verdict.value) return false;
  if (retries >= gap.max_retries) {
    log(state, "warn", `Gap check for ${phase.id} still open after ${retries} retries; moving on`, at);
    return false;
  }
  state.context.phases.gap_retries[phase.id] = retries + 1;
  log(state, "info", `Gap check: running ${phase.id} again (retry ${retries + 1} of ${gap.max_retries})`, at);
  return true;
}

function checkpoint(workflow: TWorkflow, state: TRunState, phase: TPhase, at: TAt): void {
  const next = state.phase_index + 1;
  const cp = phase.checkpoint;
  const options = checkpointOptions(phase);
  if (!cp || !options) {
    enterPhase(workflow, state, next, at);
    return;
  }
  if (cp.approval_required === true) {
    log(state, "info", `Checkpoint: ${APPROVAL_PROMPT}`, at);
    open(state, phase, { kind: "approval", prompt: APPROVAL_PROMPT, files: [], options: view(options) }, at);
    return;
  }
  if (cp.condition !== undefined) {
    const verdict = evaluateCondition(cp.condition, conditionScope(state, phase));
    if (!verdict.ok) log(state, "error", `Checkpoint condition failed: ${verdict.error}`, at);
    else if (!verdict.value) log(state, "debug", "Checkpoint condition false, skipping", at);
    if (!verdict.ok || !verdict.value) {
      enterPhase(workflow, state, next, at);
      return;
    }
  }
  const prompt = render(state, cp.prompt ?? "", at);
  const files = (cp.show_files ?? []).map((file) => render(state, file, at));
  log(state, "info", `Checkpoint: ${prompt}`, at);
  for (const file of files) log(state, "info", `Review: ${file}`, at);
  open(state, phase, { kind: "custom", prompt, files, options: view(options) }, at);
}

function view(options: readonly TCheckpointOption[]): TPendingCheckpoint["options"] {
  return options.map((option) => ({ label: option.label, with_feedback: option.with_feedback === true }));
}

type TShown = Pick<TPendingCheckpoint, "kind" | "prompt" | "files" | "options">;

/** The run waits: what to show, who may decide, and (with a timeout) until when. */
function open(state: TRunState, phase: TPhase, shown: TShown, at: TAt): void {
  const timeout = phase.checkpoint?.timeout ?? null;
  // Without the time of arrival there is no deadline, and a timeout that never fires is a silent
  // bug: refuse (only startRun may be called without `now`).
  if (timeout !== null && at === null) {
    throw new CheckpointError("INVALID_INPUT", `now: is required: the checkpoint at ${phase.id} has a timeout`);
  }
  state.status = "awaiting_decision";
  state.pending = {
    phase_id: phase.id,
    ...shown,
    assignees: phase.checkpoint?.assignees ?? null,
    deadline: timeout === null || at === null ? null : deadlineAfter(at, timeout),
    timeout,
  };
  state.next = { kind: "await_decision", phase_id: phase.id };
  if (state.pending.deadline !== null) log(state, "info", `Decision due by ${state.pending.deadline}`, at);
}

/** Substitution is checked at load time; if the host's variables changed shape, show the raw text. */
function render(state: TRunState, template: string, at: TAt): string {
  try {
    return substitute(template, state.variables);
  } catch (error) {
    log(state, "error", `Cannot substitute "${template}": ${error instanceof Error ? error.message : "failed"}`, at);
    return template;
  }
}

/** What `phase` means inside a condition. */
function conditionScope(state: TRunState, phase: TPhase): { context: unknown; phase: unknown } {
  const { iteration_counts, gap_retries } = state.context.phases;
  return {
    context: state.context,
    phase: {
      id: phase.id,
      title: phase.title ?? null,
      run: phase.run ?? null,
      index: state.phase_index,
      iteration: iteration_counts[phase.id] ?? 0,
      attempt: (gap_retries[phase.id] ?? 0) + 1,
    },
  };
}

export function currentPhase(workflow: TWorkflow, state: TRunState): TPhase {
  const phase = workflow.phases[state.phase_index];
  if (!phase)
    throw new CheckpointError("INVALID_STATE", `phase_index ${state.phase_index} is not a phase of "${workflow.name}"`);
  return phase;
}

function finish(state: TRunState, phaseCount: number, at: TAt): void {
  state.status = "done";
  state.phase_index = phaseCount;
  state.pending = null;
  state.next = { kind: "finished", exit_code: 0 };
  state.exit_code = 0;
  log(state, "info", "Workflow complete", at);
}

function stop(state: TRunState, message: string, at: TAt): void {
  end(state, 1, { reason: "max_iterations", message });
  log(state, "error", message, at);
}

/** A step failed for good (or cannot start): the run ends, exit code 1, saying which and why. */
export function failRun(state: TRunState, phaseId: string, error: string, at: TAt): void {
  state.status = "failed";
  state.pending = null;
  state.next = { kind: "finished", exit_code: 1 };
  state.exit_code = 1;
  state.failure = { phase_id: phaseId, error };
  log(state, "error", `Workflow failed at ${phaseId}: ${error}`, at);
}

export function end(state: TRunState, exitCode: 1 | 2, abort: NonNullable<TRunState["abort"]>): void {
  state.status = "aborted";
  state.pending = null;
  state.next = { kind: "finished", exit_code: exitCode };
  state.exit_code = exitCode;
  state.abort = abort;
}
