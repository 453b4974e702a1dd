// The /healthz prober of bench/load.ts, in its own process so that the load clients' event loop
// never delays a probe: GET <url> every <interval> ms (one at a time, 2 s timeout) for
// <duration> ms. On stdout: "probing" once the first probe answered, then at the end one JSON line:
// each probe's latency in ms (null: timed out).
// Run: node --import tsx bench/lib/health-prober.ts <url> <durationMs> <intervalMs>
export {};

const [url, durationArg, intervalArg] = process.argv.slice(2);
if (!url) throw new Error("usage: health-prober.ts <url> <durationMs> <intervalMs>");
const until = performance.now() + Number(durationArg);
const interval = Number(intervalArg);
const latencies: (number | null)[] = [];
const statuses: Record<string, number> = {};
while (performance.now() < until) {
  const started = performance.now();
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
    await res.arrayBuffer();
    latencies.push(performance.now() - started);
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
  } catch {
    latencies.push(null);
  }
  // (once: the process is up and its first probe answered)
  if (latencies.length === 1) process.stdout.write("probing\n");
  const left = interval - (performance.now() - started);
  if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
}
process.stdout.write(`${JSON.stringify({ latencies, statuses })}\n`);
