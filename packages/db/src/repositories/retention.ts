import type { TDialect, TStorage } from "../dialect/dialect";
import { Prisma } from "../generated/prisma/client";
import type { TSqlDriver } from "../sql";
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
  Prisma.sql`SELECT "id" FROM "TraceRun" WHERE "startedAt" < ${cutoff} ORDER BY "startedAt", "id" LIMIT ${limit}`;

async function countOld(sql: TSqlDriver, cutoffs: TRetentionCutoffs): Promise<TPruneCounts> {
  const counts: TPruneCounts = { traceRuns: 0, traceEvents: 0, gateEvaluations: 0 };
  if (cutoffs.traces) {
    const [row] = await sql.query<{ runs: number; events: number }>(
      Prisma.sql`SELECT (SELECT COUNT(*) FROM "TraceRun" WHERE "startedAt" < ${cutoffs.traces}) AS "runs",
        (SELECT COUNT(*) FROM "TraceEvent" e JOIN "TraceRun" r ON r."id" = e."traceRunId"
          WHERE r."startedAt" < ${cutoffs.traces}) AS "events"`,
    );
    counts.traceRuns = Number(row?.runs ?? 0);
    counts.traceEvents = Number(row?.events ?? 0);
  }
  if (cutoffs.gate) {
    const [row] = await sql.query<{ n: number }>(
      Prisma.sql`SELECT COUNT(*) AS "n" FROM "GateEvaluation" WHERE "createdAt" < ${cutoffs.gate}`,
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
    const events = await tx.execute(
      Prisma.sql`DELETE FROM "TraceEvent" WHERE "traceRunId" IN (${batchRuns(cutoff, limit)})`,
    );
    const runs = await tx.execute(Prisma.sql`DELETE FROM "TraceRun" WHERE "id" IN (${batchRuns(cutoff, limit)})`);
    return { runs, events };
  });
}

/** Deletes the oldest `limit` gate decisions before `cutoff` (GateEvaluation_createdAt_idx). */
function pruneGateBatch(sql: TSqlDriver, cutoff: Date, limit: number): Promise<number> {
  return sql.transaction((tx) =>
    tx.execute(
      Prisma.sql`DELETE FROM "GateEvaluation" WHERE "id" IN (SELECT "id" FROM "GateEvaluation"
        WHERE "createdAt" < ${cutoff} ORDER BY "createdAt", "id" LIMIT ${limit})`,
    ),
  );
}

/**
 * Deletes up to `limit` rate-limit and sign-in throttle rows last touched before `cutoff`: state
 * no rule reads any more (every key's window, forgetting period and known-address period is
 * shorter), so the table holds what is live, not every address that ever tried a password.
 */
function pruneLimitStateBatch(sql: TSqlDriver, cutoff: Date, limit: number): Promise<number> {
  return sql.transaction((tx) =>
    tx.execute(
      Prisma.sql`DELETE FROM "RateLimitBucket" WHERE "key" IN (SELECT "key" FROM "RateLimitBucket"
        WHERE "windowStart" < ${cutoff} LIMIT ${limit})`,
    ),
  );
}

async function countLimitStates(sql: TSqlDriver, cutoff: Date): Promise<number> {
  const [row] = await sql.query<{ n: number }>(
    Prisma.sql`SELECT COUNT(*) AS "n" FROM "RateLimitBucket" WHERE "windowStart" < ${cutoff}`,
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
