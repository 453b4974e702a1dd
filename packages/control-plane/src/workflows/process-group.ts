import { readdir, readFile } from "node:fs/promises";
import { performance } from "node:perf_hooks";

// A command's process group (command-step.ts): signalled as a whole, and watched until none of
// its processes runs, so that a step's processes end with the step.

// Process groups still running, killed outright if this process exits while a command runs.
export const liveGroups = new Set<number>();
let exitHookInstalled = false;
export function trackGroup(pid: number) {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on("exit", () => {
      for (const group of liveGroups) signalGroup(group, "SIGKILL");
    });
  }
  liveGroups.add(pid);
}

/** Signals the whole group (negative pid); false when no process of it is left. */
export function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(process.platform === "win32" ? pid : -pid, signal);
    return true;
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Whether a process of the group still runs. kill(-pid, 0) also answers for zombies (dead
 * processes their new parent has not reaped yet), so on Linux /proc says which ones still run.
 */
export async function groupRuns(pid: number): Promise<boolean> {
  if (!signalGroup(pid, 0)) return false;
  if (process.platform !== "linux") return true;
  const entries = await readdir("/proc").catch(() => null);
  if (!entries) return true;
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, "utf8").catch(() => "");
    // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so split after the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) === pid && fields[0] !== "Z" && fields[0] !== "X") return true;
  }
  return false;
}

/** Waits until no process of the group runs, sending SIGKILL when `withinMs` runs out. */
export async function groupGone(pid: number, withinMs: number): Promise<void> {
  const deadline = performance.now() + withinMs;
  while (await groupRuns(pid)) {
    if (performance.now() >= deadline) {
      signalGroup(pid, "SIGKILL");
      return;
    }
    await sleep(25);
  }
}
