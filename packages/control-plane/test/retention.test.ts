// Retention on a real SQLite file: pruning deletes trace runs (with their events) and gate
// decisions older than their window, in batches, and keeps every turn, message, answer, proposal,
// audit event and CFB; a dry run deletes nothing; an interrupted or failed prune leaves whole runs
// and the next one finishes the work; a pruned turn's trace says so. Then `pnpm db:prune`: its
// output, exit codes and errors, in process and once as the real command.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { ZThreadGetRequest } from "@solserver/contracts";
import { repositoryRoot } from "@solserver/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadServerEnv } from "../src/env";
import { getThread, parseInput, respondToTurn } from "../src/index";
import { PRUNE_EXIT, runPruneCli } from "../src/retention/cli";
import { pruneRetention, type TPruneProgress } from "../src/retention/prune";
import { DEFAULT_SIGN_IN_POLICY, limitStateDays } from "../src/services/sign-in-policy";
import { openTestControlPlane, type TTestActor } from "../src/testing";

const DAY = 86_400_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let opened: Awaited<ReturnType<typeof openTestControlPlane>>;
let user: TTestActor;
let n = 0;
/** Between the old turns and the recent ones: a prune at boundary + 30 days takes exactly the old. */
let boundary: Date;
let pruneAt: Date;
const oldThreads: string[] = [];
let recentThread: string;

async function turn(message: string, threadId?: string) {
  return respondToTurn(opened.as(user), {
    request_id: `retention-${++n}`,
    message,
    ...(threadId ? { thread_id: threadId } : {}),
  });
}

/** Every table retention touches, and every one it must not. */
async function counts() {
  const db = opened.db;
  const [traceRuns, traceEvents, gateEvaluations] = await Promise.all([
    db.traceRun.count(),
    db.traceEvent.count(),
    db.gateEvaluation.count(),
  ]);
  const kept = await Promise.all([
    db.thread.count(),
    db.message.count(),
    db.packet.count(),
    db.transmission.count(),
    db.deliveryAttempt.count(),
    db.response.count(),
    db.responseMeta.count(),
    db.umbraProposal.count(),
    db.promotionEvent.count(),
    db.auditEvent.count(),
    db.cfb.count(),
  ]);
  return { traceRuns, traceEvents, gateEvaluations, kept };
}

async function oldRows(cutoff: Date) {
  return {
    runs: await opened.db.traceRun.count({ where: { startedAt: { lt: cutoff } } }),
    events: await opened.db.traceEvent.count({ where: { run: { startedAt: { lt: cutoff } } } }),
    gate: await opened.db.gateEvaluation.count({ where: { createdAt: { lt: cutoff } } }),
  };
}

/** Every run left has all of its events (seq 0..n-1): nothing was cut in half. */
async function runsAreWhole(): Promise<boolean> {
  const runs = await opened.db.traceRun.findMany({ select: { id: true, events: { select: { seq: true } } } });
  return runs.every((r) => r.events.length > 0 && r.events.every((e) => e.seq < r.events.length));
}

beforeAll(async () => {
  opened = await openTestControlPlane({ label: "retention", limits: { chatTurnsPerMinute: 10_000 } });
  user = await opened.account("user");
  for (let t = 0; t < 3; t++) {
    const first = await turn(`We decided to keep Kafka topics for ${t + 7} days.`);
    oldThreads.push(first.thread_id);
    await turn("How long do Kafka topics keep messages?", first.thread_id);
    await turn("Thanks, that helps.", first.thread_id);
  }
  await sleep(5);
  boundary = new Date();
  pruneAt = new Date(boundary.getTime() + 30 * DAY);
  await sleep(5);
  const recent = await turn("We decided that the staging cluster runs Postgres 16.");
  recentThread = recent.thread_id;
  await turn("Which Postgres version does staging run?", recentThread);
});
afterAll(async () => opened?.close());

