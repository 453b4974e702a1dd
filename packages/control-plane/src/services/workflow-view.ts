import { canDecide, loadWorkflow, parseRunState, type TRunState } from "@solserver/checkpoint";
import { DomainError, type TWorkflowRun, ZHeldCode } from "@solserver/contracts";
import type { TWorkflowRunRow } from "@solserver/db";
import { z } from "zod";
import type { TCaller } from "./context";
import type { TServiceDeps } from "./deps";

// A stored run as the wire shows it: its phases with where it stands, its checkpoint (with who may
// decide it and when it times out), the worker holding its phase, its decisions.

const ZPlanHeld = z.array(z.object({ code: ZHeldCode, note: z.string() }));

/** The Umbra beat's plan as the checkpoint offers it per item, or null for a run without one. */
export function planItems(state: TRunState): NonNullable<TWorkflowRun["checkpoint"]>["plan"] {
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
            target_title: typeof item.target_title === "string" ? item.target_title : null,
            change: String(item.change ?? ""),
            held: ZPlanHeld.safeParse(item.held).data ?? [],
          },
        ]
      : [];
  });
}

export function filesOf(row: TWorkflowRunRow): string[] {
  const pending = (row.state as Partial<TRunState> | null)?.pending;
  return pending?.files ?? [];
}

/** Whether this caller may decide the run's checkpoint: a Jam editor the checkpoint names (or any, if it names none). */
export function callerMayDecide(pending: TRunState["pending"], caller: TCaller): boolean {
  return caller.role === "jam" && canDecide(pending?.assignees ?? null, { email: caller.email, role: caller.role });
}

/** What a checkpoint's timeout will do, in words. */
function onTimeout(pending: NonNullable<TRunState["pending"]>): string | null {
  const timeout = pending.timeout;
  if (!timeout || !pending.deadline) return null;
  if ("option" in timeout) return `takes "${timeout.option}"`;
  const to = timeout.escalate_to;
  return `escalates to ${"role" in to ? "every Jam editor" : to.accounts.join(", ")}`;
}

export function toView(row: TWorkflowRunRow, artifacts: ReadonlyMap<string, string>, caller: TCaller): TWorkflowRun {
  const state = parseRunState(row.state);
  const loaded = loadWorkflow(row.definition);
  const phases = loaded.ok ? loaded.workflow.phases : [];
  const live = row.status === "running" || row.status === "awaiting_decision" || row.status === "awaiting_worker";
  const pending = state.pending;
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
      row.status === "awaiting_decision" && pending
        ? {
            phase_id: pending.phase_id,
            prompt: pending.prompt,
            assignees: pending.assignees,
            can_decide: callerMayDecide(pending, caller),
            deadline: pending.deadline,
            on_timeout: onTimeout(pending),
            files: pending.files.map((path) => ({ path, content: artifacts.get(path) ?? null })),
            options: pending.options,
            plan: planItems(state),
          }
        : null,
    worker:
      row.status === "awaiting_worker" && row.queue && state.next.kind === "run_phase"
        ? {
            queue: row.queue,
            phase_id: state.next.phase_id,
            lease_owner: row.leaseOwner,
            lease_expires_ts: row.leaseExpiresAt?.toISOString() ?? null,
          }
        : null,
    decisions: state.context.checkpoints,
    log: state.log,
  };
}

export async function runView(deps: TServiceDeps, runId: string, caller: TCaller): Promise<TWorkflowRun> {
  const row = await deps.repos.workflows.get(runId);
  if (!row) throw new DomainError("NOT_FOUND", `workflow run ${runId} does not exist`, { field: "run_id" });
  return toView(row, await deps.repos.workflows.artifacts(row.id, filesOf(row)), caller);
}
