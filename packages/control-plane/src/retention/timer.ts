import type { TServiceDeps } from "../services/deps";
import { limitStateDays } from "../services/sign-in-policy";
import { pruneRetention, type TPruneReport } from "./prune";

// The web server's own pruning: once soon after start, then every `intervalMs`, never two at
// once (the next timer is set when a prune ends), with timers that do not keep the process alive.
// Several server processes on one database may prune at the same time: each batch deletes
// whatever of the oldest rows is still there, so they only share the work.

/** The line a prune leaves in the server log. */
export function pruneLine(r: TPruneReport): string {
  const d = r.deleted;
  const limits = r.limitStates.deleted > 0 ? `, ${r.limitStates.deleted} expired rate-limit states` : "";
  const head = `retention: deleted ${d.traceRuns} trace runs (${d.traceEvents} events), ${d.gateEvaluations} gate decisions${limits}`;
  return `${head} in ${r.batches} ${r.batches === 1 ? "batch" : "batches"}, ${r.ms} ms; ${Math.round(r.after.freeBytes / 1_048_576)} MB free for new rows`;
}

export type TRetentionTimerOptions = {
  deps: () => Promise<Pick<TServiceDeps, "repos" | "retention" | "now" | "limits">>;
  intervalMs: number;
  /** Until the first prune: start-up is not the moment for it. */
  firstDelayMs: number;
  log: (line: string) => void;
  error: (line: string) => void;
};

export function startRetentionTimer(opts: TRetentionTimerOptions): { stop: () => void } {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const controller = new AbortController();
  const arm = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(run, ms);
    timer.unref();
  };
  const run = async () => {
    try {
      const deps = await opts.deps();
      const report = await pruneRetention(deps.repos, {
        retention: deps.retention,
        now: deps.now(),
        signal: controller.signal,
        limitStateDays: limitStateDays(deps.limits.signIn),
      });
      if (report.batches > 0 || report.limitStates.deleted > 0) opts.log(pruneLine(report));
    } catch (error) {
      opts.error(`retention: prune failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      arm(opts.intervalMs);
    }
  };
  arm(opts.firstDelayMs);
  return {
    stop: () => {
      stopped = true;
      controller.abort();
      if (timer) clearTimeout(timer);
    },
  };
}
