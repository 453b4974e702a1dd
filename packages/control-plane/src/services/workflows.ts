import {
  CheckpointError,
  decide,
  loadWorkflow,
  parseRunState,
  startRun,
  type TRunState,
  type TWorkflow,
  UMBRA_BEAT_YAML,
} from "@solserver/checkpoint";
import {
  DomainError,
  isDomainError,
  type TWorkflowDecideRequest,
  type TWorkflowRun,
  type TWorkflowRunGetRequest,
  type TWorkflowRunListRequest,
  type TWorkflowStartRequest,
} from "@solserver/contracts";
import type { TWorkflowArtifactWrite, TWorkflowRunRow } from "@solserver/db";
import { driveRun, type TStep, unknownSteps } from "../workflows/driver";
import { umbraBeatSteps } from "../workflows/umbra-beat";
import { requireJam } from "./access";
import type { TCaller, TServiceContext } from "./context";
import type { TServiceDeps } from "./deps";

// Checkpoint workflows (seed 003) on the server: a run's state lives in one row; the steps run in
// the request that starts or resumes it; a checkpoint stores the run as awaiting a decision, and
// the decision (from the dashboard, the API or the CLI) drives it on from there, even after a
// restart. Workflows change knowledge, so they are Jam editors' work.

const SHIPPED: Record<NonNullable<TWorkflowStartRequest["workflow"]>, string> = { "umbra-beat": UMBRA_BEAT_YAML };

/** How a run was started; "schedule" is a tick of the workflow's schedule (services/schedules.ts). */
export type TStartedVia = "dashboard" | "api" | "cli" | "schedule";

