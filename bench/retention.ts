// Benchmark (issue 20, retention): disk use per turn, and what pruning and VACUUM give back. Writes
// N real turns through the services with the offline model (statements that raise proposals,
// questions the demo CFBs cover, open questions, acknowledgements; threads of ~50 turns) on a
// temp SQLite file, measures the file and each table per turn (dbstat), then prunes as if every
// turn were older than the 30-day retention (trace runs with their events, gate decisions), then
// vacuums, measuring again after each step; also each batch's time (how long pruning holds the
// write lock at a time). Run: `pnpm bench:retention` (--turns N, --batch N). Writes
// bench/results/retention.json.
import { writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { DEMO_CFBS, pruneRetention, respondToTurn } from "@solserver/control-plane";
import { openTestControlPlane } from "@solserver/control-plane/testing";
import type { TStorage } from "@solserver/db";
import { resultsPath } from "./lib/results-file";
import { pick } from "./lib/topics";

const { values } = parseArgs({
  options: {
    turns: { type: "string", default: "5000" },
    batch: { type: "string" },
  },
});
const TURNS = Number(values.turns);
// (unset: the product's default batch)
const BATCH = values.batch === undefined ? undefined : Number(values.batch);
if (!Number.isInteger(TURNS) || TURNS < 100 || (BATCH !== undefined && (!Number.isInteger(BATCH) || BATCH < 1))) {
  console.error("error: --turns must be an integer >= 100 and --batch an integer >= 1");
  process.exit(2);
}

// What the turn writes, by table (each with its indexes); the rest of the file is "other".
const TABLES = [
  "TraceEvent",
  "TraceRun",
  "GateEvaluation",
  "Message",
  "Packet",
  "Transmission",
  "DeliveryAttempt",
  "Response",
  "ResponseMeta",
  "UmbraProposal",
  "UmbraResolveDecision",
  "CfbUsageEvent",
  "Thread",
  "ThreadMemento",
  "RepetitionCounter",
  "AuditEvent",
] as const;

function message(i: number): string {
  switch (i % 4) {
    case 0:
      return `We decided to rotate the ${pick(i)} credentials every ${(i % 40) + 1} days and to page the on-call engineer when a rotation fails.`;
    case 1:
      return "How do we run Postgres upgrades, and what is the rollback plan if the upgrade fails?";
    case 2:
      return `What is the budget for ${pick(i)} in quarter ${(i % 4) + 1}, and who approves an overrun?`;
    default:
      return "Thanks, that helps.";
  }
}

const mb = (bytes: number) => Math.round((bytes / 1_048_576) * 100) / 100;
const perTurn = (bytes: number) => Math.round(bytes / TURNS);
function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round((sorted[i] as number) * 100) / 100;
}
function snapshot(s: TStorage) {
  const tables = Object.values(s.tables).reduce((a, b) => a + b, 0);
  return {
    file_mb: mb(s.fileBytes),
    free_mb: mb(s.freeBytes),
    used_bytes_per_turn: perTurn(s.fileBytes - s.freeBytes),
    file_bytes_per_turn: perTurn(s.fileBytes),
    bytes_per_turn_by_table: {
      ...Object.fromEntries(Object.entries(s.tables).map(([t, b]) => [t, perTurn(b)])),
      other: perTurn(s.fileBytes - s.freeBytes - tables),
    },
  };
}

