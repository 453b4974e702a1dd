import {
  CheckpointError,
  cancelRun,
  decide,
  EXECUTOR_KINDS,
  loadWorkflow,
  parseRunState,
  secretEnvProblems,
  startRun,
  type TRunState,
  type TWorkflow,
  UMBRA_BEAT_YAML,
  unsupportedExecutors,
} from "@solserver/checkpoint";
import {
  DomainError,
  type TWorkflowCancelRequest,
  type TWorkflowDecideRequest,
  type TWorkflowRun,
  type TWorkflowRunGetRequest,
  type TWorkflowRunListRequest,
  type TWorkflowStartRequest,
  WEBHOOK_QUEUE,
} from "@solserver/contracts";
import type { TStep } from "../workflows/driver";
import { notifyWaiting, SERVER_EXECUTORS, serverSteps } from "../workflows/server-steps";
import { requireJam } from "./access";
import type { TCaller, TServiceContext } from "./context";
import type { TServiceDeps } from "./deps";
import { driveStored, rowFields, runSaver } from "./workflow-drive";
import { callerMayDecide, filesOf, planItems, runView, toView } from "./workflow-view";
import { deliverWebhookPhases } from "./workflow-webhooks";

// Checkpoint workflows (seed 003) on the server: a run's state lives in one row; the steps run in
// the request that starts or resumes it; a checkpoint stores the run as awaiting a decision, and
// the decision (from the dashboard, the API or the CLI) drives it on from there, even after a
// restart. Workflows change knowledge, so they are Jam editors' work.

const SHIPPED: Record<NonNullable<TWorkflowStartRequest["workflow"]>, string> = { "umbra-beat": UMBRA_BEAT_YAML };

/** How a run was started; "schedule" is a tick of the workflow's schedule (services/schedules.ts). */
export type TStartedVia = "dashboard" | "api" | "cli" | "schedule";

/** The named steps (not executor kinds) a steps map offers. */
function namedSteps(steps: Readonly<Record<string, TStep>>): string[] {
  return Object.keys(steps).filter((name) => !(EXECUTOR_KINDS as readonly string[]).includes(name));
}

/**
 * A definition's YAML as a workflow, or BAD_INPUT listing every problem, unknown step and executor
 * the server cannot run; a `fresh` one (being started, not a stored run read again) also names a
 * signing key outside SOLSERVER_WEBHOOK_SECRET_*.
 */
export function loadDefinition(yaml: string, steps: Readonly<Record<string, TStep>>, fresh = false): TWorkflow {
  const loaded = loadWorkflow(yaml);
  const problems = loaded.ok
    ? [
        ...(fresh ? secretEnvProblems(loaded.workflow) : []),
        ...unsupportedExecutors(loaded.workflow, SERVER_EXECUTORS),
        ...loaded.workflow.phases.flatMap((p) =>
          p.run && !p.executor && !Object.hasOwn(steps, p.run)
            ? [`phases.${p.id}.run: unknown step "${p.run}" (named steps here: ${namedSteps(steps).join(", ")})`]
            : [],
        ),
      ]
    : loaded.errors;
  if (!loaded.ok || problems.length > 0) {
    throw new DomainError("BAD_INPUT", `definition: ${problems.join("; ")}`, { field: "definition" });
  }
  return loaded.workflow;
}

/** The runner's refusals in the words of the API: the field and the rule. */
function asDomainError(error: unknown): unknown {
  if (!(error instanceof CheckpointError)) return error;
  const field = error.code === "FEEDBACK_NOT_ALLOWED" ? "feedback" : error.code === "UNKNOWN_OPTION" ? "label" : "run";
  return new DomainError(error.code === "INVALID_STATE" ? "CONFLICT" : "BAD_INPUT", `${field}: ${error.message}`, {
    field,
  });
}

/**
 * Drives a stored run until it waits for a decision or a worker, or ends (workflow-drive.ts),
 * acting as `caller`; a run that stops at a checkpoint notifies the workflow's webhook.
 */
