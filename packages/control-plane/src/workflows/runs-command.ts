import { type TWorkflowRun, WEBHOOK_QUEUE, ZWorkflowRunListRequest } from "@solserver/contracts";
import { openControlPlaneFromEnv } from "../control-plane";
import { loadServerEnv } from "../env";
import { parseInput } from "../parse";
import { listWorkflowRuns } from "../services/workflows";
import { type TCliIo, UsageError } from "./cli";

// `pnpm workflow runs`: the recent runs and what each waits for, from a shell: the background
// work of workflows (webhook deliveries under way or waiting, worker phases, failures with their
// error) without a browser. Read as the Jam editor `--as` names, as the dashboard shows them.

/** What the run waits for, or how it ended: one line's tail. */
function standing(run: TWorkflowRun, now: number): string {
  const w = run.worker;
  if (run.status === "awaiting_worker" && w) {
    const what = w.queue === WEBHOOK_QUEUE ? `webhook delivery of ${w.phase_id}` : `${w.phase_id} for queue ${w.queue}`;
    if (!w.lease_owner || !w.lease_expires_ts) return `${what}: waiting`;
    return Date.parse(w.lease_expires_ts) > now
      ? `${what}: held by ${w.lease_owner} until ${w.lease_expires_ts}`
      : `${what}: ${w.lease_owner}'s claim expired (the next tick or worker takes it)`;
  }
  if (run.status === "awaiting_decision") return `checkpoint ${run.checkpoint?.phase_id ?? "?"} waits for a decision`;
  if (run.status === "failed") return `failed: ${run.error ?? "no message"}`;
  return run.finished_ts ? `finished ${run.finished_ts}` : "";
}

export async function runsCommand(io: TCliIo, opts: { as: string; status?: string; limit: string }): Promise<number> {
  const input = parseInput(ZWorkflowRunListRequest, {
    ...(opts.status ? { status: opts.status } : {}),
    limit: Number(opts.limit),
  });
  const { deps, repos, db } = await openControlPlaneFromEnv(loadServerEnv(io.env));
  try {
    const account = await repos.accounts.byEmail(opts.as);
    if (account?.role !== "jam") {
      throw new UsageError(`--as ${opts.as}: ${account ? "is not a Jam editor" : "no such account"}`);
    }
    const caller = { kind: "user", userId: account.id, email: account.email, role: "jam", via: "cli" } as const;
    const { items } = await listWorkflowRuns({ deps, caller }, input);
    if (items.length === 0) io.out(opts.status ? `no ${opts.status} runs` : "no runs yet");
    const now = deps.now().getTime();
    for (const run of items)
      io.out(`${run.run_id}  ${run.name}  ${run.status}  started ${run.created_ts}  ${standing(run, now)}`.trimEnd());
    return 0;
  } finally {
    await db.$disconnect();
  }
}
