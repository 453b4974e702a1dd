// Benchmark: chat turns per second of the production build (`next start`) on SQLite with one web
// process against PostgreSQL with 1, 2 and 4 web processes, on the same machine in the same run.
// Each configuration gets a fresh database (a temp SQLite file; a new PostgreSQL database created
// and migrated by migrateDatabase, dropped afterwards) with the demo data (`pnpm db:seed`) and one
// real account per client, the offline model, and per-account limits raised so that rate limiting
// stays out of the figures. N processes run on consecutive ports on the same DATABASE_URL, each
// with a pool of SOLSERVER_DB_POOL connections; the clients (signed in over HTTP) are spread over
// them round-robin, as a proxy would, and send chat turns (POST /chat/respond) one after another
// on their own thread, after an unmeasured warm-up (first turn, candidate index, JIT). A shed
// client (503) waits its Retry-After, as the API asks (cut at the end of the window).
// Reported per configuration: turns/s, p50/p99 of answered turns, 503 and error shares, and the
// CPU (user + system, from /proc) of the web processes, of the PostgreSQL backends on the bench's
// database and of all postgres processes, of this client process and of the whole machine.
// The figures are only comparable within one run on a quiet machine: the load average is kept.
// Run: `pnpm bench:throughput` after `pnpm --filter @solserver/web build` (--seconds N,
// --clients N, --processes 1,2,4, --port N, --postgres <admin url>, --pool N, --warmup N,
// --bound N). Writes bench/results/throughput.json.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
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
import {
  killAllServersNow,
  requireWebBuild,
  sourcesNewerThanBuild,
  startNextServer,
  stopAllServers,
} from "./lib/next-servers";
import { createMigratedDatabase, DEFAULT_POSTGRES_ADMIN_URL, dropDatabase, serverSettings } from "./lib/postgres-admin";
import { machineCpuMs, postgresCpuMs, treesCpuMs } from "./lib/proc-cpu";
import { resultsPath } from "./lib/results-file";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "15" },
    clients: { type: "string", default: "16" },
    processes: { type: "string", default: "1,2,4" },
    port: { type: "string", default: "3940" },
    postgres: { type: "string" },
    pool: { type: "string", default: "10" },
    warmup: { type: "string", default: "3" },
    bound: { type: "string" },
  },
});

function wholeNumber(name: string, raw: string, min: number): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min)
    throw new Error(`--${name} must be a whole number of at least ${min}, got "${raw}"`);
  return n;
}
const SECONDS = wholeNumber("seconds", values.seconds, 1);
const CLIENTS = wholeNumber("clients", values.clients, 1);
const PROCESSES = values.processes.split(",").map((v) => wholeNumber("processes", v.trim(), 1));
const PORT = wholeNumber("port", values.port, 1);
const POOL = wholeNumber("pool", values.pool, 1);
const WARMUP = wholeNumber("warmup", values.warmup, 0);
const BOUND = values.bound === undefined ? undefined : wholeNumber("bound", values.bound, 0);
const ADMIN_URL =
  values.postgres ??
  process.env.SOLSERVER_TEST_POSTGRES_URL ??
  process.env.SOLSERVER_POSTGRES_ADMIN_URL ??
  DEFAULT_POSTGRES_ADMIN_URL;
/** The public origin: all processes share it, as they would behind one proxy. */
const ORIGIN = `http://127.0.0.1:${PORT}`;
const ROOT = path.resolve(import.meta.dirname, "..");
const REQUEST_TIMEOUT_MS = 30_000;
const PASSWORD = "throughput-bench-password";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;
function percentile(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number);
}
const loadavg = () => os.loadavg().map((x) => round(x, 2)) as [number, number, number];

requireWebBuild();
const staleSources = sourcesNewerThanBuild();
if (staleSources.length > 0)
  console.warn(
    `warning: ${staleSources.length} source files changed since the build (${staleSources.slice(0, 3).join(", ")}${staleSources.length > 3 ? ", ..." : ""}): ` +
      "the servers run the build; rebuild with `pnpm --filter @solserver/web build` to measure the sources",
  );

