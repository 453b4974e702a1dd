// CPU accounting from /proc (Linux) for the benchmarks that run servers beside them: the CPU time
// of process trees (a `next start` and whatever it forks), of the PostgreSQL server's processes,
// and of the whole machine. bench/load.ts carries its own copy of `treeCpuMs` and could use this.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

const CLK_TCK = Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;
const ticksToMs = (ticks: number) => (ticks * 1000) / CLK_TCK;

type TProc = {
  pid: number;
  comm: string;
  ppid: number;
  /** utime + stime of the process itself. */
  ticks: number;
  /** cutime + cstime: the time of children it has waited for (ended ones). */
  childTicks: number;
};

/** Every process of the machine, as /proc shows it now. */
function readProcs(): Map<number, TProc> {
  const procs = new Map<number, TProc>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const open = stat.indexOf("(");
      const close = stat.lastIndexOf(")");
      // Fields after the command name (which may hold spaces): state(3) ppid(4) ... utime(14)
      // stime(15) cutime(16) cstime(17).
      const rest = stat.slice(close + 2).split(" ");
      procs.set(Number(entry), {
        pid: Number(entry),
        comm: stat.slice(open + 1, close),
        ppid: Number(rest[1]),
        ticks: Number(rest[11]) + Number(rest[12]),
        childTicks: Number(rest[13]) + Number(rest[14]),
      });
    } catch {
      // The process ended while we looked.
    }
  }
  return procs;
}

/** CPU time (user + system, ms) of each of `pids` and every live process below it, summed. */
export function treesCpuMs(pids: readonly number[]): number {
  const procs = readProcs();
  const roots = new Set(pids);
  let ticks = 0;
  for (const p of procs.values()) {
    for (let at: number | undefined = p.pid; at !== undefined && at > 1; at = procs.get(at)?.ppid) {
      if (roots.has(at)) {
        ticks += p.ticks;
        break;
      }
    }
  }
  return ticksToMs(ticks);
}

export type TPostgresCpu = {
  /** Backends (and autovacuum workers) whose title names `database`: the bench's own queries. */
  databaseMs: number;
  /**
   * Every `postgres` process: the above, the shared background processes (WAL writer,
   * checkpointer, ...) and other databases' backends, plus ended backends through the
   * postmaster's waited-for children time.
   */
  allMs: number;
  processes: number;
};

/** CPU time (ms) of the local PostgreSQL server's processes, split out for `database`. */
export function postgresCpuMs(database: string | null): TPostgresCpu {
  const procs = readProcs();
  let databaseTicks = 0;
  let allTicks = 0;
  let processes = 0;
  for (const p of procs.values()) {
    if (p.comm !== "postgres") continue;
    processes++;
    allTicks += p.ticks;
    // The postmaster (its parent is not a postgres process) reaps ended backends.
    if (procs.get(p.ppid)?.comm !== "postgres") allTicks += p.childTicks;
    if (database === null) continue;
    try {
      // A backend's title: "postgres: <user> <database> <host>(<port>) <state>".
      const words = readFileSync(`/proc/${p.pid}/cmdline`, "utf8").replaceAll("\0", " ").split(/\s+/);
      if (words.includes(database)) databaseTicks += p.ticks;
    } catch {
      // Ended while we looked.
    }
  }
  return { databaseMs: ticksToMs(databaseTicks), allMs: ticksToMs(allTicks), processes };
}

/** Busy and total CPU time (ms, all cores) of the machine since boot, from /proc/stat. */
export function machineCpuMs(): { busyMs: number; totalMs: number } {
  const line = readFileSync("/proc/stat", "utf8").split("\n")[0] as string;
  // cpu user nice system idle iowait irq softirq steal guest guest_nice (guest is inside user).
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
  const busy = (user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0);
  return { busyMs: ticksToMs(busy), totalMs: ticksToMs(busy + (idle ?? 0) + (iowait ?? 0)) };
}
