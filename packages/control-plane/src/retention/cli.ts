import { createPrismaClient, createRepositories, databaseLabel } from "@solserver/db";
import { Command, CommanderError, InvalidArgumentError } from "commander";
import { loadServerEnv } from "../env";
import type { TRetention } from "../services/deps";
import { DEFAULT_PRUNE_BATCH, DEFAULT_PRUNE_PAUSE_MS, pruneRetention, type TPruneReport } from "./prune";

// `pnpm db:prune`: deletes trace runs (with their events) and gate decisions older than their
// retention (SOLSERVER_TRACE_RETENTION_DAYS / SOLSERVER_GATE_RETENTION_DAYS, or the flags), in
// bounded batches with progress, then prints what it deleted and the space it freed. --dry-run
// only counts; --vacuum gives the freed space back to the filesystem. docs/operations.md.

export const PRUNE_EXIT = {
  /** Pruned (or counted, with --dry-run). */
  DONE: 0,
  /** Bad arguments or environment; nothing was deleted. */
  INVALID: 3,
  /** The database could not be opened or a batch failed; batches already done stay done. */
  INTERNAL: 4,
  /** Interrupted (Ctrl-C) between batches; run it again to continue. */
  INTERRUPTED: 130,
} as const;

export type TPruneIo = {
  out: (line: string) => void;
  err: (line: string) => void;
  /** The process's environment, handed over by the entry script. */
  env: Record<string, string | undefined>;
  /** Aborted on Ctrl-C: the prune stops after the batch under way. */
  signal?: AbortSignal;
  /** Least time between two progress lines (the last line of a phase is always printed). */
  progressEveryMs?: number;
};

const number = (flag: string, min: number, max: number) => (text: string) => {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw new InvalidArgumentError(`must be a whole number from ${min} to ${max} (${flag})`);
  }
  return n;
};

class UsageError extends Error {}

const count = (n: number) => n.toLocaleString("en-US");
const batches = (n: number) => `${count(n)} ${n === 1 ? "batch" : "batches"}`;
const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;
const kept = (days: number, what: string, cutoff: string | null) =>
  cutoff ? `${what} older than ${days} days (before ${cutoff})` : `${what} kept forever (0 days)`;

function summary(report: TPruneReport, out: (line: string) => void): void {
  const { planned, deleted } = report;
  if (report.dryRun) {
    out(
      `would delete ${count(planned.traceRuns)} trace runs (${count(planned.traceEvents)} events) and ` +
        `${count(planned.gateEvaluations)} gate decisions; nothing was deleted (dry run)`,
    );
    if (report.limitStates.planned > 0)
      out(`would delete ${count(report.limitStates.planned)} expired rate-limit and sign-in throttle states`);
    out(`database ${mb(report.before.fileBytes)}, ${mb(report.before.freeBytes)} of it free`);
    return;
  }
  out(
    `deleted ${count(deleted.traceRuns)} trace runs (${count(deleted.traceEvents)} events) and ` +
      `${count(deleted.gateEvaluations)} gate decisions in ${batches(report.batches)}, ${count(report.ms)} ms`,
  );
  if (report.limitStates.deleted > 0)
    out(`deleted ${count(report.limitStates.deleted)} expired rate-limit and sign-in throttle states`);
  const freed = report.after.freeBytes - report.before.freeBytes;
  if (report.vacuumed) {
    out(`vacuumed: database ${mb(report.before.fileBytes)} → ${mb(report.after.fileBytes)}`);
  } else {
    out(
      `freed ${mb(Math.max(0, freed))} for new rows: database ${mb(report.after.fileBytes)}, ${mb(report.after.freeBytes)} of it free` +
        (report.after.freeBytes > 0 ? " (--vacuum gives free space back to the filesystem)" : ""),
    );
  }
  if (report.analyzed) out("planner statistics refreshed (ANALYZE)");
  if (report.interrupted) {
    out(
      `interrupted: ${count(planned.traceRuns - deleted.traceRuns)} trace runs and ` +
        `${count(planned.gateEvaluations - deleted.gateEvaluations)} gate decisions left; run it again to continue`,
    );
  }
}

