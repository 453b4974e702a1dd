import { jobWorkersFromEnv, startJobWorkers, type TServerEnv } from "@solserver/control-plane";
import { getServer } from "./control-plane";

// The web process's job workers (docs/operations.md#background-work), started once per process
// by instrumentation-node.ts. Kept on globalThis so that dev-mode reloads do not start them twice. A
// start that fails (the database down at boot) is tried again until it succeeds: a process that
// serves requests must run its jobs too. With SOLSERVER_JOB_WORKERS=off it only queues them.

const holder = globalThis as unknown as { solserverJobs?: true };

/** Between tries to start the workers. */
const RETRY_MS = 30_000;

export function startWebJobs(env: TServerEnv): void {
  if (holder.solserverJobs) return;
  holder.solserverJobs = true;
  if (!env.jobWorkers) {
    console.log("jobs: this process only queues jobs (SOLSERVER_JOB_WORKERS=off); `pnpm jobs work` runs them");
    return;
  }
  const attempt = async () => {
    try {
      const { deps } = await getServer();
      if (deps.jobs)
        console.log(
          await startJobWorkers(
            deps,
            deps.jobs,
            jobWorkersFromEnv(env, (l) => console.log(l)),
          ),
        );
    } catch (error) {
      console.error(
        `jobs: could not start the workers (tried again in ${RETRY_MS / 1000} s): ${(error as Error).message}`,
      );
      setTimeout(() => void attempt(), RETRY_MS).unref();
    }
  };
  void attempt();
}
