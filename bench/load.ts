// Benchmark (issue 20): the built web server under load, over real HTTP. A fresh SQLite file with
// the demo data and one real account per client; `next start` (the production build: run
// `pnpm --filter @solserver/web build` first) with the offline model; clients signed in by the
// sign-in route, each sending chat turns (POST /chat/respond) one after another on its own thread
// for --seconds at 1, 8 and 32 clients. A client that is shed (503) waits its Retry-After, as
// the API asks. Meanwhile two separate processes probe GET /healthz and GET /readyz every 50 ms. Reported per load:
// turns/s, p50/p99 of answered turns, the share of 503s, /healthz and /readyz p50/p99/max, the server's
// event-loop delay (bench/lib/loop-lag.mjs: per-second windows' p50 median, p99 and max worst), the server's CPU
// ms per answered turn (user + system time of its process tree) and os.loadavg(); then the CPU and
// latency of the review queue page (GET /umbra/proposals as a Jam editor) once the turns have
// filled the queue. --bounds runs it all once per SOLSERVER_MAX_CONCURRENT_REQUESTS value (a
// server each; 0 = no shedding), which is how the defaults were chosen (docs/performance.md).
// Start-up: from the spawn until /readyz says ready, GET /healthz every 50 ms (from this process,
// idle meanwhile): when it first answered, when the server was ready, and the probes' p50/p99/max
// in between. --cfbs N adds realistic CFBs to the demo's (the knowledge index builds at start-up);
// --database postgresql runs on a fresh database of the PostgreSQL server at --postgres (admin URL).
// Run: `pnpm bench:load` (--seconds N, --clients 1,8,32, --bounds 0,1,2,4, --queue N, --wait-ms N,
// --port N, --cfbs N, --database sqlite|postgresql, --postgres URL). Writes bench/results/load.json
// (load-postgres.json on PostgreSQL).
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import {
  createPasswordAccount,
  ensureFirstRunAccounts,
  loadServerEnv,
  openControlPlaneFromEnv,
  seedDemo,
} from "@solserver/control-plane";
import { migrateDatabase } from "@solserver/db";
import { chatMessage, signInCookie } from "./lib/chat-clients";
import { createMigratedDatabase, DEFAULT_POSTGRES_ADMIN_URL, dropDatabase } from "./lib/postgres-admin";
import { realisticNoise } from "./lib/realistic-corpus";
import { resultsPath } from "./lib/results-file";
import { loadFixture, noiseSources } from "./resolve-eval-runner";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "15" },
    clients: { type: "string", default: "1,8,32" },
    bounds: { type: "string", default: "0,1,2,4" },
    queue: { type: "string", default: "16" },
    "wait-ms": { type: "string", default: "2000" },
    port: { type: "string", default: "3917" },
    "queue-pages": { type: "string", default: "200" },
    cfbs: { type: "string", default: "0" },
    database: { type: "string", default: "sqlite" },
    postgres: { type: "string" },
  },
});
if (values.database !== "sqlite" && values.database !== "postgresql")
  throw new Error("--database must be sqlite or postgresql");
const POSTGRES = values.database === "postgresql";
const POSTGRES_ADMIN = values.postgres ?? process.env.SOLSERVER_TEST_POSTGRES_URL ?? DEFAULT_POSTGRES_ADMIN_URL;
const PG_DATABASE = `solserver_load_${process.pid}`;
const EXTRA_CFBS = Number(values.cfbs);
const list = (s: string) => s.split(",").map((v) => Number(v.trim()));
const SECONDS = Number(values.seconds);
const CLIENTS = list(values.clients);
const BOUNDS = list(values.bounds);
const PORT = Number(values.port);
const QUEUE_PAGES = Number(values["queue-pages"]);
const PROBE_INTERVAL_MS = 50;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const ROOT = path.resolve(import.meta.dirname, "..");
const WEB = path.join(ROOT, "apps/web");
const CLK_TCK = Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;
function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number);
}
const loadavg = () => os.loadavg().map((x) => round(x, 2)) as [number, number, number];