describe("pruneRetention", () => {
  it("a dry run counts what is older than the retention and deletes nothing", async () => {
    const before = await counts();
    const old = await oldRows(boundary);
    expect(old.runs).toBe(9);
    expect(old.events).toBeGreaterThan(old.runs);
    expect(old.gate).toBeGreaterThanOrEqual(9);
    const report = await pruneRetention(opened.repos, {
      retention: { traceDays: 30, gateDays: 30 },
      now: pruneAt,
      dryRun: true,
    });
    expect(report.planned).toEqual({ traceRuns: old.runs, traceEvents: old.events, gateEvaluations: old.gate });
    expect(report.deleted).toEqual({ traceRuns: 0, traceEvents: 0, gateEvaluations: 0 });
    expect(report.batches).toBe(0);
    expect(report.cutoffs.traces).toBe(boundary.toISOString());
    expect(await counts()).toEqual(before);
  });

  it("stops between batches when interrupted, leaving whole runs; a failed batch rolls back alone", async () => {
    const before = await oldRows(boundary);
    const controller = new AbortController();
    const seen: TPruneProgress[] = [];
    const interrupted = await pruneRetention(opened.repos, {
      retention: { traceDays: 30, gateDays: 30 },
      now: pruneAt,
      batchSize: 2,
      pauseMs: 0,
      signal: controller.signal,
      progress: (p) => {
        seen.push(p);
        controller.abort();
      },
    });
    expect(interrupted.interrupted).toBe(true);
    expect(interrupted.deleted.traceRuns).toBe(2);
    expect(interrupted.deleted.gateEvaluations).toBe(0);
    expect(seen).toEqual([{ what: "traces", done: 2, total: before.runs, batches: 1 }]);
    expect((await oldRows(boundary)).runs).toBe(before.runs - 2);
    expect(await runsAreWhole()).toBe(true);

    // A crash inside the second batch: its transaction rolls back, the first batch stays done.
    let calls = 0;
    const failing = {
      ...opened.repos,
      retention: {
        ...opened.repos.retention,
        pruneTraceBatch: async (cutoff: Date, limit: number) => {
          if (++calls === 2) throw new Error("disk I/O error");
          return opened.repos.retention.pruneTraceBatch(cutoff, limit);
        },
      },
    };
    await expect(
      pruneRetention(failing, { retention: { traceDays: 30, gateDays: 30 }, now: pruneAt, batchSize: 2, pauseMs: 0 }),
    ).rejects.toThrow("disk I/O error");
    expect((await oldRows(boundary)).runs).toBe(before.runs - 4);
    expect(await runsAreWhole()).toBe(true);
  });

  it("the next prune finishes: old traces and gate decisions gone; recent ones and every turn kept", async () => {
    const before = await counts();
    const old = await oldRows(boundary);
    const recentRuns = before.traceRuns - old.runs;
    const recentGate = before.gateEvaluations - old.gate;
    const report = await pruneRetention(opened.repos, {
      retention: { traceDays: 30, gateDays: 30 },
      now: pruneAt,
      batchSize: 2,
      pauseMs: 0,
    });
    expect(report.interrupted).toBe(false);
    expect(report.deleted).toEqual({ traceRuns: old.runs, traceEvents: old.events, gateEvaluations: old.gate });
    // A phase ends with a short batch, or with the one that reaches the count.
    expect(report.batches).toBe(Math.ceil(old.runs / 2) + Math.ceil(old.gate / 2));
    expect(await oldRows(boundary)).toEqual({ runs: 0, events: 0, gate: 0 });
    const after = await counts();
    expect(after.traceRuns).toBe(recentRuns);
    expect(after.gateEvaluations).toBe(recentGate);
    expect(recentRuns).toBe(2);
    expect(after.kept).toEqual(before.kept);
    expect(await runsAreWhole()).toBe(true);
    // Deleted rows leave free pages for new rows (SQLite does not shrink the file by itself).
    expect(report.after.freeBytes).toBeGreaterThanOrEqual(report.before.freeBytes);
    // Nothing more to do.
    const again = await pruneRetention(opened.repos, { retention: { traceDays: 30, gateDays: 30 }, now: pruneAt });
    expect([again.batches, again.planned.traceRuns, again.planned.gateEvaluations]).toEqual([0, 0, 0]);
  });

  it("deletes rate-limit and sign-in throttle state no rule reads any more, and keeps the rest", async () => {
    const horizon = limitStateDays(DEFAULT_SIGN_IN_POLICY);
    expect(horizon).toBe(31);
    const at = (days: number) => new Date(pruneAt.getTime() - days * DAY);
    await opened.db.rateLimitBucket.createMany({
      data: [
        { key: "test:expired:chat", windowStart: at(horizon + 9), count: 3 },
        { key: "test:expired:pair", windowStart: at(horizon + 1), count: 7 },
        { key: "test:live:known", windowStart: at(horizon - 1), count: 1 },
        { key: "test:live:pair", windowStart: at(0.5), count: 2 },
      ],
    });
    const keys = async () =>
      (await opened.db.rateLimitBucket.findMany({ where: { key: { startsWith: "test:" } }, select: { key: true } }))
        .map((r) => r.key)
        .sort();
    const dry = await pruneRetention(opened.repos, {
      retention: { traceDays: 0, gateDays: 0 },
      now: pruneAt,
      dryRun: true,
    });
    expect(dry.limitStates.deleted).toBe(0);
    expect(dry.limitStates.planned).toBeGreaterThanOrEqual(2);
    expect(await keys()).toHaveLength(4);
    const report = await pruneRetention(opened.repos, { retention: { traceDays: 0, gateDays: 0 }, now: pruneAt });
    expect(report.limitStates.deleted).toBe(dry.limitStates.planned);
    expect(await keys()).toEqual(["test:live:known", "test:live:pair"]);
  });

  it("0 days keeps a kind forever", async () => {
    const before = await counts();
    const report = await pruneRetention(opened.repos, {
      retention: { traceDays: 0, gateDays: 0 },
      now: new Date(boundary.getTime() + 10_000 * DAY),
    });
    expect(report.cutoffs).toEqual({ traces: null, gate: null });
    expect(report.batches).toBe(0);
    expect(await counts()).toEqual(before);
  });
});

