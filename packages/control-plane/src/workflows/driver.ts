import { phaseCompleted, phaseFailed, type TRunState, type TWorkflow } from "@solserver/checkpoint";

/** What a step hands back: context data (what conditions read), variables, files it wrote. */
export type TStepResult = {
  data?: Record<string, unknown>;
  variables?: Record<string, unknown>;
  artifacts?: { path: string; content: string }[];
};

/**
 * A step's own failure, in the workflow's terms (a command's non-zero exit, its timeout): driveRun
 * hands it to the runner's phaseFailed, so a gap check retries the phase and otherwise the run ends
 * `failed` with this message. Any other error a step throws stops the drive, as before, and the
 * host decides what it means.
 */
export class StepFailure extends Error {
  override name = "StepFailure";
}

/** A phase's `run`: host work the pure runner names but never does. */
export type TStep = (input: { state: TRunState; phaseId: string }) => Promise<TStepResult>;

export type TDriveHooks = {
  steps: Readonly<Record<string, TStep>>;
  now: () => Date;
  /** After each phase: store the state (and the step's files). Throwing stops the drive. */
  onPhase?: (state: TRunState, artifacts: TStepResult["artifacts"]) => Promise<void>;
  /** Progress for a terminal or a log: "phase resolve_pending: started" ... */
  onProgress?: (message: string) => void;
};

/**
 * Runs the phases the state asks for, one after another, until the run waits for a decision or
 * ends. Each step's result goes through the pure runner (gap check, checkpoint; a StepFailure
 * through phaseFailed: a retry or a failed run), and the new state is handed to `onPhase` before
 * the next phase starts: a crash loses at most the phase under way.
 */
export async function driveRun(workflow: TWorkflow, start: TRunState, hooks: TDriveHooks): Promise<TRunState> {
  let state = start;
  while (state.status === "running" && state.next.kind === "run_phase") {
    const { phase_id: phaseId, run, iteration, attempt } = state.next;
    const step = Object.hasOwn(hooks.steps, run) ? hooks.steps[run] : undefined;
    if (!step) throw new Error(`phase ${phaseId}: unknown step "${run}"`);
    hooks.onProgress?.(
      `phase ${phaseId}: ${run}${iteration > 1 ? ` (iteration ${iteration})` : ""}${attempt > 1 ? ` (retry ${attempt - 1})` : ""}`,
    );
    let result: TStepResult;
    try {
      result = await step({ state, phaseId });
    } catch (error) {
      if (!(error instanceof StepFailure)) throw error;
      hooks.onProgress?.(`phase ${phaseId}: failed: ${error.message}`);
      state = phaseFailed(workflow, state, { now: hooks.now(), phase_id: phaseId, error: error.message });
      await hooks.onPhase?.(state, undefined);
      continue;
    }
    state = phaseCompleted(workflow, state, {
      now: hooks.now(),
      phase_id: phaseId,
      ...(result.data ? { data: result.data } : {}),
      ...(result.variables ? { variables: result.variables } : {}),
    });
    await hooks.onPhase?.(state, result.artifacts);
  }
  return state;
}
