import { expireDecision, parseRunState } from "@solserver/checkpoint";
import { isDomainError } from "@solserver/contracts";
import type { TWorkflowRunRow } from "@solserver/db";
import { notifyWaiting, serverSteps } from "../workflows/server-steps";
import type { TCaller } from "./context";
import type { TServiceDeps } from "./deps";
import { runSaver } from "./workflow-drive";
import { drive, loadDefinition } from "./workflows";

// Checkpoint timeouts on the server: the scheduler's tick (and `pnpm workflow tick`) looks for runs
// whose checkpoint deadline passed, applies the definition's rule through the runner's
// expireDecision (take the default option, recorded `timed_out: true`; or escalate once to other
// assignees, who are notified), and drives the run on as the account that started it.

/** How many overdue checkpoints one tick handles (the next tick takes the rest). */
const PER_TICK = 50;

export type TExpiredCheckpoint = { run_id: string; outcome: "taken" | "escalated" | "failed"; detail: string | null };

/** The run's starter as the caller its next steps act as, or null if that account may no longer run workflows. */
async function starterCaller(deps: TServiceDeps, row: TWorkflowRunRow): Promise<TCaller | null> {
  const account = row.startedById ? await deps.repos.accounts.get(row.startedById) : null;
  if (account?.role !== "jam") return null;
  return { kind: "user", userId: account.id, email: account.email, role: "jam", via: "cli" };
}

async function expireOne(deps: TServiceDeps, row: TWorkflowRunRow, now: Date): Promise<TExpiredCheckpoint | null> {
  const caller = await starterCaller(deps, row);
  // Loading checks the steps exist; they only run below, as the starter.
  const workflow = loadDefinition(row.definition, serverSteps(deps, caller ?? LOAD_ONLY));
  const state = parseRunState(row.state);
  const next = expireDecision(workflow, state, { now });
  if (next === state) return null;
  // The timeout's outcome is stored first, on the version read: a person who decided meanwhile wins.
  const saver = runSaver(deps, row.id, row.version);
  await saver.save(next);
  if (next.status === "awaiting_decision") {
    notifyWaiting(deps, row.id, workflow, next);
    return { run_id: row.id, outcome: "escalated", detail: null };
  }
  if (next.status === "running") {
    if (!caller) {
      return {
        run_id: row.id,
        outcome: "taken",
        detail: "its starter can no longer run workflows: a Jam editor must resume it",
      };
    }
    await drive(deps, caller, row.id, saver.version(), workflow, next);
  }
  return { run_id: row.id, outcome: "taken", detail: null };
}

/** Only for loading a definition when nobody can act: no step is run with it. */
const LOAD_ONLY: TCaller = { kind: "user", userId: "", email: "", role: "jam", via: "cli" };

export async function expireOverdueCheckpoints(deps: TServiceDeps, now: Date): Promise<TExpiredCheckpoint[]> {
  const out: TExpiredCheckpoint[] = [];
  for (const row of await deps.repos.workflows.overdue(now, PER_TICK)) {
    try {
      const done = await expireOne(deps, row, now);
      if (done) out.push(done);
    } catch (error) {
      // Someone decided at the same moment: their decision stands.
      if (isDomainError(error) && error.code === "CONFLICT") continue;
      out.push({ run_id: row.id, outcome: "failed", detail: error instanceof Error ? error.message : String(error) });
    }
  }
  return out;
}
