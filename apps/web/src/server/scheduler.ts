import { startScheduler, tickSchedules } from "@solserver/control-plane";
import { getServer } from "./control-plane";

// The web server's own timer for workflow schedules (the Umbra beat), started once per process by
// instrumentation.ts. Kept on globalThis so dev-mode reloads do not start a second timer; another
// server process on the same database is fine: each occurrence is claimed atomically.

const holder = globalThis as unknown as { solserverScheduler?: { stop: () => void } };

export function startWebScheduler(intervalMs: number): void {
  if (holder.solserverScheduler) return;
  if (intervalMs <= 0) {
    console.log("scheduler: off (SOLSERVER_SCHEDULER_INTERVAL_MS=0); run `pnpm workflow tick` from cron instead");
    return;
  }
  holder.solserverScheduler = startScheduler({
    intervalMs,
    tick: async () => tickSchedules((await getServer()).deps),
    log: (line) => console.log(line),
    error: (line) => console.error(line),
  });
  console.log(`scheduler: ticking workflow schedules every ${Math.round(intervalMs / 1000)} s`);
}