export async function drive(
  deps: TServiceDeps,
  caller: TCaller,
  runId: string,
  version: number,
  workflow: TWorkflow,
  start: TRunState,
): Promise<void> {
  const state = await driveStored(deps, {
    saver: runSaver(deps, runId, version),
    workflow,
    state: start,
    steps: serverSteps(deps, caller, runId),
    onWaiting: (state) => notifyWaiting(deps, runId, workflow, state),
  });
  // (a webhook phase is delivered by a job, or beside the request where there is no queue; never in it)
  if (rowFields(state).queue !== WEBHOOK_QUEUE) return;
  if (!deps.jobs) {
    void deliverWebhookPhases(deps).catch((error: unknown) => {
      console.error(`workflow ${runId}: delivering its webhook: ${(error as Error).message}`);
    });
    return;
  }
  // A send that fails leaves the phase to the next schedule tick, which delivers what waits.
  await deps.jobs.send("workflow-webhooks", { run_id: runId }, { key: runId }).catch((error: unknown) => {
    console.error(`workflow ${runId}: queueing its webhook delivery: ${(error as Error).message}`);
  });
}

export async function startWorkflow(
  { deps, caller }: TServiceContext,
  input: TWorkflowStartRequest,
  via: TStartedVia = "dashboard",
): Promise<TWorkflowRun> {
  requireJam(caller, "run workflows");
  const yaml = input.workflow ? SHIPPED[input.workflow] : (input.definition ?? "");
  const workflow = loadDefinition(yaml, serverSteps(deps, caller), true);
  let state: TRunState;
  try {
    state = startRun(workflow, { ...(input.variables ? { variables: input.variables } : {}), now: deps.now() });
  } catch (error) {
    throw asDomainError(error);
  }
  // One run of a workflow at a time: a second beat while one waits for review would promote twice.
  const row = await deps.repos.workflows.create({
    name: workflow.name,
    definition: yaml,
    ...rowFields(state),
    state,
    startedById: caller.userId,
    startedVia: via,
    exclusive: true,
  });
  await drive(deps, caller, row.id, row.version, workflow, state);
  return runView(deps, row.id, caller);
}

export async function decideWorkflow(
  { deps, caller }: TServiceContext,
  input: TWorkflowDecideRequest,
): Promise<TWorkflowRun> {
  requireJam(caller, "decide workflow checkpoints");
  const row = await deps.repos.workflows.get(input.run_id);
  if (!row) throw new DomainError("NOT_FOUND", `workflow run ${input.run_id} does not exist`, { field: "run_id" });
  if (row.status !== "awaiting_decision" || row.version !== input.version) {
    throw new DomainError(
      "CONFLICT",
      `run ${row.id} moved on: it is ${row.status.replace("_", " ")} at version ${row.version}, not version ${input.version} you decided on; look at it again`,
      { field: "version" },
    );
  }
  const workflow = loadDefinition(row.definition, serverSteps(deps, caller));
  const current = parseRunState(row.state);
  if (!callerMayDecide(current.pending, caller)) {
    const who = current.pending?.assignees;
    throw new DomainError(
      "FORBIDDEN",
      `this checkpoint is assigned to ${who && "accounts" in who ? who.accounts.join(", ") : "another role"}`,
      { field: "run_id" },
    );
  }
  const exclude = [...new Set(input.exclude ?? [])];
  const include = [...new Set(input.include ?? [])];
  const plan = planItems(current) ?? [];
  const stray = exclude.find((id) => !plan.some((p) => p.proposal_id === id));
  if (stray !== undefined)
    throw new DomainError("BAD_INPUT", `exclude: ${stray} is not in this checkpoint's plan`, { field: "exclude" });
  const unheld = include.find((id) => !plan.some((p) => p.proposal_id === id && p.held.length > 0));
  if (unheld !== undefined)
    throw new DomainError("BAD_INPUT", `include: ${unheld} is not held back in this checkpoint's plan`, {
      field: "include",
    });
  let next: TRunState;
  try {
    next = decide(workflow, current, {
      label: input.label,
      ...(input.feedback ? { feedback: input.feedback } : {}),
      now: deps.now(),
    });
  } catch (error) {
    throw asDomainError(error);
  }
  // What the person left out of the plan: the promotion step skips it (it stays in the queue).
  if (exclude.length > 0) next = { ...next, context: { ...next.context, plan_excluded: exclude } };
  // What it held back that the person includes all the same.
  if (include.length > 0) next = { ...next, context: { ...next.context, plan_included: include } };
  // Two people deciding at once: the write is conditional on the version, so exactly one lands.
  if (!(await deps.repos.workflows.save(row.id, row.version, { ...rowFields(next), state: next }))) {
    throw new DomainError("CONFLICT", `run ${row.id} was decided by someone else meanwhile; look at it again`, {
      field: "version",
    });
  }
  await drive(deps, caller, row.id, row.version + 1, workflow, next);
  return runView(deps, row.id, caller);
}