/** CPU time (user + system, ms) of `pid` and every process below it. */
function treeCpuMs(pid: number): number {
  const stats = new Map<number, { ppid: number; ticks: number }>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // Fields after the command name (which may hold spaces): state ppid ... utime(14) stime(15).
      const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      stats.set(Number(entry), { ppid: Number(rest[1]), ticks: Number(rest[11]) + Number(rest[12]) });
    } catch {
      // The process ended while we looked.
    }
  }
  let ticks = 0;
  for (const [p, s] of stats) {
    for (let at: number | undefined = p; at !== undefined && at > 1; at = stats.get(at)?.ppid) {
      if (at === pid) {
        ticks += s.ticks;
        break;
      }
    }
  }
  return (ticks * 1000) / CLK_TCK;
}

// ---- the database and the accounts -------------------------------------------------------------
const dir = mkdtempSync(path.join(os.tmpdir(), "solserver-load-"));
const LOOP_LAG_FILE = path.join(dir, "loop-lag.jsonl");
const PASSWORD = "load-bench-password";
const baseEnv: Record<string, string> = {
  ...(process.env as Record<string, string>),
  DATABASE_URL: POSTGRES
    ? await createMigratedDatabase(POSTGRES_ADMIN, PG_DATABASE)
    : `file:${path.join(dir, "load.db")}`,
  BETTER_AUTH_SECRET: "load-bench-secret-load-bench-secret-0123",
  SOLSERVER_BASE_URL: ORIGIN,
  SOLSERVER_MODEL: "offline",
  SOLSERVER_CHAT_TURNS_PER_MINUTE: "1000000",
  SOLSERVER_SCHEDULER_INTERVAL_MS: "0",
  SOLSERVER_OFFLINE_STREAM_DELAY_MS: "0",
  PORT: String(PORT),
  NEXT_TELEMETRY_DISABLED: "1",
};
const maxClients = Math.max(...CLIENTS);
const userEmail = (i: number) => `load-${i}@bench.test`;
const JAM_EMAIL = "load-jam@bench.test";
{
  // Seeded without the sentence model: the server embeds at its own start, and a model here would
  // go on embedding the router's examples on one of the machine's cores while the server is measured.
  const env = loadServerEnv({ ...baseEnv, SOLSERVER_EMBEDDINGS: "off" });
  await migrateDatabase(env.DATABASE_URL);
  const { deps, repos, auth, db } = await openControlPlaneFromEnv(env);
  if (!auth) throw new Error("auth is not configured");
  const { user } = await ensureFirstRunAccounts(repos, (u) => createPasswordAccount(auth, u), {});
  await seedDemo(deps, user);
  if (EXTRA_CFBS > 0) {
    const sources = noiseSources(loadFixture());
    const noise = realisticNoise(EXTRA_CFBS, sources.prose, sources.others);
    for (let i = 0; i < noise.length; i += 5000) await repos.cfbs.import(noise.slice(i, i + 5000));
  }
  for (let i = 0; i < maxClients; i++) {
    await createPasswordAccount(auth, { email: userEmail(i), name: `load ${i}`, password: PASSWORD, role: "user" });
  }
  await createPasswordAccount(auth, { email: JAM_EMAIL, name: "load jam", password: PASSWORD, role: "jam" });
  await db.$disconnect();
}

// ---- the server -----------------------------------------------------------------------------------
const nextBin = createRequire(path.join(WEB, "package.json")).resolve("next/dist/bin/next");

type TStartUp = {
  listening_after_ms: number;
  ready_after_ms: number;
  healthz: { probes: number; p50_ms: number; p99_ms: number; max_ms: number; timeouts: number };
};

