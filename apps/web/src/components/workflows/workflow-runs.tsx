"use client";
import { WEBHOOK_QUEUE } from "@solserver/contracts";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useTRPC } from "@/lib/trpc";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { DataTable } from "../ui/data-table";
import { formatTs } from "../ui/format";
import { hasNoItems, QueryState } from "../ui/query-state";
import { ErrorAlert } from "../ui/ui";
import {
  PhaseLine,
  RECENT_INPUT,
  type TWorkflowRunView,
  useRefreshWorkflows,
  WorkflowStatusBadge,
} from "./workflow-parts";

const COLUMNS = 7;

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** The decisions taken at the run's checkpoints, in the seed's record fields. */
function Decisions({ run }: { run: TWorkflowRunView }) {
  if (run.decisions.length === 0) return <p className="muted">No decision yet.</p>;
  return (
    <DataTable
      headers={["Phase", "Decision", "Skipped / target", "Feedback", "When"]}
      caption={`Decisions in ${run.run_id}`}
      className="workflow-decisions"
    >
      <tbody>
        {run.decisions.map((d) => (
          <tr key={`${d.timestamp} ${d.phase} ${d.decision}`} data-decision={d.decision}>
            <td>{d.phase}</td>
            <td>
              {d.label ? `${d.label} (${d.decision})` : d.decision}
              {d.timed_out ? <span className="muted"> · timed out</span> : null}
            </td>
            <td>
              {d.skipped?.length ? `skipped: ${d.skipped.join(", ")}` : null}
              {d.target ? `target: ${d.target}` : null}
              {!d.skipped?.length && !d.target ? <span className="muted">—</span> : null}
            </td>
            <td className="message">{d.feedback ?? <span className="muted">—</span>}</td>
            <td className="nowrap">{formatTs(d.timestamp)}</td>
          </tr>
        ))}
      </tbody>
    </DataTable>
  );
}

function Log({ run }: { run: TWorkflowRunView }) {
  if (run.log.length === 0) return <p className="muted">The run logged nothing.</p>;
  return (
    <ol className="plain workflow-log">
      {run.log.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the log only grows, so a line's index is its identity
        <li key={i} data-level={line.level}>
          <span className="muted">{line.timestamp ? formatTs(line.timestamp) : "—"}</span>{" "}
          <span className={`workflow-log-level level-${line.level}`}>{line.level}</span> {line.message}
        </li>
      ))}
    </ol>
  );
}