/** Drives on a run left `running` (the server stopped during a phase): the phase runs again. */
export async function resumeWorkflow(
  { deps, caller }: TServiceContext,
  { run_id: runId }: TWorkflowRunGetRequest,
): Promise<TWorkflowRun> {
  requireJam(caller, "run workflows");
  const row = await deps.repos.workflows.get(runId);
  if (!row) throw new DomainError("NOT_FOUND", `workflow run ${runId} does not exist`, { field: "run_id" });
  if (row.status !== "running") {
    throw new DomainError("CONFLICT", `run ${row.id} is ${row.status.replace("_", " ")}, not running`, {
      field: "run_id",
    });
  }
  const state = parseRunState(row.state);
  const fields = rowFields(state);
  if (fields.status !== "running") {
    // Its state already waits (for a worker, say): store that instead of driving.
    await runSaver(deps, row.id, row.version).save(state);
  } else {
    await drive(deps, caller, row.id, row.version, loadDefinition(row.definition, serverSteps(deps, caller)), state);
  }
  return runView(deps, row.id, caller);
}

export async function getWorkflowRun(
  { deps, caller }: TServiceContext,
  { run_id }: TWorkflowRunGetRequest,
): Promise<TWorkflowRun> {
  requireJam(caller, "see workflow runs");
  return runView(deps, run_id, caller);
}

export async function listWorkflowRuns(
  { deps, caller }: TServiceContext,
  input: TWorkflowRunListRequest,
): Promise<{ items: TWorkflowRun[] }> {
  requireJam(caller, "see workflow runs");
  const rows = await deps.repos.workflows.list({ status: input.status, limit: input.limit });
  const items = await Promise.all(
    rows.map(async (row) => toView(row, await deps.repos.workflows.artifacts(row.id, filesOf(row)), caller)),
  );
  return { items };
}

/** How many checkpoints wait for this caller's decision (the dashboard's nav badge); at most 100 counted. */
export async function waitingCheckpoints({ deps, caller }: TServiceContext): Promise<{ count: number }> {
  requireJam(caller, "see workflow runs");
  const rows = await deps.repos.workflows.list({ status: "awaiting_decision", limit: 100 });
  const count = rows.filter((row) => {
    try {
      return callerMayDecide(parseRunState(row.state).pending, caller);
    } catch {
      return false;
    }
  }).length;
  return { count };
}

/**
 * Cancels a run under way: a worker phase nobody will claim (a mistyped queue), a checkpoint
 * nobody should decide any more, a run left running. It ends aborted by the caller (exit code 2),
 * which frees the workflow for its next start.
 */
export async function cancelWorkflow(
  { deps, caller }: TServiceContext,
  input: TWorkflowCancelRequest,
): Promise<TWorkflowRun> {
  requireJam(caller, "cancel workflow runs");
  const row = await deps.repos.workflows.get(input.run_id);
  if (!row) throw new DomainError("NOT_FOUND", `workflow run ${input.run_id} does not exist`, { field: "run_id" });
  if (row.version !== input.version) {
    throw new DomainError("CONFLICT", `run ${row.id} moved on to version ${row.version}; look at it again`, {
      field: "version",
    });
  }
  const workflow = loadDefinition(row.definition, serverSteps(deps, caller));
  let next: TRunState;
  try {
    next = cancelRun(workflow, parseRunState(row.state), {
      now: deps.now(),
      reason: `${input.reason} (${caller.email})`,
    });
  } catch (error) {
    throw asDomainError(error);
  }
  if (!(await deps.repos.workflows.save(row.id, row.version, { ...rowFields(next), state: next }))) {
    throw new DomainError("CONFLICT", `run ${row.id} was moved by someone else meanwhile; look at it again`, {
      field: "version",
    });
  }
  return runView(deps, row.id, caller);
}