async function startServer(bound: number): Promise<{ server: ChildProcess; startUp: TStartUp }> {
  const spawned = performance.now();
  const server = spawn(process.execPath, [nextBin, "start", "-H", "127.0.0.1", "-p", String(PORT)], {
    cwd: WEB,
    env: {
      ...baseEnv,
      SOLSERVER_MAX_CONCURRENT_REQUESTS: String(bound),
      SOLSERVER_MAX_QUEUED_REQUESTS: values.queue,
      SOLSERVER_MAX_QUEUE_WAIT_MS: values["wait-ms"],
      NODE_OPTIONS: `--import ${path.join(ROOT, "bench/lib/loop-lag.mjs")}`,
      LOOP_LAG_FILE,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  // Liveness from the spawn on: refused connections until it listens, then every answer's time.
  let ready = false;
  let listeningAt: number | null = null;
  const latencies: (number | null)[] = [];
  const liveness = (async () => {
    while (!ready) {
      const started = performance.now();
      try {
        await (await fetch(`${ORIGIN}/healthz`, { signal: AbortSignal.timeout(2000) })).arrayBuffer();
        listeningAt ??= started;
        latencies.push(performance.now() - started);
      } catch (error) {
        if (listeningAt !== null && (error as Error).name === "TimeoutError") latencies.push(null);
      }
      await sleep(Math.max(0, PROBE_INTERVAL_MS - (performance.now() - started)));
    }
  })();
  const deadline = Date.now() + 600_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`next start exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${ORIGIN}/readyz`)).ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error("the server did not become ready within 10 minutes");
    await sleep(200);
  }
  const readyAt = performance.now();
  ready = true;
  await liveness;
  const answered = latencies.filter((x): x is number => x !== null);
  return {
    server,
    startUp: {
      listening_after_ms: round((listeningAt ?? readyAt) - spawned),
      ready_after_ms: round(readyAt - spawned),
      healthz: {
        probes: latencies.length,
        p50_ms: percentile(answered, 50),
        p99_ms: percentile(answered, 99),
        max_ms: round(Math.max(...answered)),
        timeouts: latencies.length - answered.length,
      },
    },
  };
}

async function stopServer(server: ChildProcess) {
  const exited = new Promise((resolve) => server.once("exit", resolve));
  server.kill("SIGTERM");
  await exited;
}

// ---- one load level ---------------------------------------------------------------------------------

type TLevel = {
  bound: number;
  clients: number;
  seconds: number;
  turns: number;
  turns_per_s: number;
  turn_p50_ms: number;
  turn_p99_ms: number;
  shed: number;
  shed_share: number;
  other_errors: number;
  healthz: TProbeFigures;
  readyz: TProbeFigures;
  loop_lag: TLoopLag;
  /** Client 0's 1st and 10th turn: at the first level, the first turn after /readyz said ready. */
  first_turn_ms: number;
  tenth_turn_ms: number;
  cpu_ms_per_turn: number;
  loadavg: [number, number, number];
};

type TProbeFigures = { probes: number; p50_ms: number; p99_ms: number; max_ms: number; timeouts: number };
type TLoopLag = { windows: number; p50_ms: number; p99_ms: number; max_ms: number };

/**
 * The server's event-loop delay between `from` and `to` (epoch ms): the median window's p50, the
 * worst window's p99 and max, read from the busiest process (the one serving requests).
 */
function loopLag(from: number, to: number): TLoopLag {
  const lines = existsSync(LOOP_LAG_FILE) ? readFileSync(LOOP_LAG_FILE, "utf8").trim().split("\n") : [];
  const byPid = new Map<number, { p50: number; p99: number; max: number }[]>();
  for (const line of lines) {
    const w = JSON.parse(line) as { pid: number; at: number; p50: number; p99: number; max: number };
    if (w.at <= from || w.at > to + 1000) continue;
    byPid.set(w.pid, [...(byPid.get(w.pid) ?? []), w]);
  }
  const windows =
    [...byPid.values()].sort((a, b) => Math.max(...b.map((w) => w.p99)) - Math.max(...a.map((w) => w.p99)))[0] ?? [];
  return {
    windows: windows.length,
    p50_ms: percentile(
      windows.map((w) => w.p50),
      50,
    ),
    p99_ms: round(Math.max(...windows.map((w) => w.p99))),
    max_ms: round(Math.max(...windows.map((w) => w.max))),
  };
}

/**
 * A separate process probing `url` every PROBE_INTERVAL_MS for the level: `probing` once its first
 * probe answered (a starting Node process takes the CPU a turn would get: the level's clients
 * wait for it, or the first turn measures the probers' start), `figures` at the end.
 */