// ---- cleanup on every way out ----------------------------------------------------------------------
const dir = mkdtempSync(path.join(os.tmpdir(), "solserver-throughput-"));
const liveDatabases = new Set<string>();
let cleaning: Promise<void> | undefined;
function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    await stopAllServers();
    for (const name of liveDatabases) {
      try {
        await dropDatabase(ADMIN_URL, name);
        liveDatabases.delete(name);
      } catch (error) {
        console.error(`could not drop database ${name}: ${(error as Error).message}`);
      }
    }
    rmSync(dir, { recursive: true, force: true });
  })();
  return cleaning;
}
/** Set by Ctrl-C / SIGTERM: the clients stop and no further step starts. */
let interrupted = false;
function stopIfInterrupted() {
  if (interrupted) throw new Error("interrupted");
}
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  // `on`, not `once`: tsx relays a signal the script got from the terminal a second time, and
  // its hidden handler exits the process when no listener of the script's is left.
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    console.error(`\n${signal}: stopping the servers and dropping the bench databases`);
    void cleanup().finally(() => process.exit(130));
  });
}
process.once("exit", killAllServersNow);

// ---- one configuration's database, accounts and servers -------------------------------------------
type TConfig = { database: "sqlite" | "postgresql"; processes: number };

const userEmail = (i: number) => `throughput-${i}@bench.test`;

function serverEnv(databaseUrl: string): Record<string, string> {
  return {
    ...(process.env as Record<string, string>),
    DATABASE_URL: databaseUrl,
    BETTER_AUTH_SECRET: "throughput-bench-secret-throughput-0123",
    SOLSERVER_BASE_URL: ORIGIN,
    SOLSERVER_MODEL: "offline",
    SOLSERVER_CHAT_TURNS_PER_MINUTE: "1000000",
    SOLSERVER_READS_PER_MINUTE: "1000000",
    SOLSERVER_SCHEDULER_INTERVAL_MS: "0",
    SOLSERVER_OFFLINE_STREAM_DELAY_MS: "0",
    SOLSERVER_DB_POOL: String(POOL),
    ...(BOUND === undefined ? {} : { SOLSERVER_MAX_CONCURRENT_REQUESTS: String(BOUND) }),
    NEXT_TELEMETRY_DISABLED: "1",
  };
}

/** The demo data and one account per client, as bench/load.ts seeds them. */
async function seed(env: Record<string, string>) {
  // (without the sentence model: see bench/load.ts)
  const server = loadServerEnv({ ...env, SOLSERVER_EMBEDDINGS: "off" });
  const { deps, repos, auth, db } = await openControlPlaneFromEnv(server);
  try {
    if (!auth) throw new Error("auth is not configured");
    const { user } = await ensureFirstRunAccounts(repos, (u) => createPasswordAccount(auth, u), {});
    await seedDemo(deps, user);
    for (let i = 0; i < CLIENTS; i++) {
      await createPasswordAccount(auth, {
        email: userEmail(i),
        name: `throughput ${i}`,
        password: PASSWORD,
        role: "user",
      });
    }
  } finally {
    await db.$disconnect();
  }
}

// ---- the clients -------------------------------------------------------------------------------------

type TClient = { origin: string; process: number; cookie: string; threadId?: string; sent: number };
type TTally = { latencies: number[]; byProcess: number[]; shed: number; errors: number };

