// `pnpm jobs` (docs/operations.md#background-work): the background queue from a shell, for the
// operator of the machine (it opens the server's database as the web process does).
//   pnpm jobs list [--state failed] [--limit 50]   newest first, with each failure's error
//   pnpm jobs retry <job id>                        a failed job queued again
//   pnpm jobs work                                  runs the jobs in this process until Ctrl-C
// Exit codes: 0 done, 2 a usage error, 1 refused (no such failed job).
import { parseArgs } from "node:util";
import { ZJobState } from "@solserver/contracts";
import type { TJobView } from "@solserver/db";
import { openControlPlaneFromEnv } from "../control-plane";
import { loadServerEnv } from "../env";
import { jobWorkersFromEnv, startJobWorkers } from "./jobs";

export type TJobsIo = {
  out: (line: string) => void;
  err: (line: string) => void;
  env: Record<string, string | undefined>;
  /** Resolves when the worker should stop (Ctrl-C); `work` runs until then. */
  stopped: Promise<unknown>;
};

const USAGE = `usage: pnpm jobs list [--state created|retry|active|completed|failed|cancelled] [--limit N]
       pnpm jobs retry <job id>
       pnpm jobs work`;

function parse(argv: readonly string[]) {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: { state: { type: "string" }, limit: { type: "string" } },
  });
  const [command, id, ...rest] = positionals;
  if (command !== "list" && command !== "retry" && command !== "work")
    throw new Error(`unknown command "${command ?? ""}"`);
  if (rest.length > 0 || (command !== "retry" && id !== undefined))
    throw new Error(`unexpected argument "${rest[0] ?? id}"`);
  if (command === "retry" && !id)
    throw new Error("retry: name the job id (`pnpm jobs list --state failed` shows them)");
  const state = values.state === undefined ? undefined : ZJobState.safeParse(values.state);
  if (state && !state.success) throw new Error(`--state: must be one of ${ZJobState.options.join(", ")}`);
  const limit = values.limit === undefined ? 50 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
    throw new Error("--limit: must be a whole number from 1 to 1000");
  return { command, id, state: state?.data, limit };
}

function jobLine(job: TJobView): string {
  const tries = `try ${job.retryCount + (job.state === "created" ? 0 : 1)}/${job.retryLimit + 1}`;
  const head = `${job.id}  ${job.name.padEnd(17)}  ${job.state.padEnd(9)}  ${tries}  queued ${job.createdAt.toISOString()}`;
  return job.error ? `${head}\n    ${job.error}` : head;
}

export async function runJobsCli(argv: readonly string[], io: TJobsIo): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    io.err(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const env = loadServerEnv(io.env);
  const opened = await openControlPlaneFromEnv(env, { jobs: true });
  const queue = opened.deps.jobs;
  try {
    if (!queue) throw new Error("the job queue did not open");
    if (parsed.command === "list") {
      const jobs = await queue.list({ ...(parsed.state ? { state: parsed.state } : {}), limit: parsed.limit });
      if (jobs.length === 0) io.out(parsed.state ? `no ${parsed.state} jobs` : "no jobs yet");
      for (const job of jobs) io.out(jobLine(job));
      return 0;
    }
    if (parsed.command === "retry") {
      if (!(await queue.retry(parsed.id as string))) {
        io.err(`refused: ${parsed.id} is not a failed job`);
        return 1;
      }
      io.out(`queued ${parsed.id} again`);
      return 0;
    }
    const line = await startJobWorkers(opened.deps, queue, jobWorkersFromEnv(env, io.out));
    io.out(`${line}; Ctrl-C stops after the jobs under way`);
    await io.stopped;
    return 0;
  } finally {
    await queue?.stop();
    await opened.db.$disconnect();
  }
}
