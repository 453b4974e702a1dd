import "server-only";
import { DomainError } from "@solserver/contracts";
import { serverEnv } from "@/server/server-env";
import { createLimiter, ShedError, type TLimiter } from "./concurrency-limiter";
import { errorHeaders } from "./errors/table";

// Load shedding: the expensive endpoints (tRPC, the REST façade, the streamed chat turn) share one
// per-process bound on requests doing work at once, with a short queue in front of it. Past the
// bound and the queue, or after waiting too long, a request is answered 503 with Retry-After
// before anything is read, identified or computed, so an overloaded server answers the requests
// it accepted in reasonable time instead of every request late. SQLite work is synchronous: the
// bound is also what keeps the event loop free for /healthz and /readyz, which never queue.
// Settings: SOLSERVER_MAX_CONCURRENT_REQUESTS, SOLSERVER_MAX_QUEUED_REQUESTS,
// SOLSERVER_MAX_QUEUE_WAIT_MS (README, docs/performance.md for how the defaults were chosen).

type TState = { limiter: TLimiter; held: WeakMap<Response, Promise<unknown>> };
// On globalThis: every route bundle of the process shares one bound (and dev reloads keep it).
const holder = globalThis as unknown as { solserverLoadShedding?: TState };

function state(): TState {
  holder.solserverLoadShedding ??= { limiter: createLimiter(serverEnv().loadShedding), held: new WeakMap() };
  return holder.solserverLoadShedding;
}

/** The answer to a shed request: 503, asking to come back once the queue has turned over. */
function overloaded(): DomainError {
  const retryAfterSeconds = Math.ceil(serverEnv().loadShedding.maxWaitMs / 1000);
  return new DomainError("UNAVAILABLE", `server busy: try again in ${retryAfterSeconds} s`, { retryAfterSeconds });
}

/**
 * Keeps the slot of the request that answers `response` until `work` settles: for an answer
 * whose work goes on after the handler returned (a server-sent event stream).
 */
export function holdSlotUntil(response: Response, work: Promise<unknown>): Response {
  state().held.set(response, work);
  return response;
}

/**
 * Runs `work` once a slot of the process's bound is free; a request that finds the queue full or
 * waits too long gets `refuse(error)` (the transport's error shape) with Retry-After instead.
 */
export async function admit(work: () => Promise<Response>, refuse: (error: DomainError) => Response) {
  const { limiter, held } = state();
  let release: () => void;
  try {
    release = await limiter.acquire();
  } catch (error) {
    if (!(error instanceof ShedError)) throw error;
    const refusal = overloaded();
    const response = refuse(refusal);
    for (const [name, value] of Object.entries(errorHeaders(refusal) ?? {})) response.headers.set(name, value);
    return response;
  }
  try {
    const response = await work();
    const rest = held.get(response);
    if (rest) rest.then(release, release);
    else release();
    return response;
  } catch (error) {
    release();
    throw error;
  }
}

/** A route handler behind the bound (see `admit`). */
export function shed<A extends unknown[]>(
  handler: (req: Request, ...rest: A) => Promise<Response>,
  refuse: (error: DomainError) => Response,
): (req: Request, ...rest: A) => Promise<Response> {
  return (req, ...rest) => admit(() => handler(req, ...rest), refuse);
}

/** The bound's current state (the tests read it). */
export function loadSheddingStats() {
  return state().limiter.stats();
}