describe("a pruned turn's trace", () => {
  const view = (now: Date, traceDays: number, threadId: string) =>
    getThread(
      { deps: { ...opened.deps, now: () => now, retention: { traceDays, gateDays: 30 } }, caller: user },
      parseInput(ZThreadGetRequest, { thread_id: threadId }),
    );

  it("says it was pruned after N days, and keeps the messages and the answer", async () => {
    const thread = await view(pruneAt, 30, oldThreads[0] as string);
    expect(thread.messages).toHaveLength(6);
    expect(thread.turns).toHaveLength(3);
    for (const t of thread.turns) {
      expect(t.trace).toEqual([]);
      expect(t.trace_pruned_after_days).toBe(30);
      expect(t.answer?.assistant_text).toBeTruthy();
    }
  });

  it("a recent turn keeps its trace; with traces kept forever nothing reads as pruned", async () => {
    const recent = await view(pruneAt, 30, recentThread);
    for (const t of recent.turns) {
      expect(t.trace.length).toBeGreaterThan(0);
      expect(t.trace_pruned_after_days).toBeNull();
    }
    const forever = await view(pruneAt, 0, oldThreads[1] as string);
    expect(forever.turns.map((t) => t.trace_pruned_after_days)).toEqual([null, null, null]);
  });
});

