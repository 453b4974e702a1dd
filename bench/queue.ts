// Benchmark (issue 7): the review queue's page query at 100,000 proposals, at every page depth
// and with each filter and sort, server-side (the service a tRPC call or GET /umbra/proposals
// runs). Run: `pnpm bench:queue` (--proposals N, --runs N). Writes bench/results/queue.json.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { ZProposalListRequest } from "@solserver/contracts";
import { createOfflineModel, listProposals, parseInput, respondToTurn } from "@solserver/control-plane";
import { openTestControlPlane } from "@solserver/control-plane/testing";
import { cloneProposals } from "@solserver/db/testing";

const { values } = parseArgs({
  options: { proposals: { type: "string", default: "100000" }, runs: { type: "string", default: "400" } },
});
const TOTAL = Number(values.proposals);
const RUNS = Number(values.runs);

const percentile = (sorted: number[], p: number) =>
  Math.round((sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number) * 100) / 100;

const opened = await openTestControlPlane({
  label: "queue",
  model: createOfflineModel(),
  limits: { chatTurnsPerMinute: 1e6 },
});
try {
  const jam = await opened.account("jam");
  for (let i = 0; i < 20; i++) {
    await respondToTurn(opened.as(jam), {
      request_id: `q-${i}`,
      message: `We decided to adopt tool${i} for builds.`,
    });
  }
  let started = performance.now();
  await cloneProposals(opened.db, TOTAL);
  console.log(`${TOTAL.toLocaleString("en-US")} proposals in ${Math.round(performance.now() - started)} ms`);

  // Cursors at several depths of the pending queue, per sort, collected by walking it once.
  const scenarios: { name: string; input: Record<string, unknown> }[] = [
    { name: "pending, newest", input: { status: "pending" } },
    { name: "pending, oldest", input: { status: "pending", sort: "oldest" } },
    { name: "pending, confidence", input: { status: "pending", sort: "confidence" } },
    { name: "pending, decision=update", input: { status: "pending", decision: "update" } },
    { name: "pending, domain=security", input: { status: "pending", domain: "security" } },
    { name: "pending, min_confidence=0.8", input: { status: "pending", min_confidence: 0.8 } },
    { name: "all statuses", input: { status: "all" } },
  ];
  const results: Record<string, unknown> = {};
  for (const s of scenarios) {
    const cursors: (string | undefined)[] = [undefined];
    let cursor: string | undefined;
    for (let page = 0; page < 400; page++) {
      const res = await listProposals(
        opened.as(jam),
        parseInput(ZProposalListRequest, {
          ...s.input,
          limit: 100,
          ...(cursor ? { cursor } : {}),
        }),
      );
      cursor = res.next_cursor ?? undefined;
      if (!cursor) break;
      if (page % 40 === 0) cursors.push(cursor);
    }
    const times: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      const c = cursors[r % cursors.length];
      started = performance.now();
      await listProposals(
        opened.as(jam),
        parseInput(ZProposalListRequest, { ...s.input, limit: 25, ...(c ? { cursor: c } : {}) }),
      );
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    results[s.name] = {
      depths: cursors.length,
      p50: percentile(times, 50),
      p95: percentile(times, 95),
      p99: percentile(times, 99),
    };
    console.log(
      `${s.name.padEnd(30)} p50 ${percentile(times, 50)} ms, p95 ${percentile(times, 95)} ms (${cursors.length} depths)`,
    );
  }
  const out = path.join(import.meta.dirname, "results", "queue.json");
  writeFileSync(
    out,
    `${JSON.stringify({ when: new Date().toISOString(), node: process.version, proposals: TOTAL, runs: RUNS, results }, null, 2)}\n`,
  );
} finally {
  await opened.close();
}