function startProber(url: string): { probing: Promise<void>; figures: Promise<TProbeFigures> } {
  const prober = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      path.join(ROOT, "bench/lib/health-prober.ts"),
      url,
      String(SECONDS * 1000),
      String(PROBE_INTERVAL_MS),
    ],
    { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] },
  );
  let out = "";
  let started: () => void = () => {};
  const probing = new Promise<void>((resolve) => {
    started = resolve;
  });
  prober.stdout?.on("data", (chunk: Buffer) => {
    out += chunk.toString();
    if (out.includes("\n")) started();
  });
  const figures = new Promise((resolve) => prober.once("exit", resolve)).then(() => {
    started();
    const probes = JSON.parse(out.slice(out.indexOf("\n") + 1)) as { latencies: (number | null)[] };
    const answered = probes.latencies.filter((x): x is number => x !== null);
    return {
      probes: probes.latencies.length,
      p50_ms: percentile(answered, 50),
      p99_ms: percentile(answered, 99),
      max_ms: round(Math.max(...answered)),
      timeouts: probes.latencies.length - answered.length,
    };
  });
  return { probing, figures };
}

let seq = 0;
async function level(server: ChildProcess, bound: number, clients: number, cookies: string[]): Promise<TLevel> {
  const probers = ["healthz", "readyz"].map((probe) => startProber(`${ORIGIN}/${probe}`));
  await Promise.all(probers.map((p) => p.probing));
  const cpuBefore = treeCpuMs(server.pid as number);
  const startedAt = Date.now();
  const until = performance.now() + SECONDS * 1000;
  const latencies: number[] = [];
  let shed = 0;
  let otherErrors = 0;
  const clientZero: number[] = [];
  await Promise.all(
    cookies.slice(0, clients).map(async (cookie, c) => {
      let threadId: string | undefined;
      for (let n = 0; performance.now() < until; n++) {
        const started = performance.now();
        const res = await fetch(`${ORIGIN}/chat/respond`, {
          method: "POST",
          headers: { "content-type": "application/json", cookie, origin: ORIGIN },
          body: JSON.stringify({
            request_id: `load-${bound}-${clients}-${c}-${++seq}`,
            message: chatMessage(c, n),
            ...(threadId ? { thread_id: threadId } : {}),
          }),
        });
        const body = (await res.json()) as { thread_id?: string };
        if (res.status === 200) {
          latencies.push(performance.now() - started);
          if (c === 0) clientZero.push(performance.now() - started);
          threadId ??= body.thread_id;
        } else if (res.status === 503) {
          shed++;
          await sleep(Number(res.headers.get("retry-after") ?? "1") * 1000);
        } else {
          otherErrors++;
          if (otherErrors <= 3) console.error(`turn: ${res.status} ${JSON.stringify(body)}`);
        }
      }
    }),
  );
  const cpu = treeCpuMs(server.pid as number) - cpuBefore;
  const lag = loopLag(startedAt, Date.now());
  const [healthz, readyz] = await Promise.all(probers.map((p) => p.figures));
  const turns = latencies.length;
  return {
    bound,
    clients,
    seconds: SECONDS,
    turns,
    turns_per_s: round(turns / SECONDS),
    turn_p50_ms: percentile(latencies, 50),
    turn_p99_ms: percentile(latencies, 99),
    shed,
    shed_share: round(shed / Math.max(1, shed + turns + otherErrors), 3),
    other_errors: otherErrors,
    healthz: healthz as TProbeFigures,
    readyz: readyz as TProbeFigures,
    loop_lag: lag,
    first_turn_ms: round(clientZero[0] ?? Number.NaN),
    tenth_turn_ms: round(clientZero[9] ?? Number.NaN),
    cpu_ms_per_turn: round(cpu / Math.max(1, turns), 2),
    loadavg: loadavg(),
  };
}

/** CPU and latency of the review queue's first page as a Jam editor, one call at a time. */
async function queuePage(server: ChildProcess, cookie: string) {
  const call = () => fetch(`${ORIGIN}/umbra/proposals?status=pending`, { headers: { cookie } });
  const first = (await (await call()).json()) as { items?: unknown[]; counts?: unknown };
  for (let i = 0; i < 10; i++) await (await call()).arrayBuffer(); // warm-up
  const latencies: number[] = [];
  const cpuBefore = treeCpuMs(server.pid as number);
  for (let i = 0; i < QUEUE_PAGES; i++) {
    const started = performance.now();
    const res = await call();
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`GET /umbra/proposals: ${res.status}`);
    latencies.push(performance.now() - started);
  }
  const cpu = treeCpuMs(server.pid as number) - cpuBefore;
  return {
    calls: QUEUE_PAGES,
    page_items: first.items?.length ?? null,
    counts: first.counts ?? null,
    p50_ms: percentile(latencies, 50),
    p99_ms: percentile(latencies, 99),
    cpu_ms_per_call: round(cpu / QUEUE_PAGES, 2),
    loadavg: loadavg(),
  };
}