let seq = 0;
/** Every client sends turns one after another until `until` (performance.now()); the tally. */
async function drive(clients: TClient[], processes: number, until: number): Promise<TTally> {
  const tally: TTally = { latencies: [], byProcess: Array(processes).fill(0), shed: 0, errors: 0 };
  const errorLines: string[] = [];
  await Promise.all(
    clients.map(async (client, c) => {
      while (!interrupted && performance.now() < until) {
        const started = performance.now();
        try {
          const res = await fetch(`${client.origin}/chat/respond`, {
            method: "POST",
            headers: { "content-type": "application/json", cookie: client.cookie, origin: ORIGIN },
            body: JSON.stringify({
              request_id: `throughput-${process.pid}-${++seq}`,
              message: chatMessage(c, client.sent++),
              ...(client.threadId ? { thread_id: client.threadId } : {}),
            }),
            signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
          });
          const text = await res.text();
          if (res.status === 200) {
            tally.latencies.push(performance.now() - started);
            tally.byProcess[client.process] = (tally.byProcess[client.process] ?? 0) + 1;
            client.threadId ??= (JSON.parse(text) as { thread_id?: string }).thread_id;
          } else if (res.status === 503) {
            tally.shed++;
            const wait = Number(res.headers.get("retry-after") ?? "1") * 1000;
            await sleep(Math.min(wait, Math.max(0, until - performance.now())));
          } else {
            tally.errors++;
            if (errorLines.length < 3) errorLines.push(`${res.status} ${text.slice(0, 200)}`);
          }
        } catch (error) {
          tally.errors++;
          if (errorLines.length < 3) errorLines.push((error as Error).message);
        }
      }
    }),
  );
  for (const line of errorLines) console.error(`  turn failed: ${line}`);
  return tally;
}

// ---- one configuration --------------------------------------------------------------------------------
type TRun = {
  database: "sqlite" | "postgresql";
  processes: number;
  db_pool_per_process: number | null;
  clients: number;
  seconds: number;
  turns: number;
  turns_per_s: number;
  turn_p50_ms: number | null;
  turn_p99_ms: number | null;
  turns_by_process: number[];
  shed: number;
  shed_share: number;
  errors: number;
  error_share: number;
  /** CPU over the window in cores (CPU seconds per second) and in ms per answered turn. */
  cpu: {
    web_cores: number;
    web_ms_per_turn: number | null;
    postgres_bench_db_cores: number | null;
    postgres_bench_db_ms_per_turn: number | null;
    postgres_all_cores: number;
    bench_client_cores: number;
    machine_busy_cores: number;
    /** Busy CPU not accounted above: the rest of the machine (other users' work). */
    other_cores: number;
  };
  setup_s: number;
  loadavg_before: [number, number, number];
  loadavg_after: [number, number, number];
};

