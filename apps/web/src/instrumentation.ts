// Next calls register() once when the server starts: validate the environment there, so a bad
// DATABASE_URL or SOLSERVER_MODEL fails start-up instead of the first request. Then start the
// timer that runs scheduled workflows (the Umbra beat) and the daily prune (retention), in the Node
// runtime only; stamp each request with its socket's address (server/peer-address.ts); answer
// TRACE and the liveness probe before Next sees them (server/http/early-answers.ts).
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // Before the first request: per-address limits read the socket's address from this stamp.
  const { installPeerAddressStamp } = await import("./server/peer-address");
  installPeerAddressStamp();
  const { readiness } = await import("./server/readiness");
  (await import("./server/http/early-answers")).answerBeforeNext(await import("node:http"), readiness);
  const { serverEnv } = await import("./env");
  let env: ReturnType<typeof serverEnv>;
  try {
    env = serverEnv();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
  const { startWebScheduler } = await import("./server/scheduler");
  startWebScheduler(env.SOLSERVER_SCHEDULER_INTERVAL_MS);
  const { startWebRetention } = await import("./server/retention");
  startWebRetention(env.SOLSERVER_PRUNE_INTERVAL_HOURS, env.retention);
}
