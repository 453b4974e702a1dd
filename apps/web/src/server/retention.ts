import { startRetentionTimer } from "@solserver/control-plane";
import { getServer } from "./control-plane";

// The web server's own pruning (retention, docs/operations.md), started once per process by
// instrumentation.ts next to the workflow scheduler: a first prune a minute after start, then
// every SOLSERVER_PRUNE_INTERVAL_HOURS (0: off, for deployments that run `pnpm db:prune` from cron).

const holder = globalThis as unknown as { solserverRetention?: { stop: () => void } };

const FIRST_PRUNE_AFTER_MS = 60_000;

export function startWebRetention(intervalHours: number, retention: { traceDays: number; gateDays: number }): void {
  if (holder.solserverRetention) return;
  if (intervalHours <= 0 || (retention.traceDays === 0 && retention.gateDays === 0)) {
    console.log(
      intervalHours <= 0
        ? "retention: the server does not prune (SOLSERVER_PRUNE_INTERVAL_HOURS=0); run `pnpm db:prune` from cron instead"
        : "retention: traces and gate decisions are kept forever (retention 0 days)",
    );
    return;
  }
  holder.solserverRetention = startRetentionTimer({
    deps: async () => (await getServer()).deps,
    intervalMs: intervalHours * 3_600_000,
    firstDelayMs: FIRST_PRUNE_AFTER_MS,
    log: (line) => console.log(line),
    error: (line) => console.error(line),
  });
  console.log(
    `retention: pruning every ${intervalHours} h (traces ${retention.traceDays} days, gate decisions ${retention.gateDays} days)`,
  );
}