let dbSeq = 0;
async function runConfig(config: TConfig): Promise<TRun> {
  stopIfInterrupted();
  const setupStarted = performance.now();
  let databaseUrl: string;
  let dbName: string | null = null;
  if (config.database === "sqlite") {
    databaseUrl = `file:${path.join(dir, `throughput-${++dbSeq}.db`)}`;
    await migrateDatabase(databaseUrl);
  } else {
    dbName = `solserver_bench_throughput_${process.pid}_${++dbSeq}`;
    liveDatabases.add(dbName);
    databaseUrl = await createMigratedDatabase(ADMIN_URL, dbName);
  }
  try {
    const env = serverEnv(databaseUrl);
    await seed(env);
    stopIfInterrupted();
    const ports = Array.from({ length: config.processes }, (_, i) => PORT + i);
    const servers = await Promise.all(ports.map((port) => startNextServer(port, env)));
    stopIfInterrupted();
    const pids = servers.map((s) => s.pid as number);
    const clients: TClient[] = [];
    for (let i = 0; i < CLIENTS; i++) {
      const at = i % config.processes;
      const origin = `http://127.0.0.1:${ports[at]}`;
      clients.push({
        origin,
        process: at,
        cookie: await signInCookie(origin, ORIGIN, userEmail(i), PASSWORD, REQUEST_TIMEOUT_MS),
        sent: 0,
      });
    }
    if (WARMUP > 0) await drive(clients, config.processes, performance.now() + WARMUP * 1000);
    const setupS = (performance.now() - setupStarted) / 1000;

    const loadBefore = loadavg();
    const web0 = treesCpuMs(pids);
    const pg0 = postgresCpuMs(dbName);
    const machine0 = machineCpuMs();
    const client0 = process.cpuUsage();
    const started = performance.now();
    const tally = await drive(clients, config.processes, started + SECONDS * 1000);
    const elapsedMs = performance.now() - started;
    const clientUs = process.cpuUsage(client0);
    const machine1 = machineCpuMs();
    const pg1 = postgresCpuMs(dbName);
    const web1 = treesCpuMs(pids);

    const turns = tally.latencies.length;
    const attempts = Math.max(1, turns + tally.shed + tally.errors);
    const cores = (ms: number) => round(ms / elapsedMs, 2);
    const perTurn = (ms: number) => (turns ? round(ms / turns, 2) : null);
    const webMs = web1 - web0;
    const pgDbMs = pg1.databaseMs - pg0.databaseMs;
    const pgAllMs = pg1.allMs - pg0.allMs;
    const clientMs = (clientUs.user + clientUs.system) / 1000;
    const busyMs = machine1.busyMs - machine0.busyMs;
    return {
      database: config.database,
      processes: config.processes,
      db_pool_per_process: config.database === "postgresql" ? POOL : null,
      clients: CLIENTS,
      seconds: round(elapsedMs / 1000, 2),
      turns,
      turns_per_s: round(turns / (elapsedMs / 1000)),
      turn_p50_ms: percentile(tally.latencies, 50),
      turn_p99_ms: percentile(tally.latencies, 99),
      turns_by_process: tally.byProcess,
      shed: tally.shed,
      shed_share: round(tally.shed / attempts, 3),
      errors: tally.errors,
      error_share: round(tally.errors / attempts, 3),
      cpu: {
        web_cores: cores(webMs),
        web_ms_per_turn: perTurn(webMs),
        postgres_bench_db_cores: dbName ? cores(pgDbMs) : null,
        postgres_bench_db_ms_per_turn: dbName ? perTurn(pgDbMs) : null,
        postgres_all_cores: cores(pgAllMs),
        bench_client_cores: cores(clientMs),
        machine_busy_cores: cores(busyMs),
        other_cores: cores(Math.max(0, busyMs - webMs - pgAllMs - clientMs)),
      },
      setup_s: round(setupS),
      loadavg_before: loadBefore,
      loadavg_after: loadavg(),
    };
  } finally {
    await stopAllServers();
    if (dbName) {
      await dropDatabase(ADMIN_URL, dbName);
      liveDatabases.delete(dbName);
    }
  }
}

// ---- output --------------------------------------------------------------------------------------------
const label = (r: TRun) => `${r.database === "sqlite" ? "SQLite" : "PostgreSQL"} × ${r.processes}`;
const fmt = (x: number | null) => (x === null ? "-" : String(x));
const pct = (x: number) => `${(100 * x).toFixed(1)} %`;