describe("retention settings", () => {
  const env = (vars: Record<string, string>) =>
    loadServerEnv({ DATABASE_URL: opened.database.url, BETTER_AUTH_SECRET: "x".repeat(32), ...vars });

  it("default to 30 days each and a daily prune; 0 keeps forever or turns the timer off", () => {
    expect([env({}).retention, env({}).SOLSERVER_PRUNE_INTERVAL_HOURS]).toEqual([{ traceDays: 30, gateDays: 30 }, 24]);
    const off = env({
      SOLSERVER_TRACE_RETENTION_DAYS: "0",
      SOLSERVER_GATE_RETENTION_DAYS: "90",
      SOLSERVER_PRUNE_INTERVAL_HOURS: "0",
    });
    expect([off.retention, off.SOLSERVER_PRUNE_INTERVAL_HOURS]).toEqual([{ traceDays: 0, gateDays: 90 }, 0]);
  });

  it.each([
    ["SOLSERVER_TRACE_RETENTION_DAYS", "-1", "must be between 0 (keep forever) and 36500 days"],
    ["SOLSERVER_TRACE_RETENTION_DAYS", "7.5", "must be a whole number of days (0 keeps everything)"],
    ["SOLSERVER_GATE_RETENTION_DAYS", "40000", "must be between 0 (keep forever) and 36500 days"],
    ["SOLSERVER_GATE_RETENTION_DAYS", "a month", "expected number"],
    ["SOLSERVER_PRUNE_INTERVAL_HOURS", "200", "must be between 0 (off) and 168 (a week)"],
  ])("%s=%s is refused, naming the variable", (name, value, rule) => {
    expect(() => env({ [name]: value })).toThrow(`${name}: `);
    expect(() => env({ [name]: value })).toThrow(rule);
  });
});

