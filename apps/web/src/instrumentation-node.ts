// What register() (instrumentation.ts) does in the Node runtime, once when the server starts:
// validate the environment, so a bad DATABASE_URL or SOLSERVER_MODEL fails start-up instead of
// the first request; stamp each request with its socket's address (server/peer-address.ts);
// answer TRACE and the liveness probe before Next sees them (server/http/early-answers.ts); load
// every route once the server listens (server/http/warm-routes.ts), then the sentence model
// (semantic matching); start the background job workers (webhook deliveries, schedule ticks,
// retention: server/jobs.ts).
export async function registerNode(): Promise<void> {
  // Before the first request: per-address limits read the socket's address from this stamp.
  const { installPeerAddressStamp } = await import("./server/peer-address");
  installPeerAddressStamp();
  const { readiness } = await import("./server/readiness");
  const http = await import("node:http");
  (await import("./server/http/early-answers")).answerBeforeNext(http, readiness);
  const { serverEnv } = await import("./server/server-env");
  let env: ReturnType<typeof serverEnv>;
  try {
    env = serverEnv();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
  // Once the routes are loaded (they open the control plane), the knowledge index builds in
  // slices and the router trains, and the sentence model loads (in its worker thread), not on the
  // first turn; if it cannot, the log says so once and /readyz's checks say why, and the server
  // runs lexical only. /readyz answers 200 once all of it is done.
  const { getServer } = await import("./server/control-plane");
  const { warmUp } = await import("@solserver/control-plane");
  (await import("./server/http/warm-routes")).warmRoutesOnStart(http, async () => {
    const { deps } = await getServer();
    void warmUp(deps);
    const semantic = await deps.semantic?.open().catch((error: unknown) => {
      console.error("semantic matching:", (error as Error).message);
    });
    if (semantic) console.log(`semantic matching: ${semantic.search.model} loaded`);
  });
  (await import("./server/jobs")).startWebJobs(env);
}