function table(runs: TRun[]): string {
  const head = [
    "configuration",
    "turns/s",
    "p50 ms",
    "p99 ms",
    "503s",
    "errors",
    "web CPU (cores, ms/turn)",
    "pg bench db (cores, ms/turn)",
    "pg all",
    "client",
    "machine busy",
    "other",
    "load 1 min",
  ];
  const rows = runs.map((r) => [
    label(r),
    String(r.turns_per_s),
    fmt(r.turn_p50_ms),
    fmt(r.turn_p99_ms),
    pct(r.shed_share),
    pct(r.error_share),
    `${r.cpu.web_cores}, ${fmt(r.cpu.web_ms_per_turn)}`,
    r.cpu.postgres_bench_db_cores === null
      ? "-"
      : `${r.cpu.postgres_bench_db_cores}, ${fmt(r.cpu.postgres_bench_db_ms_per_turn)}`,
    String(r.cpu.postgres_all_cores),
    String(r.cpu.bench_client_cores),
    String(r.cpu.machine_busy_cores),
    String(r.cpu.other_cores),
    `${r.loadavg_before[0]} → ${r.loadavg_after[0]}`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] as string).length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join("  ");
  return [line(head), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

// ---- run --------------------------------------------------------------------------------------------------
const CPUS = os.cpus().length;
const configs: TConfig[] = [
  { database: "sqlite", processes: 1 },
  ...PROCESSES.map((processes) => ({ database: "postgresql" as const, processes })),
];
const startedAt = new Date().toISOString();
const loadBefore = loadavg();
const shedding = loadServerEnv(serverEnv("file:./unused.db")).loadShedding;
const pgSettings = await serverSettings(ADMIN_URL).catch((error: Error) => {
  throw new Error(`cannot reach the PostgreSQL server at ${ADMIN_URL} (--postgres <admin url>): ${error.message}`);
});
console.log(
  `${CPUS} CPU cores, load average ${loadBefore.join(" / ")}; ${CLIENTS} clients, ${SECONDS} s per configuration after ${WARMUP} s warm-up; ` +
    `PostgreSQL ${pgSettings.server_version} (fsync=${pgSettings.fsync}) pool ${POOL} per process; ` +
    `requests at work per process ${shedding.concurrency || "unbounded"}${BOUND === undefined ? " (the offline default)" : ""}, queue ${shedding.queue}`,
);
if (CPUS <= 2 && Math.max(...PROCESSES) > CPUS)
  console.log(
    `note: ${CPUS} cores for the web processes, PostgreSQL and the clients together: more processes cannot add CPU`,
  );

const runs: TRun[] = [];
try {
  for (const config of configs) {
    const run = await runConfig(config);
    runs.push(run);
    console.log(
      `${label(run)}: ${run.turns_per_s} turns/s  p50 ${fmt(run.turn_p50_ms)} / p99 ${fmt(run.turn_p99_ms)} ms  ` +
        `503 ${pct(run.shed_share)}  errors ${pct(run.error_share)}  web ${run.cpu.web_cores} cores  ` +
        `pg ${fmt(run.cpu.postgres_bench_db_cores)} cores  machine ${run.cpu.machine_busy_cores} of ${CPUS}  ` +
        `load ${run.loadavg_after.join(" ")}  (setup ${run.setup_s} s)`,
    );
  }
} finally {
  await cleanup();
}

console.log(`\n${table(runs)}\n`);
console.log(
  `cores = CPU seconds per second of the window (${CPUS} available); ms/turn = CPU per answered turn. ` +
    `"pg bench db" = the backends on the configuration's database; "pg all" = every postgres process ` +
    `(shared background work, other databases); "other" = machine busy time not accounted for (others' work).`,
);

let commit: string | null = null;
try {
  commit = execFileSync("git", ["rev-parse", "HEAD"], { cwd: ROOT }).toString().trim();
} catch {
  // Not a git checkout.
}
const out = resultsPath("throughput.json");
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(
  out,
  `${JSON.stringify(
    {
      benchmark: "throughput",
      started_at: startedAt,
      commit,
      sources_newer_than_build: staleSources.length,
      machine: {
        cpus: CPUS,
        cpu_model: os.cpus()[0]?.model ?? null,
        memory_gb: round(os.totalmem() / 2 ** 30),
        node: process.version,
        loadavg_before: loadBefore,
        loadavg_after: loadavg(),
        note: `${CPUS} cores shared by the web processes, PostgreSQL and the bench clients: more web processes cannot add CPU, they can only overlap one process's waits on the database with another's work`,
      },
      postgres: { ...pgSettings, pool_per_process: POOL },
      data: "demo data (pnpm db:seed) plus one account per client; offline model; each client on its own thread; a fresh database per configuration",
      settings: {
        seconds_per_configuration: SECONDS,
        warmup_seconds: WARMUP,
        clients: CLIENTS,
        clients_spread: "round-robin over the processes",
        max_concurrent_requests_per_process: shedding.concurrency,
        max_concurrent_requests_source: BOUND === undefined ? "default for the offline model" : "--bound",
        max_queued_requests: shedding.queue,
        max_queue_wait_ms: shedding.maxWaitMs,
        sqlite: "WAL, synchronous=NORMAL (better-sqlite3's default): no fsync per commit",
      },
      runs,
    },
    null,
    2,
  )}\n`,
);
console.log(`wrote ${path.relative(ROOT, out)}`);
process.exit(0);