// ---- run ------------------------------------------------------------------------------------------
const runs: {
  bound: number;
  start_up: TStartUp;
  levels: TLevel[];
  queue_page: Awaited<ReturnType<typeof queuePage>>;
}[] = [];
const startedAt = new Date().toISOString();
const loadBefore = loadavg();
try {
  for (const bound of BOUNDS) {
    const { server, startUp } = await startServer(bound);
    const h = startUp.healthz;
    console.log(
      `bound ${bound}: listening after ${startUp.listening_after_ms} ms, ready after ${startUp.ready_after_ms} ms; healthz meanwhile p50 ${h.p50_ms} / p99 ${h.p99_ms} / max ${h.max_ms} ms (${h.probes} probes, ${h.timeouts} timeouts)`,
    );
    try {
      const cookies: string[] = [];
      for (let i = 0; i < maxClients; i++) cookies.push(await signInCookie(ORIGIN, ORIGIN, userEmail(i), PASSWORD));
      const jamCookie = await signInCookie(ORIGIN, ORIGIN, JAM_EMAIL, PASSWORD);
      const levels: TLevel[] = [];
      for (const clients of CLIENTS) {
        const result = await level(server, bound, clients, cookies);
        levels.push(result);
        const h = result.healthz;
        console.log(
          `bound ${String(bound).padStart(2)} clients ${String(clients).padStart(2)}: ${String(result.turns_per_s).padStart(6)} turns/s  p50 ${result.turn_p50_ms} / p99 ${result.turn_p99_ms} ms  503 ${(100 * result.shed_share).toFixed(1)}%  healthz p50 ${h.p50_ms} / p99 ${h.p99_ms} / max ${h.max_ms} ms (${h.timeouts} timeouts)  readyz p50 ${result.readyz.p50_ms} / p99 ${result.readyz.p99_ms} ms (${result.readyz.timeouts} timeouts)  loop lag p50 ${result.loop_lag.p50_ms} / p99 ${result.loop_lag.p99_ms} / max ${result.loop_lag.max_ms} ms  1st / 10th turn ${result.first_turn_ms} / ${result.tenth_turn_ms} ms  cpu ${result.cpu_ms_per_turn} ms/turn  load ${result.loadavg.join(" ")}`,
        );
      }
      const queue = await queuePage(server, jamCookie);
      console.log(
        `bound ${bound}: queue page p50 ${queue.p50_ms} / p99 ${queue.p99_ms} ms, cpu ${queue.cpu_ms_per_call} ms/call  load ${queue.loadavg.join(" ")}`,
      );
      runs.push({ bound, start_up: startUp, levels, queue_page: queue });
    } finally {
      await stopServer(server);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
  if (POSTGRES) await dropDatabase(POSTGRES_ADMIN, PG_DATABASE);
}

const out = resultsPath(`load${POSTGRES ? "-postgres" : ""}.json`);
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(
  out,
  `${JSON.stringify(
    {
      benchmark: "load",
      started_at: startedAt,
      machine: {
        cpus: os.cpus().length,
        cpu_model: os.cpus()[0]?.model ?? null,
        memory_gb: round(os.totalmem() / 2 ** 30),
        node: process.version,
        loadavg_before: loadBefore,
      },
      database: values.database,
      data: `demo data (pnpm db:seed)${EXTRA_CFBS > 0 ? ` and ${EXTRA_CFBS} realistic CFBs` : ""} plus one account per client; offline model; each client on its own thread`,
      settings: {
        seconds_per_level: SECONDS,
        queue: Number(values.queue),
        max_queue_wait_ms: Number(values["wait-ms"]),
        healthz_probe_interval_ms: PROBE_INTERVAL_MS,
      },
      runs,
    },
    null,
    2,
  )}\n`,
);
console.log(`wrote ${path.relative(ROOT, out)}`);