async function prune(
  opts: {
    dryRun: boolean;
    vacuum: boolean;
    analyze: boolean;
    traceDays?: number;
    gateDays?: number;
    batchSize: number;
  },
  io: TPruneIo,
): Promise<number> {
  const env = loadServerEnv(io.env);
  const retention: TRetention = {
    traceDays: opts.traceDays ?? env.retention.traceDays,
    gateDays: opts.gateDays ?? env.retention.gateDays,
  };
  const db = await createPrismaClient(env.DATABASE_URL);
  try {
    const now = new Date();
    io.out(`pruning ${databaseLabel(env.DATABASE_URL)}${opts.dryRun ? " (dry run)" : ""}`);
    const cutoff = (days: number) => (days > 0 ? new Date(now.getTime() - days * 86_400_000).toISOString() : null);
    io.out(
      `retention: ${kept(retention.traceDays, "trace runs", cutoff(retention.traceDays))}; ` +
        `${kept(retention.gateDays, "gate decisions", cutoff(retention.gateDays))}`,
    );
    const every = io.progressEveryMs ?? 1000;
    let last = 0;
    const report = await pruneRetention(createRepositories(db), {
      retention,
      now,
      dryRun: opts.dryRun,
      batchSize: opts.batchSize,
      pauseMs: DEFAULT_PRUNE_PAUSE_MS,
      vacuum: opts.vacuum,
      analyze: opts.analyze,
      ...(io.signal ? { signal: io.signal } : {}),
      progress: (p) => {
        const at = performance.now();
        if (p.done < p.total && at - last < every) return;
        last = at;
        const what = p.what === "traces" ? "trace runs" : "gate decisions";
        const pct = p.total > 0 ? Math.min(100, Math.round((100 * p.done) / p.total)) : 100;
        io.out(`  ${what}: ${count(p.done)} / ${count(p.total)} deleted (${pct}%), ${batches(p.batches)}`);
      },
    });
    summary(report, io.out);
    return report.interrupted ? PRUNE_EXIT.INTERRUPTED : PRUNE_EXIT.DONE;
  } finally {
    await db.$disconnect();
  }
}

/** The whole CLI: arguments in, exit code out (never calls process.exit, so tests can run it). */
export async function runPruneCli(argv: readonly string[], io: TPruneIo): Promise<number> {
  let code: number = PRUNE_EXIT.DONE;
  const program = new Command("db:prune")
    .description(
      "Delete trace runs (with their events) and gate decisions older than their retention; turns, " +
        "proposals, audit events and knowledge are kept.",
    )
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) })
    .option("--dry-run", "count what would be deleted; delete nothing", false)
    .option("--vacuum", "afterwards, rewrite the database to give the freed space back (locks it meanwhile)", false)
    .option("--analyze", "afterwards, refresh the query planner's statistics", false)
    .option(
      "--trace-days <days>",
      "keep trace runs this many days (0: forever; default SOLSERVER_TRACE_RETENTION_DAYS)",
      number("--trace-days", 0, 36_500),
    )
    .option(
      "--gate-days <days>",
      "keep gate decisions this many days (0: forever; default SOLSERVER_GATE_RETENTION_DAYS)",
      number("--gate-days", 0, 36_500),
    )
    .option(
      "--batch-size <rows>",
      "rows per transaction (trace runs with their events, or gate decisions)",
      number("--batch-size", 1, 10_000),
      DEFAULT_PRUNE_BATCH,
    )
    .argument("[extra...]")
    .action(async (extra: string[], opts) => {
      if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}" (see --help)`);
      code = await prune(opts, io);
    });
  try {
    await program.parseAsync([...argv], { from: "user" });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? PRUNE_EXIT.DONE : PRUNE_EXIT.INVALID;
    }
    if (error instanceof UsageError) {
      io.err(`error: ${error.message}`);
      return PRUNE_EXIT.INVALID;
    }
    const message = error instanceof Error ? error.message : String(error);
    if (message.startsWith("Invalid environment")) {
      io.err(message);
      return PRUNE_EXIT.INVALID;
    }
    io.err(`db:prune failed: ${message}; batches already done stay done, run it again to continue`);
    return PRUNE_EXIT.INTERNAL;
  }
}
