import { phaseCompleted, phaseFailed, type TRunState, type TWorkflow } from "@solserver/checkpoint";
import { DomainError, isDomainError, WEBHOOK_QUEUE } from "@solserver/contracts";
import type { TWorkflowArtifactWrite } from "@solserver/db";
import type { TStep, TStepResult } from "../workflows/driver";
import type { TServiceDeps } from "./deps";

// The server's drive loop over a stored run: each phase's step runs in the request that started
// or resumed the run, and the state is saved after every phase on the version read (a crash
// loses at most the phase under way; someone else moving the run is CONFLICT). A `worker` phase
// is not run here: the run is saved as awaiting_worker for its queue and an external agent claims
// it (workflow-workers.ts); nor is a `webhook` phase, saved for the server's own queue
// (workflow-webhooks.ts), so a slow receiver never holds a request. A failing step goes through
// the runner's phaseFailed (gap-check retries, then the run fails with the step's message).

/** The queue the state's next phase waits on: its worker's, or the server's own for a webhook; null when run here. */
function queueOf(state: TRunState): string | null {
  const next = state.next;
  if (state.status !== "running" || next.kind !== "run_phase") return null;
  if (next.executor?.kind === "worker") return next.executor.worker;
  return next.executor?.kind === "webhook" ? WEBHOOK_QUEUE : null;
}

/** The row's columns that follow from a state: status, the worker queue, the checkpoint deadline, the error. */
export function rowFields(state: TRunState): {
  status: string;
  queue: string | null;
  deadlineAt: Date | null;
  error: string | null;
} {
  const queue = queueOf(state);
  if (queue !== null) return { status: "awaiting_worker", queue, deadlineAt: null, error: null };
  const deadline = state.status === "awaiting_decision" ? (state.pending?.deadline ?? null) : null;
  return {
    status: state.status,
    queue: null,
    deadlineAt: deadline ? new Date(deadline) : null,
    error:
      state.status === "failed" && state.failure ? `phase ${state.failure.phase_id}: ${state.failure.error}` : null,
  };
}

export type TRunSaver = {
  /** Saves `state` (and the step's files) on the version last written; CONFLICT when someone moved the run. */
  save: (state: TRunState, artifacts?: readonly TWorkflowArtifactWrite[]) => Promise<void>;
  version: () => number;
};

export function runSaver(deps: TServiceDeps, runId: string, version: number): TRunSaver {
  let at = version;
  return {
    version: () => at,
    async save(state, artifacts) {
      const fields = rowFields(state);
      if (!(await deps.repos.workflows.save(runId, at, { ...fields, state, ...(artifacts ? { artifacts } : {}) }))) {
        throw new DomainError("CONFLICT", `run ${runId} was moved by someone else meanwhile; look at it again`, {
          field: "run_id",
        });
      }
      at++;
    },
  };
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The state after a phase's outcome: its result merged in, or its failure through phaseFailed. */
export function afterPhase(
  workflow: TWorkflow,
  state: TRunState,
  phaseId: string,
  now: Date,
  outcome: { result: TStepResult } | { error: string },
): TRunState {
  if ("error" in outcome) return phaseFailed(workflow, state, { now, phase_id: phaseId, error: outcome.error });
  try {
    return phaseCompleted(workflow, state, {
      now,
      phase_id: phaseId,
      ...(outcome.result.data ? { data: outcome.result.data } : {}),
      ...(outcome.result.variables ? { variables: outcome.result.variables } : {}),
    });
  } catch (error) {
    // Data the runner refuses (a reserved key, a class instance) is the step's failure, not a crash.
    return phaseFailed(workflow, state, { now, phase_id: phaseId, error: `its result was refused: ${message(error)}` });
  }
}

/**
 * Drives `state` on until it waits (for a person or a worker) or ends, saving after each phase.
 * `onWaiting` is told when the run stops at a checkpoint (notifications). Returns the last state.
 */
export async function driveStored(
  deps: TServiceDeps,
  input: {
    saver: TRunSaver;
    workflow: TWorkflow;
    state: TRunState;
    steps: Readonly<Record<string, TStep>>;
    onWaiting?: (state: TRunState) => void;
  },
): Promise<TRunState> {
  let state = input.state;
  while (state.status === "running" && state.next.kind === "run_phase") {
    const next = state.next;
    // Every path here has already stored this state (rowFields marks it awaiting_worker): saving it
    // again would only race a worker that claims it meanwhile.
    if (queueOf(state) !== null) return state;
    const step = Object.hasOwn(input.steps, next.run) ? input.steps[next.run] : undefined;
    let outcome: { result: TStepResult } | { error: string };
    try {
      if (!step) throw new Error(`unknown step "${next.run}"`);
      outcome = { result: await step({ state, phaseId: next.phase_id }) };
    } catch (error) {
      if (isDomainError(error) && error.code === "CONFLICT") throw error;
      outcome = { error: message(error) };
    }
    state = afterPhase(input.workflow, state, next.phase_id, deps.now(), outcome);
    await input.saver.save(state, "result" in outcome ? outcome.result.artifacts : undefined);
  }
  if (state.status === "awaiting_decision") input.onWaiting?.(state);
  return state;
}
