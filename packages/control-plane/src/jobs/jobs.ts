import { createJobQueue, type DbClient, type TJobHandler, type TJobQueue, type TJobSpec } from "@solserver/db";
import type { TServerEnv } from "../env";
import { pruneRetention } from "../retention/prune";
import { pruneLine } from "../retention/prune-line";
import type { TCaller } from "../services/context";
import type { TServiceDeps } from "../services/deps";
import { refitResolveRule } from "../services/resolve-rule";
import { tickSchedules } from "../services/schedules";
import { limitStateDays } from "../services/sign-in-policy";
import { deliverWebhookPhases } from "../services/workflow-webhooks";
import { tickLines } from "../workflows/tick-lines";

// The server's background work as jobs (docs/operations.md#background-work): webhook deliveries,
// schedule ticks (the Umbra beat, checkpoint timeouts), retention, the embedding backfill and
// refits of resolve's rule. A recurring job queues its
// next occurrence first, under its name as key, so whichever process runs it, one occurrence waits
// at a time and a failed one does not end the series.

const JOB_SPECS = {
  /** Delivers the webhook phases that can be claimed (workflow-webhooks.ts): the run's lease makes it once. */
  "workflow-webhooks": { retryLimit: 5, retryDelayMs: 5_000, expireMs: 15 * 60_000 },
  /** Due schedule occurrences and overdue checkpoints. */
  "schedules-tick": { retryLimit: 2, retryDelayMs: 5_000, expireMs: 10 * 60_000 },
  /** Traces and gate decisions past their retention. */
  "retention-prune": { retryLimit: 3, retryDelayMs: 60_000, expireMs: 60 * 60_000 },
  /** The knowledge base embedded for semantic matching (what is pending), one process at a time. */
  "embeddings-backfill": { retryLimit: 5, retryDelayMs: 30_000, expireMs: 6 * 60 * 60_000 },
  /** Resolve's decision rule refitted on the reviewers' decisions, as the editor who asked (its output: the result). */
  "resolve-refit": { retryLimit: 0, retryDelayMs: 1_000, expireMs: 10 * 60_000 },
} as const satisfies Record<string, TJobSpec>;

type TJobName = keyof typeof JOB_SPECS;

/** The same failure of the engine (the database down: every poll fails) is logged once a minute. */
const REPEAT_LOG_MS = 60_000;

export function openJobQueue(db: DbClient, databaseUrl: string): Promise<TJobQueue> {
  let last = { line: "", at: Number.NEGATIVE_INFINITY };
  const onError = (line: string) => {
    const at = performance.now();
    if (line === last.line && at - last.at < REPEAT_LOG_MS) return;
    last = { line, at };
    console.error(line);
  };
  return createJobQueue(db, databaseUrl, { specs: JOB_SPECS, onError });
}

export type TJobWorkersOptions = {
  /** Between schedule ticks; 0: no ticks here (`pnpm workflow tick` from cron). */
  schedulerIntervalMs: number;
  /** Between prunes; 0: no pruning here (`pnpm db:prune` from cron). */
  pruneIntervalMs: number;
  /** Until the first prune: start-up is not the moment for it. */
  firstPruneDelayMs: number;
  log: (line: string) => void;
};

/** How often a worker process makes sure each recurring series has its next run queued. */
const REKINDLE_MS = 5 * 60_000;

/** The editor a job acts as (who asked for it), while they are still a Jam editor. */
async function askedBy(deps: TServiceDeps, data: unknown): Promise<TCaller> {
  const { by, via } = (data ?? {}) as { by?: string; via?: TCaller["via"] };
  const account = by ? await deps.repos.accounts.get(by) : null;
  if (account?.role !== "jam") throw new Error("whoever asked for this job is no longer a Jam editor");
  return { kind: "user", userId: account.id, email: account.email, role: "jam", via: via ?? "cli" };
}

