// Next calls register() once when the server starts: validate the environment there, so a bad
// DATABASE_URL or SOLSERVER_MODEL fails start-up instead of the first request. Then load the
// sentence model (semantic matching), start the timer that runs scheduled workflows (the Umbra beat) and the daily prune (retention), in the Node
// runtime only; stamp each request with its socket's address (server/peer-address.ts); answer
// TRACE and the liveness probe before Next sees them (server/http/early-answers.ts).
import { nextRuntime } from "./env";

export async function register() {
  if (nextRuntime() !== "nodejs") return;
  // Before the first request: per-address limits read the socket's address from this stamp.
  const { installPeerAddressStamp } = await import("./server/peer-address");
  installPeerAddressStamp();
  const { readiness } = await import("./server/readiness");
  (await import("./server/http/early-answers")).answerBeforeNext(await import("node:http"), readiness);
  const { serverEnv } = await import("./server/server-env");
  let env: ReturnType<typeof serverEnv>;
  try {
    env = serverEnv();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
  // The sentence model loads now (in its worker thread), not on the first turn; if it cannot, the
  // log says so once and /readyz's checks say why, and the server runs lexical only. The
  // knowledge index builds now too, in slices: /readyz answers 200 once it is built.
  const { getServer } = await import("./server/control-plane");
  const { warmKnowledgeIndex } = await import("@solserver/control-plane");
  void getServer()
    .then(async ({ deps }) => {
      warmKnowledgeIndex(deps);
      const semantic = await deps.semantic?.open();
      if (semantic) console.log(`semantic matching: ${semantic.search.model} loaded`);
    })
    .catch((error: unknown) => console.error("semantic matching:", (error as Error).message));
  const { startWebScheduler } = await import("./server/scheduler");
  startWebScheduler(env.SOLSERVER_SCHEDULER_INTERVAL_MS);
  const { startWebRetention } = await import("./server/retention");
  startWebRetention(env.SOLSERVER_PRUNE_INTERVAL_HOURS, env.retention);
}
