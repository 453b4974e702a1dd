import { openControlPlaneFromEnv } from "../control-plane";
import { loadServerEnv } from "../env";
import { tickSchedules } from "../services/schedules";
import type { TCliIo } from "./cli";
import { tickLines } from "./tick-lines";

// `pnpm workflow tick`: one tick of the workflow schedules, for deployments that prefer cron to the
// schedules-tick job (SOLSERVER_SCHEDULER_INTERVAL_MS=0). Both can run at once: the schedule's
// atomic claim lets exactly one of them start an occurrence.

/** Ticks once and prints what happened; 0 whatever the outcome (it is recorded with the schedule). */
export async function tickCommand(io: TCliIo): Promise<number> {
  const env = io.env;
  // The server's own configuration, so that a beat cron starts collects the same triggers (the
  // repetition thresholds) as one the schedules-tick job starts.
  const { deps, db } = await openControlPlaneFromEnv(loadServerEnv(env));
  try {
    const report = await tickSchedules(deps);
    for (const line of tickLines(report)) io.out(line);
    return 0;
  } finally {
    await db.$disconnect();
  }
}
