import { parseRunState, type TRunState } from "@solserver/checkpoint";
import { isDomainError, WEBHOOK_QUEUE } from "@solserver/contracts";
import { serverSteps } from "../workflows/server-steps";
import type { TCaller } from "./context";
import type { TServiceDeps } from "./deps";
import { afterPhase, runSaver } from "./workflow-drive";
import { drive, loadDefinition } from "./workflows";

// `webhook` phases run beside the request that reaches them, never in it: the run is stored
// awaiting the server's own queue (WEBHOOK_QUEUE) and a deliverer claims the phase with a lease,
// delivers it, stores the outcome and drives the run on, acting as the run's starter. The process
// that stored the run starts one at once; every process's scheduler tick (and `pnpm workflow
// tick`) starts one too, which is how a phase whose deliverer died (kill -9) is delivered: its
// lease expires and the phase is claimed again, with the same Idempotency-Key for the receiver.
// The claim and the outcome are writes conditional on the run's version, as for worker phases
// (workflow-workers.ts): of several processes, one delivers a phase and one outcome is stored.

/** Beyond the receiver's timeouts and the backoff between tries: how long a claim holds. */
const LEASE_MARGIN_MS = 10_000;

function leaseMsOf(state: unknown): number {
  try {
    const next = parseRunState(state).next;
    if (next.kind === "run_phase" && next.executor?.kind === "webhook")
      return (next.executor.timeout_ms + LEASE_MARGIN_MS) * (next.executor.retries + 1);
  } catch {
    // A state that does not parse fails when it is delivered.
  }
  return 5 * 60_000;
}

type TDelivering = { run: Promise<number>; again: boolean };
const delivering = new WeakMap<TServiceDeps, TDelivering>();

/**
 * Delivers every webhook phase that can be claimed, and those the runs drive on to; a call while
 * one is under way joins it (and makes it look once more). Resolves with how many were delivered;
 * rejects when the database fails (the job that called it is then retried).
 */
export function deliverWebhookPhases(deps: TServiceDeps): Promise<number> {
  const under = delivering.get(deps);
  if (under) {
    under.again = true;
    return under.run;
  }
  const state: TDelivering = { run: Promise.resolve(0), again: false };
  state.run = (async () => {
    let delivered = 0;
    do {
      state.again = false;
      for (let lease = await claim(deps); lease; lease = await claim(deps)) {
        if (await deliver(deps, lease.runId, lease.leaseId)) delivered++;
      }
    } while (state.again);
    return delivered;
  })().finally(() => delivering.delete(deps));
  delivering.set(deps, state);
  return state.run;
}

function claim(deps: TServiceDeps) {
  return deps.repos.workflows.claim({
    queue: WEBHOOK_QUEUE,
    owner: `server (process ${process.pid})`,
    leaseMs: leaseMsOf,
    now: deps.now(),
  });
}

/** The run's starter as the caller the run acts as, while they are a Jam editor. */
async function starterOf(deps: TServiceDeps, startedById: string | null): Promise<TCaller | null> {
  const account = startedById ? await deps.repos.accounts.get(startedById) : null;
  if (account?.role !== "jam") return null;
  return { kind: "user", userId: account.id, email: account.email, role: "jam", via: "cli" };
}

const NOBODY: TCaller = { kind: "user", userId: "", email: "", role: "user", via: "cli" };

/** Delivers the claimed phase and drives the run on; false when the claim was lost meanwhile. */
async function deliver(deps: TServiceDeps, runId: string, leaseId: string): Promise<boolean> {
  const row = await deps.repos.workflows.get(runId);
  if (!row || row.leaseId !== leaseId) return false;
  const state: TRunState = parseRunState(row.state);
  if (state.next.kind !== "run_phase") return false;
  const phaseId = state.next.phase_id;
  const caller = await starterOf(deps, row.startedById);
  // (the steps the run drives on to act as its starter; without one the phase fails before any runs)
  const steps = serverSteps(deps, caller ?? NOBODY, runId);
  const workflow = loadDefinition(row.definition, steps);
  let outcome: Parameters<typeof afterPhase>[4];
  try {
    if (!caller) throw new Error("the run's starter is no longer a Jam editor; start it again");
    outcome = { result: await (steps.webhook as NonNullable<typeof steps.webhook>)({ state, phaseId }) };
  } catch (error) {
    outcome = { error: error instanceof Error ? error.message : String(error) };
  }
  const next = afterPhase(workflow, state, phaseId, deps.now(), outcome);
  const saver = runSaver(deps, row.id, row.version);
  try {
    await saver.save(next);
  } catch (error) {
    // Someone moved the run meanwhile (cancelled it, or the lease expired and another took it).
    if (isDomainError(error) && error.code === "CONFLICT") return false;
    throw error;
  }
  if (caller) await drive(deps, caller, row.id, saver.version(), workflow, next);
  return true;
}
