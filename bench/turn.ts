// Benchmark: server-side latency of a chat turn and of a promotion, through the real services
// on a real (temp) SQLite file with the offline model. Run: `pnpm bench` (options: --turns N,
// --cfbs N). Writes bench/results/turn.json and prints a summary.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { DEMO_CFBS, promoteProposal, respondToTurn } from "@solserver/control-plane";
import { openTestControlPlane } from "@solserver/control-plane/testing";
import { benchDatabase, resultsFile } from "./lib/results-file";
import { pick } from "./lib/topics";

const { values } = parseArgs({
  options: { turns: { type: "string", default: "300" }, cfbs: { type: "string", default: "500" } },
});
const TURNS = Number(values.turns);
const CFBS = Number(values.cfbs);
if (!Number.isInteger(TURNS) || TURNS < 10 || !Number.isInteger(CFBS) || CFBS < 0) {
  console.error("error: --turns must be an integer >= 10 and --cfbs an integer >= 0");
  process.exit(2);
}

function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return Math.round((sorted[Math.max(0, i)] as number) * 100) / 100;
}
function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
  return {
    n: samples.length,
    mean: Math.round(mean * 100) / 100,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
  };
}

// No rate limit on the benchmark's own account: it measures the pipeline, not the limiter.
const opened = await openTestControlPlane({ label: "bench", limits: { chatTurnsPerMinute: 1_000_000 } });
const { repos } = opened;
const owner = await opened.account("user");
try {
  process.stdout.write(`seeding ${CFBS} CFBs... `);
  for (const draft of DEMO_CFBS) await repos.cfbs.create(draft);
  for (let i = 0; i < CFBS; i++) {
    await repos.cfbs.create({
      ...(DEMO_CFBS[0] as (typeof DEMO_CFBS)[number]),
      title: `${pick(i)} runbook ${i}`,
      summary: `How the ${pick(i)} service ${i} is operated, monitored and recovered after incidents.`,
      tags: [pick(i), "runbook"],
      entities: [`Service${i}`],
    });
  }
  console.log("done");

  const turnMs: number[] = [];
  const proposals: string[] = [];
  const requests: { request_id: string; message: string; thread_id: string }[] = [];
  for (let i = 0; i < TURNS; i++) {
    // Alternate the three kinds of turn the offline model handles: statement, covered question, open question.
    const message =
      i % 3 === 0
        ? `We decided to rotate the ${pick(i)} credentials every ${i + 1} days.`
        : i % 3 === 1
          ? `How is the ${pick(i)} service operated after incidents?`
          : `What is the budget for ${pick(i)} in quarter ${i}?`;
    const request = { request_id: `bench-${i}`, message, thread_id: `bench-${i % 20}` };
    requests.push(request);
    const started = performance.now();
    const response = await respondToTurn(opened.as(owner), request);
    turnMs.push(performance.now() - started);
    proposals.push(...response.ui_hints.proposal_previews.map((p) => p.proposal_id));
  }

  // A client retry: same request_id and body, answered from the stored turn.
  const replayMs: number[] = [];
  for (const request of requests.slice(0, 100)) {
    const started = performance.now();
    const replay = await respondToTurn(opened.as(owner), request);
    replayMs.push(performance.now() - started);
    if (!replay.replayed) throw new Error(`${request.request_id} was not replayed`);
  }

  const promoteMs: number[] = [];
  for (const [i, proposalId] of proposals.entries()) {
    const started = performance.now();
    await promoteProposal(opened.as(owner), {
      proposal_id: proposalId,
      action: i % 2 === 0 ? "approve_create" : "reject",
    });
    promoteMs.push(performance.now() - started);
  }

  const result = {
    when: new Date().toISOString(),
    node: process.version,
    cpus: (await import("node:os")).cpus().length,
    cfbs: CFBS + DEMO_CFBS.length,
    turn_ms: stats(turnMs),
    replay_ms: stats(replayMs),
    promote_ms: stats(promoteMs),
  };
  const out = resultsFile("turn");
  writeFileSync(out, `${JSON.stringify({ database: benchDatabase(), ...result }, null, 2)}\n`);
  console.log(
    `turn     (n=${result.turn_ms.n}): p50 ${result.turn_ms.p50} ms, p95 ${result.turn_ms.p95} ms, p99 ${result.turn_ms.p99} ms`,
  );
  console.log(
    `replay   (n=${result.replay_ms.n}): p50 ${result.replay_ms.p50} ms, p95 ${result.replay_ms.p95} ms, p99 ${result.replay_ms.p99} ms`,
  );
  console.log(
    `promote  (n=${result.promote_ms.n}): p50 ${result.promote_ms.p50} ms, p95 ${result.promote_ms.p95} ms, p99 ${result.promote_ms.p99} ms`,
  );
  console.log(`written to ${path.relative(process.cwd(), out)}`);
} finally {
  await opened.close();
}