const opened = await openTestControlPlane({ label: "bench-retention", limits: { chatTurnsPerMinute: 1_000_000 } });
const { repos } = opened;
try {
  for (const draft of DEMO_CFBS) await repos.cfbs.create(draft);
  const owner = await opened.account("user");
  const started = performance.now();
  let threadId: string | undefined;
  for (let i = 0; i < TURNS; i++) {
    if (i % 50 === 0) threadId = undefined;
    const res = await respondToTurn(opened.as(owner), {
      request_id: `retention-${i}`,
      message: message(i),
      ...(threadId ? { thread_id: threadId } : {}),
    });
    threadId = res.thread_id;
    if ((i + 1) % 1000 === 0) process.stdout.write(`${i + 1} turns\n`);
  }
  const writeMs = performance.now() - started;
  const load = { after_writes: loadavg().map((l) => Math.round(l * 100) / 100) };
  const written = await repos.retention.storage(TABLES);
  const rows = {
    trace_runs: await opened.db.traceRun.count(),
    trace_events: await opened.db.traceEvent.count(),
    gate_evaluations: await opened.db.gateEvaluation.count(),
  };

  // Time each batch (the write lock is held for one batch at a time).
  const batchMs = { traces: [] as number[], gate: [] as number[] };
  const timed =
    <A extends unknown[], R>(into: number[], f: (...a: A) => Promise<R>) =>
    async (...a: A) => {
      const t = performance.now();
      try {
        return await f(...a);
      } finally {
        into.push(performance.now() - t);
      }
    };
  const timedRepos = {
    ...repos,
    retention: {
      ...repos.retention,
      pruneTraceBatch: timed(batchMs.traces, repos.retention.pruneTraceBatch),
      pruneGateBatch: timed(batchMs.gate, repos.retention.pruneGateBatch),
    },
  };
  // Every turn is older than the 30-day retention at this `now`.
  const now = new Date(Date.now() + 31 * 86_400_000);
  const pruned = await pruneRetention(timedRepos, {
    retention: { traceDays: 30, gateDays: 30 },
    now,
    ...(BATCH === undefined ? {} : { batchSize: BATCH }),
  });
  const afterPrune = await repos.retention.storage(TABLES);
  const vacuumStarted = performance.now();
  await repos.retention.vacuum();
  const vacuumMs = performance.now() - vacuumStarted;
  const analyzeStarted = performance.now();
  await repos.retention.analyze();
  const analyzeMs = performance.now() - analyzeStarted;
  const afterVacuum = await repos.retention.storage(TABLES);
  const distribution = (samples: number[]) => {
    const sorted = [...samples].sort((a, b) => a - b);
    return { n: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: percentile(sorted, 100) };
  };

  const before = snapshot(written);
  const traceAndGate =
    (written.tables.TraceEvent ?? 0) + (written.tables.TraceRun ?? 0) + (written.tables.GateEvaluation ?? 0);
  const result = {
    when: new Date().toISOString(),
    node: process.version,
    cpus: (await import("node:os")).cpus().length,
    turns: TURNS,
    batch_size: BATCH,
    write_ms_per_turn: Math.round((writeMs / TURNS) * 100) / 100,
    rows,
    written: before,
    trace_and_gate_share: Math.round((traceAndGate / (written.fileBytes - written.freeBytes)) * 1000) / 1000,
    prune: {
      deleted: pruned.deleted,
      batches: pruned.batches,
      ms: pruned.ms,
      // One transaction each: how long a batch holds the write lock (trace batches: runs with events).
      batch_ms: { traces: distribution(batchMs.traces), gate: distribution(batchMs.gate) },
      after: snapshot(afterPrune),
    },
    vacuum: { ms: Math.round(vacuumMs), after: snapshot(afterVacuum) },
    analyze_ms: Math.round(analyzeMs),
    load_average: { ...load, at_end: loadavg().map((l) => Math.round(l * 100) / 100) },
  };
  const out = resultsPath("retention.json");
  writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  console.log(
    `${TURNS} turns: ${before.file_bytes_per_turn} B/turn (${result.written.file_mb} MB), trace + gate ${Math.round(result.trace_and_gate_share * 100)}%`,
  );
  console.log(
    `pruned ${pruned.deleted.traceRuns} runs / ${pruned.deleted.traceEvents} events / ${pruned.deleted.gateEvaluations} gate decisions in ${pruned.batches} batches, ${pruned.ms} ms (trace batch p50 ${result.prune.batch_ms.traces.p50} / max ${result.prune.batch_ms.traces.max} ms, gate batch p50 ${result.prune.batch_ms.gate.p50} / max ${result.prune.batch_ms.gate.max} ms): ${result.prune.after.used_bytes_per_turn} B/turn in use, ${result.prune.after.free_mb} MB free`,
  );
  console.log(
    `vacuum ${result.vacuum.ms} ms: ${result.vacuum.after.file_bytes_per_turn} B/turn (${result.vacuum.after.file_mb} MB); analyze ${result.analyze_ms} ms`,
  );
  console.log(`wrote ${path.relative(process.cwd(), out)}`);
} finally {
  await opened.close();
}