/** One run: a summary row, then a row that opens on its decisions, error and log. */
function RunRows({ run }: { run: TWorkflowRunView }) {
  const trpc = useTRPC();
  const refresh = useRefreshWorkflows();
  const resume = useMutation(trpc.workflows.resume.mutationOptions({ onSettled: refresh }));
  const cancel = useMutation(trpc.workflows.cancel.mutationOptions({ onSettled: refresh }));
  const [cancelling, setCancelling] = useState(false);
  const [reason, setReason] = useState("");
  return (
    <tbody id={`run-${run.run_id}`} data-run-id={run.run_id} data-status={run.status}>
      <tr>
        <td className="nowrap">{run.run_id}</td>
        <td className="nowrap">{run.name}</td>
        <td className="nowrap">
          <div className="stack workflow-status">
            <WorkflowStatusBadge status={run.status} />
            {run.worker ? (
              <span className="muted" data-testid="worker-lease">
                {run.worker.queue === WEBHOOK_QUEUE ? "webhook delivery" : `queue ${run.worker.queue}`}:{" "}
                {run.worker.lease_owner &&
                run.worker.lease_expires_ts &&
                Date.parse(run.worker.lease_expires_ts) > Date.now()
                  ? `held by ${run.worker.lease_owner} until ${formatTs(run.worker.lease_expires_ts)}`
                  : run.worker.lease_owner
                    ? `${run.worker.lease_owner}'s claim expired: free for the next worker`
                    : "waiting for a worker"}
              </span>
            ) : null}
            {run.status === "awaiting_worker" || run.status === "running" ? (
              <button type="button" onClick={() => setCancelling(true)} disabled={cancel.isPending}>
                Cancel run
              </button>
            ) : null}
            {cancelling ? (
              <ConfirmDialog
                title={`Cancel ${run.run_id}?`}
                confirmLabel="Cancel the run"
                pending={cancel.isPending}
                alert={<ErrorAlert what={`Could not cancel ${run.run_id}`} error={cancel.error} />}
                onCancel={() => setCancelling(false)}
                onConfirm={() =>
                  // An empty reason is the server's to refuse: its message says what is missing.
                  cancel.mutate(
                    { run_id: run.run_id, version: run.version, reason },
                    { onSuccess: () => setCancelling(false) },
                  )
                }
              >
                <p>The run ends aborted (exit code 2) and the workflow can start again.</p>
                <label className="field">
                  <span>Why (kept in the run's log)</span>
                  <input value={reason} maxLength={2000} onChange={(e) => setReason(e.target.value)} />
                </label>
              </ConfirmDialog>
            ) : null}
            {run.status === "running" ? (
              <button type="button" onClick={() => resume.mutate({ run_id: run.run_id })} disabled={resume.isPending}>
                {resume.isPending ? "Resuming…" : "Resume"}
              </button>
            ) : null}
          </div>
        </td>
        <td>
          <PhaseLine phases={run.phases} />
        </td>
        <td data-testid="exit-code">{run.exit_code ?? <span className="muted">—</span>}</td>
        <td>
          {run.started_by ?? <span className="muted">unknown</span>}
          <div className="muted">
            via {run.started_via} · {formatTs(run.created_ts)}
          </div>
        </td>
        <td className="nowrap">{formatTs(run.finished_ts)}</td>
      </tr>
      <tr className="workflow-run-more">
        <td colSpan={COLUMNS}>
          <ErrorAlert what={`Could not resume ${run.run_id}`} error={resume.error} />
          <details>
            <summary>
              {run.run_id}: {plural(run.decisions.length, "decision")}, {plural(run.log.length, "log line")}
              {run.error ? ", an error" : ""}
            </summary>
            <div className="stack workflow-run-body">
              {run.error ? (
                <p className="error">
                  <strong>Error:</strong> {run.error}
                </p>
              ) : null}
              <h3>Decisions</h3>
              <Decisions run={run} />
              <h3>Log</h3>
              <Log run={run} />
            </div>
          </details>
        </td>
      </tr>
    </tbody>
  );
}

/** How often the list looks again while a run is under way (a webhook delivery, a worker's phase). */
const UNDER_WAY_REFRESH_MS = 5_000;

const underWay = (run: { status: string }) => run.status === "running" || run.status === "awaiting_worker";

/**
 * The latest runs, whatever their status, newest first; followed while one is under way, and when
 * one moves on (its webhook answered, a worker completed) the inbox is asked again too.
 */
export function WorkflowRuns() {
  const trpc = useTRPC();
  const refresh = useRefreshWorkflows();
  const runs = useQuery(
    trpc.workflows.list.queryOptions(RECENT_INPUT, {
      refetchInterval: (query) => (query.state.data?.items.some(underWay) ? UNDER_WAY_REFRESH_MS : false),
    }),
  );
  const going = (runs.data?.items ?? [])
    .filter(underWay)
    .map((r) => r.run_id)
    .join(" ");
  const before = useRef(going);
  useEffect(() => {
    const moved = before.current.split(" ").some((id) => id !== "" && !going.split(" ").includes(id));
    before.current = going;
    if (moved) void refresh();
  }, [going, refresh]);
  return (
    <section className="panel stack" aria-labelledby="runs-heading" data-testid="workflow-runs">
      <h2 id="runs-heading">Recent runs</h2>
      <QueryState
        query={runs}
        what="the recent workflow runs"
        loading="Loading runs…"
        isEmpty={hasNoItems}
        empty="No workflow has run yet."
        refreshError="Could not refresh the runs"
      >
        {(data) => (
          <DataTable
            headers={["Run", "Workflow", "Status", "Phases", "Exit code", "Started by", "Finished"]}
            className="workflow-runs"
          >
            {data.items.map((run) => (
              <RunRows key={run.run_id} run={run} />
            ))}
          </DataTable>
        )}
      </QueryState>
    </section>
  );
}
