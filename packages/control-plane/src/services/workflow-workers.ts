import path from "node:path";
import { parseRunState, relativePathProblem, type TRunState } from "@solserver/checkpoint";
import {
  DomainError,
  isDomainError,
  type TWorkflowClaim,
  type TWorkflowClaimRequest,
  type TWorkflowCompleteRequest,
  type TWorkflowHeartbeatRequest,
  type TWorkflowRun,
} from "@solserver/contracts";
import { serverSteps } from "../workflows/server-steps";
import { requireJam } from "./access";
import type { TServiceContext } from "./context";
import { afterPhase, runSaver } from "./workflow-drive";
import { runView } from "./workflow-view";
import { drive, loadDefinition } from "./workflows";

// `worker` phases: an external agent (a script with an API token) claims the next phase of a
// queue it serves, holds it with a lease it renews by heartbeat, and completes or fails it with
// its outputs. A lease that expires (the worker crashed) makes the phase claimable again; every
// claim and completion is a write conditional on the run's version, so of two workers racing,
// exactly one gets a phase, and a phase is completed exactly once.

/** How often a long-polling claim looks again. */
const POLL_MS = 200;

function leaseMsOf(state: unknown): number {
  try {
    const next = parseRunState(state).next;
    if (next.kind === "run_phase" && next.executor?.kind === "worker") return next.executor.lease_ms;
  } catch {
    // A state that does not parse is not claimable work; the claim then fails on completion.
  }
  return 5 * 60_000;
}

function claimView(runId: string, name: string, state: TRunState, lease: { leaseId: string; leaseExpiresAt: Date }) {
  if (state.next.kind !== "run_phase") throw new Error(`run ${runId} has no phase to run`);
  return {
    run_id: runId,
    workflow: name,
    phase_id: state.next.phase_id,
    iteration: state.next.iteration,
    attempt: state.next.attempt,
    lease_id: lease.leaseId,
    lease_expires_ts: lease.leaseExpiresAt.toISOString(),
    context: state.context as Record<string, unknown>,
    variables: state.variables as Record<string, unknown>,
  } satisfies TWorkflowClaim;
}

/** The next phase of `queue`, or null when none became claimable within `wait_ms`. */
export async function claimWorkflowPhase(
  { deps, caller }: TServiceContext,
  input: TWorkflowClaimRequest,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
): Promise<{ claim: TWorkflowClaim | null }> {
  requireJam(caller, "work on workflow phases");
  const until = Date.now() + input.wait_ms;
  for (;;) {
    const lease = await deps.repos.workflows.claim({
      queue: input.queue,
      owner: `${input.worker} (${caller.email})`,
      leaseMs: leaseMsOf,
      now: deps.now(),
    });
    if (lease) {
      const row = await deps.repos.workflows.get(lease.runId);
      if (row) return { claim: claimView(row.id, row.name, parseRunState(row.state), lease) };
    }
    const left = until - Date.now();
    if (left <= 0) return { claim: null };
    await sleep(Math.min(POLL_MS, left));
  }
}

/** Renews the lease; CONFLICT when it is no longer the worker's (expired and claimed by another, or done). */
export async function heartbeatWorkflowPhase(
  { deps, caller }: TServiceContext,
  input: TWorkflowHeartbeatRequest,
): Promise<{ lease_expires_ts: string }> {
  requireJam(caller, "work on workflow phases");
  const row = await deps.repos.workflows.get(input.run_id);
  if (!row) throw new DomainError("NOT_FOUND", `workflow run ${input.run_id} does not exist`, { field: "run_id" });
  const leaseExpiresAt = new Date(deps.now().getTime() + leaseMsOf(row.state));
  if (!(await deps.repos.workflows.extendLease({ runId: row.id, leaseId: input.lease_id, leaseExpiresAt }))) {
    throw lostLease(row.id);
  }
  return { lease_expires_ts: leaseExpiresAt.toISOString() };
}

function lostLease(runId: string): DomainError {
  return new DomainError(
    "CONFLICT",
    `run ${runId}: this lease is no longer yours (the phase was completed, or its lease expired and another worker claimed it); stop working on it`,
    { field: "lease_id" },
  );
}

/**
 * A worker's files under the keys `show_files` names them by: relative paths inside the workspace
 * (the runner's rule, as for command artifacts), `./` and `a/./b` written plainly.
 */
function normalizedArtifacts(artifacts: readonly { path: string; content: string }[]) {
  return artifacts.map((a, i) => {
    const problem = relativePathProblem(a.path);
    if (problem !== undefined) {
      throw new DomainError("BAD_INPUT", `artifacts.${i}.path: ${problem}`, { field: `artifacts.${i}.path` });
    }
    return { path: path.posix.normalize(a.path), content: a.content };
  });
}

/**
 * The worker's outcome: `done` merges its data and stores its files, `failed` goes through the
 * runner's failure rules (gap-check retries, then the run fails). The run then drives on as far
 * as it can, acting as the worker's account. A completion with a lease that is no longer current
 * changes nothing (CONFLICT): exactly one completion counts.
 */
export async function completeWorkflowPhase(
  { deps, caller }: TServiceContext,
  input: TWorkflowCompleteRequest,
): Promise<TWorkflowRun> {
  requireJam(caller, "work on workflow phases");
  const artifacts = normalizedArtifacts(input.artifacts ?? []);
  const row = await deps.repos.workflows.get(input.run_id);
  if (!row) throw new DomainError("NOT_FOUND", `workflow run ${input.run_id} does not exist`, { field: "run_id" });
  if (row.status !== "awaiting_worker" || row.leaseId !== input.lease_id) throw lostLease(row.id);
  const workflow = loadDefinition(row.definition, serverSteps(deps, caller));
  const state = parseRunState(row.state);
  if (state.next.kind !== "run_phase") throw lostLease(row.id);
  const next = afterPhase(
    workflow,
    state,
    state.next.phase_id,
    deps.now(),
    input.outcome === "done"
      ? {
          result: {
            ...(input.data ? { data: input.data } : {}),
            ...(input.variables ? { variables: input.variables } : {}),
          },
        }
      : { error: `worker ${row.leaseOwner ?? "?"}: ${input.error ?? "failed"}` },
  );
  const saver = runSaver(deps, row.id, row.version);
  try {
    await saver.save(next, input.outcome === "done" ? artifacts : undefined);
  } catch (error) {
    // Someone moved the run between the read and the write: another completion won.
    if (isDomainError(error) && error.code === "CONFLICT") throw lostLease(row.id);
    throw error;
  }
  // The completion is stored: what happens while driving on (a later step's crash, someone moving
  // the run) is the run's business, not the worker's. The run says where it stands.
  try {
    await drive(deps, caller, row.id, saver.version(), workflow, next);
  } catch (error) {
    console.warn(
      `workflow ${row.id}: driving on after the worker's completion: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return runView(deps, row.id, caller);
}
