"use client";
import type { TJobStateName } from "@solserver/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { type TRouterOutputs, useTRPC } from "@/lib/trpc";
import { DataTable } from "../ui/data-table";
import { formatTs } from "../ui/format";
import { hasNoItems, QueryState } from "../ui/query-state";
import { ErrorAlert } from "../ui/ui";

/** How each state reads on the page (pg-boss's states). */
const STATE_WORDS: Record<TJobStateName, string> = {
  created: "queued",
  retry: "waiting to retry",
  active: "running",
  completed: "done",
  failed: "failed",
  cancelled: "cancelled",
};

type TJob = TRouterOutputs["jobs"]["list"]["items"][number];

const KIND_WORDS: Record<string, string> = {
  "workflow-webhooks": "Webhook delivery",
  "schedules-tick": "Schedule tick",
  "retention-prune": "Retention prune",
  "resolve-refit": "Resolve refit",
  "embeddings-backfill": "Embedding backfill",
};

/** While something is queued or running, the page looks again this often. */
const REFRESH_MS = 3_000;

/** Jam editors: the background jobs, newest first, with their errors; a failed one can be retried. */
export function AdminJobs() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [state, setState] = useState<TJobStateName | "">("");
  const query = useQuery({
    ...trpc.jobs.list.queryOptions({ limit: 100, ...(state ? { state } : {}) }),
    // (a recurring job's next run waits for its time: only work that is due or under way is followed)
    refetchInterval: (q) =>
      q.state.data?.items.some(
        (j) =>
          j.state === "active" ||
          j.state === "retry" ||
          (j.state === "created" && new Date(j.start_after_ts) <= new Date()),
      )
        ? REFRESH_MS
        : false,
  });
  const retry = useMutation(
    trpc.jobs.retry.mutationOptions({
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.jobs.pathKey() }),
    }),
  );
  return (
    <section className="panel stack" aria-labelledby="jobs-heading">
      <div className="row spread">
        <h1 id="jobs-heading" className="page-title">
          Background jobs
        </h1>
        <label className="row">
          <span className="muted">State</span>
          <select className="inline" value={state} onChange={(e) => setState(e.target.value as TJobStateName | "")}>
            <option value="">all</option>
            {Object.entries(STATE_WORDS).map(([value, words]) => (
              <option key={value} value={value}>
                {words}
              </option>
            ))}
          </select>
        </label>
      </div>
      <p className="muted">
        Webhook deliveries, schedule ticks, retention, the embedding backfill and refits of resolve run here as jobs
        {query.data ? ` (${query.data.engine === "pg-boss" ? "pg-boss on PostgreSQL" : "in process, on SQLite"})` : ""}:
        each runs once, a failed try is retried with a growing delay, and a job whose process stopped runs again.
      </p>
      {retry.error ? <ErrorAlert what="Could not retry the job" error={retry.error} /> : null}
      <QueryState
        query={query}
        what="the jobs"
        isEmpty={hasNoItems}
        empty={state ? `No job is ${STATE_WORDS[state]}.` : "No job has run yet."}
        refreshError="Could not refresh the jobs"
      >
        {(data) => (
          <DataTable headers={["Job", "State", "Tries", "Queued", "Finished", ""]} stack testId="job-list">
            <tbody>
              {data.items.map((job) => (
                <JobRow
                  key={job.id}
                  job={job}
                  retrying={retry.isPending}
                  onRetry={() => retry.mutate({ id: job.id })}
                />
              ))}
            </tbody>
          </DataTable>
        )}
      </QueryState>
    </section>
  );
}

function JobRow({ job, retrying, onRetry }: { job: TJob; retrying: boolean; onRetry: () => void }) {
  const runId = typeof job.data.run_id === "string" ? job.data.run_id : null;
  return (
    <tr data-state={job.state}>
      <td data-label="Job">
        {KIND_WORDS[job.name] ?? job.name}
        {runId ? <span className="muted"> for {runId}</span> : null}
        <div className="muted">
          <code>{job.id}</code>
        </div>
      </td>
      <td data-label="State">
        {STATE_WORDS[job.state]}
        {job.error ? <div className="error">{job.error}</div> : null}
      </td>
      <td data-label="Tries">
        {job.retry_count + (job.state === "created" ? 0 : 1)} of {job.retry_limit + 1}
      </td>
      <td className="nowrap" data-label="Queued">
        {formatTs(job.created_ts)}
        {job.start_after_ts > job.created_ts ? (
          <div className="muted">not before {formatTs(job.start_after_ts)}</div>
        ) : null}
      </td>
      <td className="nowrap" data-label="Finished">
        {job.finished_ts ? formatTs(job.finished_ts) : "—"}
      </td>
      <td>
        {job.state === "failed" ? (
          <button type="button" onClick={onRetry} disabled={retrying}>
            Retry
          </button>
        ) : null}
      </td>
    </tr>
  );
}
