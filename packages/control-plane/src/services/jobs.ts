import { DomainError, type TJobList, type TJobStateName } from "@solserver/contracts";
import type { TJobQueue, TJobView } from "@solserver/db";
import { requireJam } from "./access";
import type { TServiceContext } from "./context";

// The jobs page and `pnpm jobs` (docs/operations.md#background-work): what the background queue
// holds, newest first, and a failed job queued again. Jam editors' view, as the workflows are.

function queueOf(jobs: TJobQueue | undefined): TJobQueue {
  // (the web server always opens one: only a library caller can get here)
  if (!jobs) throw new Error("this control plane was opened without a job queue (openControlPlane's `jobs`)");
  return jobs;
}

function jobView(job: TJobView) {
  return {
    id: job.id,
    name: job.name,
    state: job.state,
    data: (job.data ?? {}) as Record<string, unknown>,
    retry_count: job.retryCount,
    retry_limit: job.retryLimit,
    error: job.error,
    output: job.output ?? null,
    created_ts: job.createdAt.toISOString(),
    start_after_ts: job.startAfter.toISOString(),
    started_ts: job.startedAt?.toISOString() ?? null,
    finished_ts: job.finishedAt?.toISOString() ?? null,
  };
}

export async function listJobs(
  { deps, caller }: TServiceContext,
  input: { state?: TJobStateName | undefined; limit: number },
): Promise<TJobList> {
  requireJam(caller, "see background jobs");
  const queue = queueOf(deps.jobs);
  const items = await queue.list({ ...(input.state ? { state: input.state } : {}), limit: input.limit });
  return { engine: queue.engine, items: items.map(jobView) };
}

/** One job, to follow work a request started (a refit). */
export async function getJob({ deps, caller }: TServiceContext, input: { id: string }) {
  requireJam(caller, "see background jobs");
  const job = await queueOf(deps.jobs).get(input.id);
  if (!job)
    throw new DomainError("NOT_FOUND", `job ${input.id} does not exist (finished jobs are kept 14 days)`, {
      field: "id",
    });
  return jobView(job);
}

/** Queues a failed job again for one more try. */
export async function retryJob({ deps, caller }: TServiceContext, input: { id: string }): Promise<{ ok: true }> {
  requireJam(caller, "retry background jobs");
  if (!(await queueOf(deps.jobs).retry(input.id))) {
    throw new DomainError("NOT_FOUND", `job ${input.id} is not a failed job`, { field: "id" });
  }
  return { ok: true };
}
