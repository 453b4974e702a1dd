// A worker for `worker` phases (worker-step.yaml's queue agents.drafting), in a few lines of
// TypeScript over Solserver's HTTP API: claim the next phase (long-polling), keep the lease alive
// while working, then complete it with outputs, or fail it with a message. An API token of a Jam
// editor's account authenticates it (the dashboard's Tokens page creates one).
//
//   SOLSERVER_URL=http://localhost:3000 SOLSERVER_TOKEN=sol_… npx tsx packages/checkpoint/examples/worker.ts
//
// Exactly-once: a completion counts only with the current lease; if this worker stalls past its
// lease, another may claim the phase and this one's heartbeat or completion is refused (409).

type TClaim = {
  run_id: string;
  phase_id: string;
  attempt: number;
  lease_id: string;
  lease_expires_ts: string;
  context: Record<string, unknown>;
  variables: Record<string, unknown>;
};
type TOutcome = { data?: Record<string, unknown>; artifacts?: { path: string; content: string }[] };
export type TWorkerOptions = {
  baseUrl: string;
  token: string;
  queue: string;
  worker: string;
  /** The work itself; throwing fails the phase with the error's message. */
  handle: (claim: TClaim) => Promise<TOutcome>;
  fetch?: typeof fetch;
  heartbeatMs?: number;
};

/** One tRPC mutation over HTTP; a non-2xx answer throws with the server's message. */
async function call(o: TWorkerOptions, procedure: string, input: unknown): Promise<unknown> {
  const res = await (o.fetch ?? fetch)(`${o.baseUrl}/api/trpc/workflows.${procedure}`, {
    method: "POST",
    headers: { authorization: `Bearer ${o.token}`, "content-type": "application/json" },
    body: JSON.stringify(input),
  });
  const body = (await res.json()) as { result?: { data: unknown }; error?: { message: string } };
  if (!res.ok) throw new Error(`${procedure}: ${res.status} ${body.error?.message ?? ""}`);
  return body.result?.data;
}

/** Claims and works one phase; false when none was waiting within the poll. */
export async function workOnce(o: TWorkerOptions, waitMs = 20_000): Promise<boolean> {
  const { claim } = (await call(o, "claimPhase", { queue: o.queue, worker: o.worker, wait_ms: waitMs })) as {
    claim: TClaim | null;
  };
  if (!claim) return false;
  const lease = { run_id: claim.run_id, lease_id: claim.lease_id };
  // Renew at a third of the lease, so two missed beats still leave time (a 30 s lease: every 10 s).
  const leaseMs = Date.parse(claim.lease_expires_ts) - Date.now();
  const beat = setInterval(
    () => void call(o, "heartbeat", lease).catch(() => clearInterval(beat)),
    o.heartbeatMs ?? Math.max(1_000, Math.floor(leaseMs / 3)),
  );
  try {
    const outcome = await o.handle(claim);
    await call(o, "completePhase", { ...lease, outcome: "done", ...outcome });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await call(o, "completePhase", { ...lease, outcome: "failed", error: message }).catch(() => undefined);
  } finally {
    clearInterval(beat);
  }
  return true;
}

// Run as a script: draft forever (here the "draft" is a stand-in for a model call).
if (process.argv[1]?.endsWith("worker.ts")) {
  const options: TWorkerOptions = {
    baseUrl: process.env.SOLSERVER_URL ?? "http://localhost:3000",
    token: process.env.SOLSERVER_TOKEN ?? "",
    queue: "agents.drafting",
    worker: `drafter-${process.pid}`,
    handle: async (claim) => ({
      data: { draft_ready: true },
      artifacts: [{ path: "out/draft.md", content: `# Draft for ${claim.run_id}\n` }],
    }),
  };
  for (;;) await workOnce(options);
}
