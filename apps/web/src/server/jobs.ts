import { jobWorkersFromEnv, startJobWorkers, type TServerEnv } from "@solserver/control-plane";
import { getServer } from "./control-plane";

// The web process's job workers (docs/operations.md#background-work), started once per process
// by instrumentation.ts once the routes are loaded. Kept on globalThis so that dev-mode reloads do
// not start them twice. With SOLSERVER_JOB_WORKERS=off this process only queues jobs.

const holder = globalThis as unknown as { solserverJobs?: Promise<void> };

export function startWebJobs(env: TServerEnv): void {
  if (holder.solserverJobs) return;
  if (!env.jobWorkers) {
    console.log("jobs: this process only queues jobs (SOLSERVER_JOB_WORKERS=off); `pnpm jobs work` runs them");
    holder.solserverJobs = Promise.resolve();
    return;
  }
  holder.solserverJobs = getServer()
    .then(async ({ deps }) => {
      if (!deps.jobs) return;
      console.log(
        await startJobWorkers(
          deps,
          deps.jobs,
          jobWorkersFromEnv(env, (line) => console.log(line)),
        ),
      );
    })
    .catch((error: unknown) => {
      holder.solserverJobs = undefined;
      console.error(`jobs: could not start the workers: ${(error as Error).message}`);
    });
}
