"use client";
import { useQueryClient } from "@tanstack/react-query";
import { type TRouterOutputs, useTRPC } from "@/lib/trpc";

// Pieces the checkpoints page shares between its inbox, its start button and its recent runs.

export type TWorkflowRunView = TRouterOutputs["workflows"]["get"];
type TStatus = TWorkflowRunView["status"];
type TPhaseState = TWorkflowRunView["phases"][number]["state"];

/** The inbox's query: every run waiting for a person. */
export const INBOX_INPUT = { status: "awaiting_decision", limit: 50 } as const;
/** The recent runs' query. */
export const RECENT_INPUT = { limit: 20 } as const;

const STATUS_BADGE: Record<TStatus, string> = {
  running: "badge",
  awaiting_worker: "badge",
  awaiting_decision: "badge warn",
  done: "badge ok",
  aborted: "badge bad",
  failed: "badge bad",
};
const PHASE_GLYPH: Record<TPhaseState, string> = { done: "✓", current: "▶", upcoming: "○", skipped: "⤼" };

/** Every workflows query (inbox, recent runs, single runs) asks again. */
export function useRefreshWorkflows(): () => Promise<void> {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trpc.workflows.pathKey() });
}

export function statusText(status: TStatus): string {
  return status.replace("_", " ");
}

/** Where the page shows a run: its inbox card while it waits for a decision, else its recent-runs row. */
export function runAnchor(run: { run_id: string; status: TStatus }): string {
  return run.status === "awaiting_decision" ? `#checkpoint-${run.run_id}` : `#run-${run.run_id}`;
}

/** The run's status as a coloured badge (the word is the information; colour only helps). */
export function WorkflowStatusBadge({ status }: { status: TStatus }) {
  return (
    <span className={STATUS_BADGE[status]} data-status={status}>
      {statusText(status)}
    </span>
  );
}

/** The phases on one line: ✓ done, ▶ current, ○ upcoming, ⤼ skipped; ×n when a phase ran n > 1 times. */
export function PhaseLine({ phases }: { phases: TWorkflowRunView["phases"] }) {
  return (
    <ol className="plain workflow-phases" aria-label="Phases">
      {phases.map((p) => (
        <li key={p.id} className={`phase-${p.state}`} data-phase={p.id} data-state={p.state} title={p.title}>
          <span aria-hidden="true">{PHASE_GLYPH[p.state]} </span>
          <span className="visually-hidden">{p.state}: </span>
          {p.id}
          {p.iterations > 1 ? (
            <>
              <span aria-hidden="true"> ×{p.iterations}</span>
              <span className="visually-hidden"> ({p.iterations} iterations)</span>
            </>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