/** The workers as the environment sets them, for the web process and `pnpm jobs work`. */
export function jobWorkersFromEnv(
  env: Pick<TServerEnv, "SOLSERVER_SCHEDULER_INTERVAL_MS" | "SOLSERVER_PRUNE_INTERVAL_HOURS" | "retention">,
  log: (line: string) => void,
): TJobWorkersOptions {
  const keepsAll = env.retention.traceDays === 0 && env.retention.gateDays === 0;
  return {
    schedulerIntervalMs: env.SOLSERVER_SCHEDULER_INTERVAL_MS,
    pruneIntervalMs: keepsAll ? 0 : env.SOLSERVER_PRUNE_INTERVAL_HOURS * 3_600_000,
    firstPruneDelayMs: 60_000,
    log,
  };
}

/**
 * Runs the server's jobs in this process, and queues the first occurrence of each recurring one.
 * Resolves with one line for the log: what runs here, and on which engine.
 */
export async function startJobWorkers(deps: TServiceDeps, queue: TJobQueue, opts: TJobWorkersOptions): Promise<string> {
  const later = (ms: number) => new Date(deps.now().getTime() + ms);
  const recurring = (name: TJobName, everyMs: number, work: () => Promise<void>) => async () => {
    await queue.send(name, {}, { key: name, startAfter: later(everyMs) });
    await work();
  };
  const handlers: Partial<Record<TJobName, TJobHandler>> = {
    "workflow-webhooks": async () => ({ delivered: await deliverWebhookPhases(deps) }),
    "resolve-refit": async ({ data }) => refitResolveRule({ deps, caller: await askedBy(deps, data) }),
  };
  if (opts.schedulerIntervalMs > 0) {
    handlers["schedules-tick"] = recurring("schedules-tick", opts.schedulerIntervalMs, async () => {
      const report = await tickSchedules(deps);
      if (report.handled.length > 0 || (report.checkpoints ?? []).length > 0)
        for (const line of tickLines(report)) opts.log(`scheduler: ${line}`);
    });
  }
  if (opts.pruneIntervalMs > 0) {
    handlers["retention-prune"] = recurring("retention-prune", opts.pruneIntervalMs, async () => {
      const report = await pruneRetention(deps.repos, {
        retention: deps.retention,
        now: deps.now(),
        limitStateDays: limitStateDays(deps.limits.signIn),
      });
      if (report.batches > 0 || report.limitStates.deleted > 0) opts.log(pruneLine(report));
    });
  }
  const semantic = deps.semantic;
  if (semantic) {
    handlers["embeddings-backfill"] = async () => {
      // (a model that cannot load is a failed try, retried with backoff, not "nothing to embed")
      if (!(await semantic.get())) {
        const state = semantic.state();
        throw new Error(
          `semantic matching is unavailable: ${state.state === "unavailable" ? state.reason : state.state}`,
        );
      }
      return { embedded: await semantic.syncNow() };
    };
  }
  await queue.work(handlers);
  if (handlers["embeddings-backfill"]) await queue.send("embeddings-backfill", {}, { key: "embeddings-backfill" });
  const every = (name: TJobName) =>
    name === "schedules-tick"
      ? `${name} every ${opts.schedulerIntervalMs / 1000} s`
      : name === "retention-prune"
        ? `${name} every ${opts.pruneIntervalMs / 3_600_000} h`
        : name;
  if (handlers["schedules-tick"]) await queue.send("schedules-tick", {}, { key: "schedules-tick" });
  if (handlers["retention-prune"])
    await queue.send("retention-prune", {}, { key: "retention-prune", startAfter: later(opts.firstPruneDelayMs) });
  // A series whose next run could not be queued (the database down when its run tried) starts
  // again here: while a next run waits, the key drops these sends. A send that fails (the
  // database still down, the queue closed) is tried at the next round; the engine logs why.
  const recurringNames = (["schedules-tick", "retention-prune"] as const).filter((name) => handlers[name]);
  setInterval(() => {
    Promise.all(recurringNames.map((name) => queue.send(name, {}, { key: name }))).catch(() => {});
  }, REKINDLE_MS).unref();
  return `jobs: running ${(Object.keys(handlers) as TJobName[]).map(every).join(", ")} (${queue.engine})`;
}
