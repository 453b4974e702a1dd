import type { TPruneReport } from "./prune";

// What a prune leaves in the log: the server's `retention-prune` job (jobs/jobs.ts) and
// `pnpm db:prune` say the same. Two prunes at once (the job and cron) only share the batches:
// each deletes whatever of the oldest rows is still there.

/** The line a prune leaves in the server log. */
export function pruneLine(r: TPruneReport): string {
  const d = r.deleted;
  const limits = r.limitStates.deleted > 0 ? `, ${r.limitStates.deleted} expired rate-limit states` : "";
  const head = `retention: deleted ${d.traceRuns} trace runs (${d.traceEvents} events), ${d.gateEvaluations} gate decisions${limits}`;
  return `${head} in ${r.batches} ${r.batches === 1 ? "batch" : "batches"}, ${r.ms} ms; ${Math.round(r.after.freeBytes / 1_048_576)} MB free for new rows`;
}