/** A definition's YAML as a workflow, or BAD_INPUT listing every problem and unknown step. */
export function loadDefinition(yaml: string, steps: Readonly<Record<string, TStep>>): TWorkflow {
  const loaded = loadWorkflow(yaml);
  const problems = loaded.ok ? unknownSteps(loaded.workflow, steps) : loaded.errors;
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
 * Drives a stored run until it waits for a decision or ends, saving after every phase on the
 * version it read. A step that fails ends the run as `failed` with the step's message; someone
 * else moving the run first is CONFLICT.
 */
async function drive(
  deps: TServiceDeps,
  caller: TCaller,
  runId: string,
  version: number,
  workflow: TWorkflow,
  start: TRunState,
): Promise<void> {
  let state = start;
  let at = version;
  const save = async (
    status: string,
    next: TRunState,
    extra: { error?: string; artifacts?: TWorkflowArtifactWrite[] },
  ) => {
    if (!(await deps.repos.workflows.save(runId, at, { status, state: next, ...extra }))) {
      throw new DomainError("CONFLICT", `run ${runId} was moved by someone else meanwhile; look at it again`, {
        field: "run_id",
      });
    }
    at++;
  };
  try {
    await driveRun(workflow, state, {
      steps: umbraBeatSteps(deps, caller),
      now: deps.now,
      onPhase: async (next, artifacts) => {
        await save(next.status, next, artifacts ? { artifacts } : {});
        state = next;
      },
    });
  } catch (error) {
    if (isDomainError(error) && error.code === "CONFLICT") throw error;
    const message = error instanceof Error ? error.message : String(error);
    await save("failed", state, {
      error: `${state.next.kind === "run_phase" ? `phase ${state.next.phase_id}: ` : ""}${message}`,
    });
  }
}

/** The Umbra beat's plan as the checkpoint offers it per item, or null for a run without one. */
function planItems(state: TRunState): NonNullable<TWorkflowRun["checkpoint"]>["plan"] {
  const plan = (state.context as Record<string, unknown>).plan;
  if (!Array.isArray(plan)) return null;
  return plan.flatMap((p) => {
    const item = p as Record<string, unknown>;
    return typeof item.proposal_id === "string"
      ? [
          {
            proposal_id: item.proposal_id,
            title: String(item.title ?? ""),
            action: String(item.action ?? ""),
            target_cfb_id: typeof item.target_cfb_id === "string" ? item.target_cfb_id : null,
          },
        ]
      : [];
  });
}

async function runView(deps: TServiceDeps, runId: string): Promise<TWorkflowRun> {
  const row = await deps.repos.workflows.get(runId);
  if (!row) throw new DomainError("NOT_FOUND", `workflow run ${runId} does not exist`, { field: "run_id" });
  return toView(row, await deps.repos.workflows.artifacts(row.id, filesOf(row)));
}

function filesOf(row: TWorkflowRunRow): string[] {
  const pending = (row.state as Partial<TRunState> | null)?.pending;
  return pending?.files ?? [];
}

/** A stored run as the wire shows it: its phases with where it stands, its checkpoint, its decisions. */
export function toView(row: TWorkflowRunRow, artifacts: ReadonlyMap<string, string>): TWorkflowRun {
  const state = parseRunState(row.state);
  const loaded = loadWorkflow(row.definition);
  const phases = loaded.ok ? loaded.workflow.phases : [];
  const live = row.status === "running" || row.status === "awaiting_decision";
  return {
    run_id: row.id,
    name: row.name,
    status: row.status as TWorkflowRun["status"],
    version: row.version,
    started_via: row.startedVia,
    started_by: row.startedBy,
    created_ts: row.createdAt.toISOString(),
    updated_ts: row.updatedAt.toISOString(),
    finished_ts: row.finishedAt?.toISOString() ?? null,
    exit_code: state.exit_code,
    error: row.error,
    phases: phases.map((p, i) => {
      const iterations = state.context.phases.iteration_counts[p.id] ?? 0;
      const skipped = state.context.skip_phases.includes(p.id);
      const where =
        live && i === state.phase_index
          ? "current"
          : iterations > 0 && (i < state.phase_index || !live)
            ? "done"
            : skipped
              ? "skipped"
              : i < state.phase_index
                ? "skipped"
                : "upcoming";
      return { id: p.id, title: p.title ?? p.id, iterations, state: where };
    }),
    checkpoint:
      row.status === "awaiting_decision" && state.pending
        ? {
            phase_id: state.pending.phase_id,
            prompt: state.pending.prompt,
            files: state.pending.files.map((path) => ({ path, content: artifacts.get(path) ?? null })),
            options: state.pending.options,
            plan: planItems(state),
          }
        : null,
    decisions: state.context.checkpoints,
    log: state.log,
  };
}

export async function startWorkflow(
  { deps, caller }: TServiceContext,
  input: TWorkflowStartRequest,
  via: TStartedVia = "dashboard",
): Promise<TWorkflowRun> {
  requireJam(caller, "run workflows");
  const yaml = input.workflow ? SHIPPED[input.workflow] : (input.definition ?? "");
  const workflow = loadDefinition(yaml, umbraBeatSteps(deps, caller));
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
    status: state.status,
    state,
    startedById: caller.userId,
    startedVia: via,
    exclusive: true,
  });
  await drive(deps, caller, row.id, row.version, workflow, state);
  return runView(deps, row.id);
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
  const workflow = loadDefinition(row.definition, umbraBeatSteps(deps, caller));
  const current = parseRunState(row.state);
  const exclude = [...new Set(input.exclude ?? [])];
  if (exclude.length > 0) {
    const planned = new Set((planItems(current) ?? []).map((p) => p.proposal_id));
    const stray = exclude.find((id) => !planned.has(id));
    if (stray !== undefined)
      throw new DomainError("BAD_INPUT", `exclude: ${stray} is not in this checkpoint's plan`, { field: "exclude" });
  }
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
  // Two people deciding at once: the write is conditional on the version, so exactly one lands.
  if (!(await deps.repos.workflows.save(row.id, row.version, { status: next.status, state: next }))) {
    throw new DomainError("CONFLICT", `run ${row.id} was decided by someone else meanwhile; look at it again`, {
      field: "version",
    });
  }
  await drive(deps, caller, row.id, row.version + 1, workflow, next);
  return runView(deps, row.id);
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
  await drive(
    deps,
    caller,
    row.id,
    row.version,
    loadDefinition(row.definition, umbraBeatSteps(deps, caller)),
    parseRunState(row.state),
  );
  return runView(deps, row.id);
}

export async function getWorkflowRun(
  { deps, caller }: TServiceContext,
  { run_id }: TWorkflowRunGetRequest,
): Promise<TWorkflowRun> {
  requireJam(caller, "see workflow runs");
  return runView(deps, run_id);
}

export async function listWorkflowRuns(
  { deps, caller }: TServiceContext,
  input: TWorkflowRunListRequest,
): Promise<{ items: TWorkflowRun[] }> {
  requireJam(caller, "see workflow runs");
  const rows = await deps.repos.workflows.list({ status: input.status, limit: input.limit });
  const items = await Promise.all(
    rows.map(async (row) => toView(row, await deps.repos.workflows.artifacts(row.id, filesOf(row)))),
  );
  return { items };
}
