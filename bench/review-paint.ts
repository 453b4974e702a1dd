/// <reference lib="dom" />
// Benchmark (issue 35): how soon the review desk shows its first proposal, in a real browser on the
// production build, at 100 and at 100,000 proposals. For each size: a fresh database (a few turns'
// proposals cloned to the size, as bench/queue.ts does), `next start` on it, a Jam editor signed
// in, then `--runs` loads of /review (cards) and of /review?layout=list in Chromium, each timed on
// the page's own clock (0 is the navigation's start) until the first proposal title is in the
// document (polled every 10 ms). Reports p50 and p95 per size and layout; the target is ≤ 300 ms p50 at 100,000.
// Run: `pnpm --filter @solserver/web build`, then `pnpm bench:review-paint [--sizes 100,100000]
// [--runs 20]`. Writes bench/results/review-paint.json.
import { writeFileSync } from "node:fs";
import os from "node:os";
import { parseArgs } from "node:util";
import { respondToTurn } from "@solserver/control-plane";
import { openTestControlPlane, scriptedModel } from "@solserver/control-plane/testing";
import { cloneProposals } from "@solserver/db/testing";
import { chromium } from "playwright-core";
import { signInCookie } from "./lib/chat-clients";
import {
  requireWebBuild,
  sourcesNewerThanBuild,
  startNextServer,
  stopAllServers,
  stopServer,
} from "./lib/next-servers";
import { resultsFile } from "./lib/results-file";

const { values } = parseArgs({
  options: {
    sizes: { type: "string", default: "100,100000" },
    runs: { type: "string", default: "20" },
    port: { type: "string", default: "3301" },
  },
});
const SIZES = values.sizes.split(",").map(Number);
const RUNS = Number(values.runs);
const PORT = Number(values.port);
const BASE = `http://127.0.0.1:${PORT}`;

requireWebBuild();
const stale = sourcesNewerThanBuild();
if (stale.length > 0) console.warn(`the build is older than ${stale.length} source files (e.g. ${stale[0]}): rebuild`);

const pct = (xs: number[], p: number) =>
  Math.round([...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length - 1) * p))] ?? 0);

const results: Record<string, unknown> = {};
const browser = await chromium.launch({
  executablePath: process.env.SOLSERVER_CHROMIUM ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu"],
});
try {
  for (const size of SIZES) {
    let n = 0;
    const opened = await openTestControlPlane({
      label: `paint-${size}`,
      model: scriptedModel(() => ({
        suggestions: [
          {
            op: "create",
            title: `Rack ${++n} cabling`,
            delta_summary: `Rack ${n} is cabled on day ${n}.`,
            confidence: 0.8,
            tags: ["racks"],
            entities: [],
          },
        ],
      })),
      limits: { chatTurnsPerMinute: 1_000_000 },
    });
    const jam = await opened.account("jam", `paint-${size}@bench.test`);
    for (let i = 0; i < 20; i++)
      await respondToTurn(opened.as(jam), { request_id: `paint-${i}`, message: "We decided." });
    await cloneProposals(opened.db, size);
    await opened.db.$disconnect();
    const server = await startNextServer(PORT, {
      ...(process.env as Record<string, string>),
      DATABASE_URL: opened.database.url,
      SOLSERVER_BASE_URL: BASE,
      SOLSERVER_READS_PER_MINUTE: "100000",
    });
    try {
      const cookie = await signInCookie(BASE, BASE, jam.email, jam.password);
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      await context.addCookies(
        cookie.split("; ").map((pair) => {
          const at = pair.indexOf("=");
          return { name: pair.slice(0, at), value: pair.slice(at + 1), url: BASE };
        }),
      );
      const page = await context.newPage();

      const row: Record<string, { p50_ms: number; p95_ms: number }> = {};
      for (const layout of ["cards", "list"] as const) {
        const url = `${BASE}/review${layout === "list" ? "?layout=list" : ""}`;
        const times: number[] = [];
        for (let r = 0; r < RUNS + 2; r++) {
          await page.goto(url);
          // The page's own clock (0: the navigation's start) when a proposal title is first in the
          // document, read every 10 ms (Element Timing reported no entries for these pages in this
          // headless Chromium): the first item shown, not strictly painted.
          const shown = await page.waitForFunction(
            () =>
              document.querySelector("[data-review-card] h3 a, li.proposal-line .line-title") ? performance.now() : 0,
            undefined,
            { polling: 10, timeout: 30_000 },
          );
          const painted = Number(await shown.jsonValue());
          // The first two loads warm the server's caches and Chromium's.
          if (r >= 2) times.push(painted);
        }
        row[layout] = { p50_ms: pct(times, 0.5), p95_ms: pct(times, 0.95) };
      }
      results[String(size)] = row;
      console.log(`${size.toLocaleString("en-US")} proposals: ${JSON.stringify(row)}`);
      await context.close();
    } finally {
      await stopServer(server);
      await opened.close();
    }
  }
} finally {
  await browser.close();
  await stopAllServers();
}

const out = {
  machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, Node ${process.version}, load ${os.loadavg()[0]?.toFixed(1)}`,
  runs: RUNS,
  first_proposal_shown: results,
};
writeFileSync(resultsFile("review-paint"), `${JSON.stringify(out, null, 2)}\n`);
console.log(JSON.stringify(out, null, 2));
