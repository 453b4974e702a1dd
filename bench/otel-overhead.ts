// Benchmark (issue 39): what exporting every turn as an OpenTelemetry trace adds to a turn. Two
// control planes on two databases, one exporting over OTLP/HTTP to a local receiver that accepts
// everything, one not; turns alternate between them so a busy machine slows both alike. Reports
// each one's wall time per turn (p50, p95) and the difference of the medians; the target is at
// most 1 ms at p50. Export happens in the background, so the turn pays only for its spans.
// Run: `pnpm bench:otel [--turns 400]`. Writes bench/results/otel-overhead.json.
import { writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import { parseArgs } from "node:util";
import { openTelemetry, respondToTurn } from "@solserver/control-plane";
import { openTestControlPlane } from "@solserver/control-plane/testing";
import { resultsFile } from "./lib/results-file";

const { values } = parseArgs({ options: { turns: { type: "string", default: "400" } } });
const TURNS = Number(values.turns);
const MESSAGES = [
  "We decided the build cache is wiped every Friday.",
  "How often is the build cache wiped?",
  "Remember that the staging database restarts at 02:00 UTC.",
  "What happens at 02:00 UTC?",
];

let received = 0;
const collector = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    received++;
    res.writeHead(200, { "content-type": "application/json" });
    res.end("{}");
  });
});
await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
const telemetry = openTelemetry({
  tracesUrl: `http://127.0.0.1:${(collector.address() as AddressInfo).port}/v1/traces`,
  serviceName: "solserver-bench",
});
const runs = {
  off: await openTestControlPlane({ label: "otel-off", limits: { chatTurnsPerMinute: 1_000_000 } }),
  on: await openTestControlPlane({ label: "otel-on", telemetry, limits: { chatTurnsPerMinute: 1_000_000 } }),
};
const times: Record<keyof typeof runs, number[]> = { off: [], on: [] };
const users = { off: await runs.off.account("user"), on: await runs.on.account("user") };
const threads: Partial<Record<keyof typeof runs, string>> = {};
for (let i = 0; i < TURNS * 2 + 20; i++) {
  const which = i % 2 === 0 ? "off" : "on";
  const started = performance.now();
  const res = await respondToTurn(runs[which].as(users[which]), {
    request_id: `otel-bench-${i}`,
    message: MESSAGES[Math.floor(i / 2) % MESSAGES.length] as string,
    ...(threads[which] ? { thread_id: threads[which] } : {}),
  });
  // a new thread every 20 turns: long threads are turn-overhead.ts's subject
  threads[which] = Math.floor(i / 2) % 20 === 19 ? undefined : res.thread_id;
  if (i >= 20) times[which].push(performance.now() - started);
}
await telemetry.flush();
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * p)] ?? 0;
const round = (ms: number) => Math.round(ms * 100) / 100;
const result = {
  machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, Node ${process.version}`,
  turns_each: TURNS,
  off: { p50_ms: round(pct(times.off, 0.5)), p95_ms: round(pct(times.off, 0.95)) },
  on: { p50_ms: round(pct(times.on, 0.5)), p95_ms: round(pct(times.on, 0.95)) },
  p50_difference_ms: round(pct(times.on, 0.5) - pct(times.off, 0.5)),
  export_requests_received: received,
  spans_failed: telemetry.failedSpans(),
};
console.log(JSON.stringify(result, null, 2));
writeFileSync(resultsFile("otel-overhead"), `${JSON.stringify(result, null, 2)}\n`);
await telemetry.shutdown();
collector.close();
await runs.off.close();
await runs.on.close();