describe("pnpm db:prune", () => {
  let cli: Awaited<ReturnType<typeof openTestControlPlane>>;
  let baseEnv: Record<string, string>;

  async function run(argv: string[], extraEnv: Record<string, string> = {}) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runPruneCli(argv, {
      out: (l) => out.push(l),
      err: (l) => err.push(l),
      env: { ...baseEnv, ...extraEnv },
      progressEveryMs: 0,
    });
    return { code, out: out.join("\n"), err: err.join("\n") };
  }

  beforeAll(async () => {
    cli = await openTestControlPlane({ label: "retention-cli", limits: { chatTurnsPerMinute: 10_000 } });
    const who = await cli.account("user");
    for (let i = 0; i < 4; i++) {
      await respondToTurn(cli.as(who), { request_id: `cli-${i}`, message: `Note ${i}: the build uses Node 20.` });
    }
    // Age half of the traces and gate decisions by 40 days, as the wall clock would have.
    const old = "2020-01-01T00:00:00.000+00:00";
    const runs = await cli.db.traceRun.findMany({ select: { id: true }, orderBy: { startedAt: "asc" }, take: 2 });
    for (const r of runs) {
      await cli.db.$executeRaw`UPDATE "TraceRun" SET "startedAt" = ${old} WHERE "id" = ${r.id}`;
    }
    const gates = await cli.db.gateEvaluation.findMany({
      select: { id: true },
      orderBy: { createdAt: "asc" },
      take: 2,
    });
    for (const g of gates) {
      await cli.db.$executeRaw`UPDATE "GateEvaluation" SET "createdAt" = ${old} WHERE "id" = ${g.id}`;
    }
    baseEnv = { DATABASE_URL: cli.database.url, BETTER_AUTH_SECRET: "y".repeat(32) };
  });
  afterAll(async () => cli?.close());

  it("--dry-run reports what it would delete and deletes nothing", async () => {
    const before = await cli.db.traceRun.count();
    const res = await run(["--dry-run"]);
    expect(res.code).toBe(PRUNE_EXIT.DONE);
    expect(res.err).toBe("");
    expect(res.out).toContain("(dry run)");
    expect(res.out).toMatch(/trace runs older than 30 days \(before \d{4}-/);
    expect(res.out).toMatch(/would delete 2 trace runs \(\d+ events\) and 2 gate decisions; nothing was deleted/);
    expect(await cli.db.traceRun.count()).toBe(before);
  });

  it("prunes with progress, counts and freed space; --vacuum shrinks the file", async () => {
    const runs = await cli.db.traceRun.count();
    const gates = await cli.db.gateEvaluation.count();
    const res = await run(["--vacuum", "--analyze", "--batch-size", "1"]);
    expect(res.code).toBe(PRUNE_EXIT.DONE);
    expect(res.out).toMatch(/trace runs: 1 \/ 2 deleted \(50%\), 1 batch$/m);
    expect(res.out).toMatch(/trace runs: 2 \/ 2 deleted \(100%\)/);
    expect(res.out).toMatch(/gate decisions: 2 \/ 2 deleted \(100%\)/);
    expect(res.out).toMatch(/deleted 2 trace runs \(\d+ events\) and 2 gate decisions in \d+ batches/);
    expect(res.out).toMatch(/vacuumed: database [\d.]+ MB → [\d.]+ MB/);
    expect(res.out).toContain("planner statistics refreshed (ANALYZE)");
    expect(await cli.db.traceRun.count()).toBe(runs - 2);
    expect(await cli.db.gateEvaluation.count()).toBe(gates - 2);
    const again = await run([]);
    expect(again.out).toContain("deleted 0 trace runs (0 events) and 0 gate decisions in 0 batches");
    expect(res.out).toMatch(/gate decisions in 4 batches/);
  });

  it.each([
    [["--trace-days", "abc"], "--trace-days <days>' argument 'abc' is invalid. must be a whole number from 0 to 36500"],
    [["--gate-days", "-3"], "must be a whole number from 0 to 36500 (--gate-days)"],
    [["--batch-size", "0"], "must be a whole number from 1 to 10000 (--batch-size)"],
    [["--force"], "unknown option '--force'"],
    [["now"], 'unexpected argument "now"'],
  ])("refuses %j with exit 3 and the reason on stderr, deleting nothing", async (argv, message) => {
    const before = await cli.db.traceRun.count();
    const res = await run(argv);
    expect(res.code).toBe(PRUNE_EXIT.INVALID);
    expect(res.err).toContain(message);
    expect(res.out).toBe("");
    expect(await cli.db.traceRun.count()).toBe(before);
  });

  it("a bad setting is exit 3 naming the variable; an unopenable database is exit 4", async () => {
    const bad = await run(["--dry-run"], { SOLSERVER_TRACE_RETENTION_DAYS: "-5" });
    expect(bad.code).toBe(PRUNE_EXIT.INVALID);
    expect(bad.err).toContain("SOLSERVER_TRACE_RETENTION_DAYS: must be between 0");
    const missing = await run(["--dry-run"], { DATABASE_URL: "file:/nonexistent-dir/solserver.db" });
    expect(missing.code).toBe(PRUNE_EXIT.INTERNAL);
    expect(missing.err).toMatch(/^db:prune failed: /);
  });

  it("--help prints the options and exits 0", async () => {
    const res = await run(["--help"]);
    expect(res.code).toBe(PRUNE_EXIT.DONE);
    expect(res.out).toContain("--dry-run");
    expect(res.out).toContain("--vacuum");
  });

  it("the package script runs it: exit code and stderr of the real command", async () => {
    const exec = promisify(execFile);
    const failed = await exec("pnpm", ["--silent", "db:prune", "--batch-size", "x"], {
      cwd: repositoryRoot(),
      env: { ...process.env, ...baseEnv },
    }).then(
      () => null,
      (e: { code: number; stderr: string }) => e,
    );
    expect(failed?.code).toBe(PRUNE_EXIT.INVALID);
    expect(failed?.stderr).toContain("must be a whole number from 1 to 10000 (--batch-size)");
  });
});
