"use client";
import { WEBHOOK_QUEUE } from "@solserver/contracts";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc";
import { trpcCode } from "@/lib/trpc-errors";
import { ErrorAlert } from "../ui/ui";
import { WorkflowInbox } from "./workflow-inbox";
import { INBOX_INPUT, runAnchor, type TWorkflowRunView, useRefreshWorkflows } from "./workflow-parts";
import { WorkflowRuns } from "./workflow-runs";
import { WorkflowSchedule } from "./workflow-schedule";

function started(run: TWorkflowRunView): string {
  if (run.status === "awaiting_decision") return "it stopped at its checkpoint: decide in the inbox below.";
  if (run.status === "failed") return `it failed: ${run.error ?? "no message"}.`;
  if (run.status === "running") return "it stopped during a phase: resume it from the recent runs.";
  if (run.status === "awaiting_worker" && run.worker?.queue === WEBHOOK_QUEUE)
    return `the server is delivering its webhook phase ${run.worker.phase_id}: the run goes on when the receiver answers.`;
  if (run.status === "awaiting_worker")
    return `it waits for a worker of queue ${run.worker?.queue ?? "?"} to claim ${run.worker?.phase_id ?? "its phase"}.`;
  return `it ended without a checkpoint: ${run.status}.`;
}

/**
 * Starts the shipped Umbra beat. One beat at a time: a second start while one is under way is
 * CONFLICT naming the open run, and the page links to it.
 */
function StartBeat() {
  const trpc = useTRPC();
  const refresh = useRefreshWorkflows();
  // Same query as the inbox (one cache entry): is the open run there, or only in the recent runs?
  const inbox = useQuery(trpc.workflows.list.queryOptions(INBOX_INPUT));
  const start = useMutation(trpc.workflows.start.mutationOptions({ onSettled: refresh }));
  const conflict = trpcCode(start.error) === "CONFLICT" ? (start.error?.message ?? "") : null;
  const openId = conflict?.match(/WR-\d+/)?.[0];
  const openInInbox = openId !== undefined && (inbox.data?.items ?? []).some((r) => r.run_id === openId);
  return (
    <div className="stack">
      <div className="row">
        <button
          type="button"
          className="primary"
          onClick={() => start.mutate({ workflow: "umbra-beat" })}
          disabled={start.isPending}
        >
          {start.isPending ? "Starting…" : "Start the Umbra beat"}
        </button>
      </div>
      <div role="status" className="workflow-live">
        {start.data ? (
          <p>
            Started <a href={runAnchor(start.data)}>{start.data.run_id}</a>: {started(start.data)}
          </p>
        ) : null}
      </div>
      {conflict !== null ? (
        <div className="stack conflict" role="alert">
          <p className="error">{conflict}</p>
          {openId ? (
            <p>
              <a href={openInInbox ? `#checkpoint-${openId}` : `#run-${openId}`}>Go to {openId}</a>
            </p>
          ) : null}
        </div>
      ) : (
        <ErrorAlert what="Could not start the Umbra beat" error={start.error} />
      )}
    </div>
  );
}

/** The checkpoints page: start the Umbra beat, decide at waiting checkpoints, schedule it, look at recent runs. */
export function WorkflowDashboard() {
  return (
    <div className="stack">
      <section className="panel stack" aria-labelledby="workflows-heading">
        <h1 id="workflows-heading" className="page-title">
          Checkpoints
        </h1>
        <p className="muted">
          Workflows that stop for a person&rsquo;s decision. The Umbra beat collects promotion triggers, resolves every
          pending proposal again and waits for your review before it promotes anything.
        </p>
        <StartBeat />
      </section>
      <WorkflowInbox />
      <WorkflowSchedule />
      <WorkflowRuns />
    </div>
  );
}
