import type { TPruneCounts, TRepositories, TRetentionCutoffs, TStorage } from "@solserver/db";
import type { TRetention } from "../services/deps";
import { DEFAULT_SIGN_IN_POLICY, limitStateDays } from "../services/sign-in-policy";

// Retention: deletes trace runs (with their events) and gate decisions older than their window,
// oldest first, in bounded batches of one transaction each, pausing between batches so that
// turns are written in between. A prune that stops half-way (interrupted, crashed, a batch
// failed) leaves whole runs behind, and the next prune continues from the oldest one left.
// `pnpm db:prune` (cli.ts) and the retention-prune job (jobs/jobs.ts)
// both run this.

const DAY_MS = 86_400_000;

/** Rows per batch: 100 trace runs (~1,200 events) hold the write lock ~10 ms (bench/retention.ts). */
export const DEFAULT_PRUNE_BATCH = 100;
/** Pause between batches, in which other writers (a turn, a promotion) take the lock. */
export const DEFAULT_PRUNE_PAUSE_MS = 5;

export type TPruneProgress = {
  what: "traces" | "gate";
  /** Rows deleted so far in this phase (trace runs, or gate decisions). */
  done: number;
  /** Rows counted before it began. */
  total: number;
  batches: number;
};

export type TPruneOptions = {
  retention: TRetention;
  now: Date;
  /** Count what would go, delete nothing. */
  dryRun?: boolean;
  batchSize?: number;
  pauseMs?: number;
  /** Stops between batches; what was deleted stays deleted. */
  signal?: AbortSignal;
  /** Called after every batch. */
  progress?: (p: TPruneProgress) => void;
  vacuum?: boolean;
  analyze?: boolean;
  /**
   * Rate-limit and sign-in throttle state untouched for this many days is deleted too (no rule
   * reads it any more); default: the default sign-in policy's horizon (limitStateDays).
   */
  limitStateDays?: number;
};

/** Rows per batch of expired limit state: small rows, no events hanging off them. */
const LIMIT_STATE_BATCH = 1000;

export type TPruneReport = {
  dryRun: boolean;
  cutoffs: { traces: string | null; gate: string | null };
  /** What was older than the cutoffs when the prune began. */
  planned: TPruneCounts;
  deleted: TPruneCounts;
  /** Expired rate-limit and throttle rows: older than the horizon when the prune began, and deleted. */
  limitStates: { planned: number; deleted: number };
  batches: number;
  /** Stopped by the signal before everything planned was deleted. */
  interrupted: boolean;
  before: TStorage;
  /** After deleting (and vacuuming, when asked). */
  after: TStorage;
  vacuumed: boolean;
  analyzed: boolean;
  ms: number;
};

/** The cutoffs a retention gives at `now`: null where a kind is kept forever (0 days). */
export function retentionCutoffs(retention: TRetention, now: Date): TRetentionCutoffs {
  const cutoff = (days: number) => (days > 0 ? new Date(now.getTime() - days * DAY_MS) : null);
  return { traces: cutoff(retention.traceDays), gate: cutoff(retention.gateDays) };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Deletes what is older than the retention allows (or, dry, counts it). */
export async function pruneRetention(repos: TRepositories, opts: TPruneOptions): Promise<TPruneReport> {
  const started = performance.now();
  const batchSize = opts.batchSize ?? DEFAULT_PRUNE_BATCH;
  const pauseMs = opts.pauseMs ?? DEFAULT_PRUNE_PAUSE_MS;
  const cutoffs = retentionCutoffs(opts.retention, opts.now);
  const retention = repos.retention;
  const before = await retention.storage();
  const planned = await retention.count(cutoffs);
  const deleted: TPruneCounts = { traceRuns: 0, traceEvents: 0, gateEvaluations: 0 };
  const limitCutoff = new Date(
    opts.now.getTime() - (opts.limitStateDays ?? limitStateDays(DEFAULT_SIGN_IN_POLICY)) * DAY_MS,
  );
  const limitStates = { planned: await retention.countLimitStates(limitCutoff), deleted: 0 };
  let batches = 0;
  let interrupted = false;
  const stopped = () => {
    if (opts.signal?.aborted) interrupted = true;
    return interrupted;
  };

  if (!opts.dryRun) {
    const traces = cutoffs.traces;
    if (traces && planned.traceRuns > 0) {
      while (!stopped()) {
        const batch = await retention.pruneTraceBatch(traces, batchSize);
        batches++;
        deleted.traceRuns += batch.runs;
        deleted.traceEvents += batch.events;
        opts.progress?.({ what: "traces", done: deleted.traceRuns, total: planned.traceRuns, batches });
        // A short batch was the last; so was one reaching the count (unless another prune shares the work).
        if (batch.runs < batchSize || deleted.traceRuns >= planned.traceRuns) break;
        await pause(pauseMs);
      }
    }
    const gate = cutoffs.gate;
    if (gate && planned.gateEvaluations > 0) {
      let gateBatches = 0;
      while (!stopped()) {
        const n = await retention.pruneGateBatch(gate, batchSize);
        batches++;
        gateBatches++;
        deleted.gateEvaluations += n;
        opts.progress?.({
          what: "gate",
          done: deleted.gateEvaluations,
          total: planned.gateEvaluations,
          batches: gateBatches,
        });
        if (n < batchSize || deleted.gateEvaluations >= planned.gateEvaluations) break;
        await pause(pauseMs);
      }
    }
    // Expired limit state last: small rows, and nothing to report progress on.
    while (limitStates.planned > 0 && !stopped()) {
      const n = await retention.pruneLimitStateBatch(limitCutoff, LIMIT_STATE_BATCH);
      limitStates.deleted += n;
      if (n < LIMIT_STATE_BATCH) break;
      await pause(pauseMs);
    }
  }

  // A vacuum after an interruption would still be worth it, but the person asked to stop.
  const vacuumed = Boolean(opts.vacuum && !opts.dryRun && !interrupted);
  if (vacuumed) await retention.vacuum();
  const analyzed = Boolean(opts.analyze && !opts.dryRun && !interrupted);
  if (analyzed) await retention.analyze();
  return {
    dryRun: Boolean(opts.dryRun),
    cutoffs: { traces: cutoffs.traces?.toISOString() ?? null, gate: cutoffs.gate?.toISOString() ?? null },
    planned,
    deleted,
    limitStates,
    batches,
    interrupted,
    before,
    after: opts.dryRun ? before : await retention.storage(),
    vacuumed,
    analyzed,
    ms: Math.round(performance.now() - started),
  };
}
