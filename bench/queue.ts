// Benchmark (issues 7 and 20): the review queue's page at 100 and at 100,000 proposals, at every
// page depth and with each filter and sort, server-side (the service a tRPC call or
// GET /umbra/proposals runs): wall time and CPU time per call. A page should cost the same at
// both sizes. Run: `pnpm bench:queue` (--sizes 100,100000, --runs N). Writes
// bench/results/queue.json, with the machine and its load average (the machine may be shared).
import { writeFileSync } from "node:fs";
import os from "node:os";
import { parseArgs } from "node:util";
import { ZProposalListRequest } from "@solserver/contracts";
import { createOfflineModel, listProposals, parseInput, proposalQueues, respondToTurn } from "@solserver/control-plane";
import { openTestControlPlane, type TTestActor } from "@solserver/control-plane/testing";
import { cloneProposals } from "@solserver/db/testing";
import { resultsPath } from "./lib/results-file";

const { values } = parseArgs({
  options: {
    sizes: { type: "string", default: "100,100000" },
    /** One size only (the older flag). */
    proposals: { type: "string" },
    runs: { type: "string", default: "400" },
  },
});
const SIZES = (values.proposals ?? values.sizes).split(",").map((s) => Number(s.trim()));
const RUNS = Number(values.runs);

const round2 = (n: number) => Math.round(n * 100) / 100;
const percentile = (sorted: number[], p: number) =>
  round2(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number);
const loadavg = () => os.loadavg().map(round2);

type TScenario = { name: string; as: "jam" | "user"; input: Record<string, unknown> };
const SCENARIOS: TScenario[] = [
  { name: "pending, newest", as: "jam", input: { status: "pending" } },
  { name: "pending, oldest", as: "jam", input: { status: "pending", sort: "oldest" } },
  { name: "pending, confidence", as: "jam", input: { status: "pending", sort: "confidence" } },
  { name: "pending, decision=update", as: "jam", input: { status: "pending", decision: "update" } },
  { name: "pending, domain=security", as: "jam", input: { status: "pending", domain: "security" } },
  { name: "pending, min_confidence=0.8", as: "jam", input: { status: "pending", min_confidence: 0.8 } },
  { name: "all statuses", as: "jam", input: { status: "all" } },
  // Issue 23: the counts follow a filter (counted on read, one indexed count per status).
  { name: "pending, unassigned", as: "jam", input: { status: "pending", assignee: "none" } },
  // A user sees the proposals of their own threads only, and counts them so.
  { name: "pending, a user's own", as: "user", input: { status: "pending" } },
];

async function benchAt(size: number) {
  const opened = await openTestControlPlane({
    label: "queue",
    model: createOfflineModel(),
    limits: { chatTurnsPerMinute: 1e6 },
  });
  try {
    const actors: Record<TScenario["as"], TTestActor> = {
      jam: await opened.account("jam"),
      user: await opened.account("user"),
    };
    // Two thirds of the turns (and so of the copies) in the Jam editor's threads, a third in the user's.
    for (let i = 0; i < 21; i++) {
      await respondToTurn(opened.as(i % 3 === 2 ? actors.user : actors.jam), {
        request_id: `q-${i}`,
        message: `We decided to adopt tool${i} for builds.`,
      });
    }
    let started = performance.now();
    await cloneProposals(opened.db, size);
    const total = await opened.db.umbraProposal.count();
    console.log(`${total.toLocaleString("en-US")} proposals in ${Math.round(performance.now() - started)} ms`);

    const results: Record<string, unknown> = {};
    for (const s of SCENARIOS) {
      const ctx = opened.as(actors[s.as]);
      // Cursors at several depths of the queue, collected by walking it once.
      const cursors: (string | undefined)[] = [undefined];
      let cursor: string | undefined;
      for (let page = 0; page < 400; page++) {
        const res = await listProposals(
          ctx,
          parseInput(ZProposalListRequest, { ...s.input, limit: 100, ...(cursor ? { cursor } : {}) }),
        );
        cursor = res.next_cursor ?? undefined;
        if (!cursor) break;
        if (page % 40 === 0) cursors.push(cursor);
      }
      // Warm-up (the first calls of a scenario compile its statements and code paths).
      for (let r = 0; r < 20; r++) {
        const c = cursors[r % cursors.length];
        await listProposals(
          ctx,
          parseInput(ZProposalListRequest, { ...s.input, limit: 25, ...(c ? { cursor: c } : {}) }),
        );
      }
      const times: number[] = [];
      const cpu: number[] = [];
      for (let r = 0; r < RUNS; r++) {
        const c = cursors[r % cursors.length];
        const input = parseInput(ZProposalListRequest, { ...s.input, limit: 25, ...(c ? { cursor: c } : {}) });
        // better-sqlite3 runs its statements on this thread, so the process's CPU time around the
        // awaited call is the call's (nothing else runs in the meantime).
        const cpuStart = process.cpuUsage();
        started = performance.now();
        await listProposals(ctx, input);
        times.push(performance.now() - started);
        const used = process.cpuUsage(cpuStart);
        cpu.push((used.user + used.system) / 1000);
      }
      times.sort((a, b) => a - b);
      cpu.sort((a, b) => a - b);
      const cpuMean = round2(cpu.reduce((a, b) => a + b, 0) / cpu.length);
      results[s.name] = {
        depths: cursors.length,
        p50: percentile(times, 50),
        p95: percentile(times, 95),
        p99: percentile(times, 99),
        cpu_p50: percentile(cpu, 50),
        cpu_mean: cpuMean,
      };
      console.log(
        `${s.name.padEnd(30)} p50 ${percentile(times, 50)} ms, p95 ${percentile(times, 95)} ms, CPU p50 ${percentile(cpu, 50)} ms, mean ${cpuMean} ms (${cursors.length} depths)`,
      );
    }
    // The review desk's per-domain queues (issue 23): polled every 30 s by an open queue page.
    const queueTimes: number[] = [];
    for (let r = 0; r < Math.max(20, RUNS / 4); r++) {
      started = performance.now();
      await proposalQueues(opened.as(actors.jam));
      queueTimes.push(performance.now() - started);
    }
    queueTimes.sort((a, b) => a - b);
    results["per-domain queues (proposals.queues)"] = {
      p50: percentile(queueTimes, 50),
      p95: percentile(queueTimes, 95),
    };
    console.log(
      `per-domain queues              p50 ${percentile(queueTimes, 50)} ms, p95 ${percentile(queueTimes, 95)} ms`,
    );
    return { proposals: total, results };
  } finally {
    await opened.close();
  }
}

const loadBefore = loadavg();
const sizes: Record<string, unknown> = {};
for (const size of SIZES) {
  console.log(`--- ${size.toLocaleString("en-US")} copies, load average ${loadavg().join(" / ")}`);
  sizes[String(size)] = { load_average_before: loadavg(), ...(await benchAt(size)) };
}
const machine = {
  platform: `${os.platform()} ${os.release()}`,
  cpus: os.cpus().length,
  cpu_model: os.cpus()[0]?.model ?? "unknown",
  memory_gb: round2(os.totalmem() / 2 ** 30),
  // 1, 5 and 15 minutes: the machine is shared, so other work slows these figures.
  load_average_before: loadBefore,
  load_average_after: loadavg(),
};
console.log(`load average ${machine.load_average_after.join(" / ")} (${machine.cpus} cores)`);
const out = resultsPath("queue.json");
writeFileSync(
  out,
  `${JSON.stringify({ when: new Date().toISOString(), node: process.version, machine, runs: RUNS, sizes }, null, 2)}\n`,
);
