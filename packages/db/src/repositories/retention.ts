import type { TDialect, TStorage } from "../dialect/dialect";
import type { TSqlDriver } from "../sql";
import { rows, run, typed } from "../typed-sql";
import type { TStore } from "./store";

// Retention (docs/operations.md): trace runs with their events, and gate decisions, older than a
// cutoff are deleted; turns, messages, proposals, promotions, audit events and knowledge are kept.
// Deletion goes oldest first in bounded batches, one transaction each, so the write lock is never
// held for long and an interruption leaves whole runs (a run and its events go together): the
// next prune simply continues from the oldest row left.

export type TRetentionCutoffs = {
  /** Trace runs that started before this go, with their events; null keeps every trace. */
  traces: Date | null;
  /** Gate decisions recorded before this go; null keeps every decision. */
  gate: Date | null;
};

export type TPruneCounts = { traceRuns: number; traceEvents: number; gateEvaluations: number };

/** The runs of one batch: the oldest `limit` runs before the cutoff (TraceRun_startedAt_idx). */
const batchRuns = (cutoff: Date, limit: number) =>
  typed
    .selectFrom("TraceRun")
    .select("id")
    .where("startedAt", "<", cutoff)
    .orderBy("startedAt")
    .orderBy("id")
    .limit(limit);

/** Trace runs before `cutoff` and their events, counted in one statement. */
function countTraces(cutoff: Date) {
  return typed.selectNoFrom((eb) => [
    eb.selectFrom("TraceRun").select(eb.fn.countAll().as("n")).where("startedAt", "<", cutoff).as("runs"),
    eb
      .selectFrom("TraceEvent as e")
      .innerJoin("TraceRun as r", "r.id", "e.traceRunId")
      .select(eb.fn.countAll().as("n"))
      .where("r.startedAt", "<", cutoff)
      .as("events"),
  ]);
}

async function countOld(sql: TSqlDriver, cutoffs: TRetentionCutoffs): Promise<TPruneCounts> {
  const counts: TPruneCounts = { traceRuns: 0, traceEvents: 0, gateEvaluations: 0 };
  if (cutoffs.traces) {
    const [row] = await rows(sql, countTraces(cutoffs.traces));
    counts.traceRuns = Number(row?.runs ?? 0);
    counts.traceEvents = Number(row?.events ?? 0);
  }
  if (cutoffs.gate) {
    const [row] = await rows(
      sql,
      typed
        .selectFrom("GateEvaluation")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("createdAt", "<", cutoffs.gate),
    );
    counts.gateEvaluations = Number(row?.n ?? 0);
  }
  return counts;
}

/**
 * Deletes the oldest `limit` trace runs before `cutoff` and their events, in one transaction.
 * Both statements pick the same runs: the writer's lock is held from the first DELETE to the
 * commit, and nothing writes a run that started before a cutoff in the past.
 */
function pruneTraceBatch(sql: TSqlDriver, cutoff: Date, limit: number): Promise<{ runs: number; events: number }> {
  return sql.transaction(async (tx) => {
    const events = await run(tx, typed.deleteFrom("TraceEvent").where("traceRunId", "in", batchRuns(cutoff, limit)));
    const runs = await run(tx, typed.deleteFrom("TraceRun").where("id", "in", batchRuns(cutoff, limit)));
    return { runs, events };
  });
}

/** Deletes the oldest `limit` gate decisions before `cutoff` (GateEvaluation_createdAt_idx). */
function pruneGateBatch(sql: TSqlDriver, cutoff: Date, limit: number): Promise<number> {
  const oldest = typed
    .selectFrom("GateEvaluation")
    .select("id")
    .where("createdAt", "<", cutoff)
    .orderBy("createdAt")
    .orderBy("id")
    .limit(limit);
  return sql.transaction((tx) => run(tx, typed.deleteFrom("GateEvaluation").where("id", "in", oldest)));
}

/**
 * Deletes up to `limit` rate-limit and sign-in throttle rows last touched before `cutoff`: state
 * no rule reads any more (every key's window, forgetting period and known-address period is
 * shorter), so the table holds what is live, not every address that ever tried a password.
 */
function pruneLimitStateBatch(sql: TSqlDriver, cutoff: Date, limit: number): Promise<number> {
  const expired = typed.selectFrom("RateLimitBucket").select("key").where("windowStart", "<", cutoff).limit(limit);
  return sql.transaction((tx) => run(tx, typed.deleteFrom("RateLimitBucket").where("key", "in", expired)));
}

async function countLimitStates(sql: TSqlDriver, cutoff: Date): Promise<number> {
  const [row] = await rows(
    sql,
    typed
      .selectFrom("RateLimitBucket")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("windowStart", "<", cutoff),
  );
  return Number(row?.n ?? 0);
}

export function retentionRepository({ sql }: TStore, dialect: TDialect) {
  return {
    /** Expired rate-limit and throttle state before `cutoff` (counted for a dry run). */
    countLimitStates: (cutoff: Date) => countLimitStates(sql, cutoff),
    pruneLimitStateBatch: (cutoff: Date, limit: number) => pruneLimitStateBatch(sql, cutoff, limit),
    /** What a prune with these cutoffs would delete (a dry run, and the progress total). */
    count: (cutoffs: TRetentionCutoffs) => countOld(sql, cutoffs),
    pruneTraceBatch: (cutoff: Date, limit: number) => pruneTraceBatch(sql, cutoff, limit),
    pruneGateBatch: (cutoff: Date, limit: number) => pruneGateBatch(sql, cutoff, limit),
    /** The database's size and its free (reusable) space; with `tables`, what those tables hold. */
    storage: (tables?: readonly string[]): Promise<TStorage> => dialect.storage(sql, tables),
    /** Gives free space back to the filesystem (rewrites the database; see docs/operations.md). */
    vacuum: () => dialect.vacuum(sql),
    /** Refreshes the query planner's statistics where they are missing or stale. */
    analyze: () => dialect.analyze(sql),
  };
}
