import type { TSemanticStatusWire } from "@solserver/contracts";
import { type TCatalog, trainSystemReader } from "@solserver/engine";
import type { TServiceContext } from "./context";
import type { TServiceDeps } from "./deps";
import { rehearseTurns } from "./turn/rehearsal";

/** Liveness with a real database read, for probes and start-up checks. No caller: anyone may ask. */
export async function health(deps: TServiceDeps) {
  return { status: "ok" as const, model: deps.model.name, cfbs: await deps.repos.cfbs.count() };
}

/** How long a readiness probe waits for the database before it says "not ready". */
export const READY_TIMEOUT_MS = 500;

/**
 * Readiness: the database answers a trivial read within `timeoutMs`. No caller (probes carry no
 * credentials) and nothing read is returned. A read that fails or is late is "not ready", never
 * an error: an orchestrator only needs the verdict.
 */
export async function ready(deps: TServiceDeps, timeoutMs = READY_TIMEOUT_MS): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([deps.repos.system.ping().then(() => true), late]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The readiness probe's answer with its checks: the database, the knowledge index, the router and
 * the sentence model when configured. Not ready until the candidate index is built and the router
 * trained: otherwise the first turn does both (seconds at 100,000 CFBs) while the server says it
 * is ready. The warm-up is started here when nothing started it (a database that was down at
 * start-up); the index builds once, in slices that leave the event loop to the probes.
 */
export async function readiness(deps: TServiceDeps): Promise<{ ok: boolean; checks: Record<string, string> }> {
  const database = await ready(deps);
  const model = deps.semantic?.state() ?? { state: "off" as const };
  const built = deps.repos.cfbs.index.status().builtMs !== null;
  const trained = deps.routing.trained();
  const readers = readersTrained.has(deps.catalog);
  const turn = rehearsed.has(deps);
  if (database && !(built && trained && readers && turn)) void warmUp(deps);
  return {
    // A model still loading is a moment away (well under a second); one that failed leaves the
    // server ready, lexical only, and says why.
    ok: database && built && trained && readers && turn && model.state !== "loading",
    checks: {
      database: database ? "ok" : "unavailable",
      knowledge_index: built ? "ok" : "building",
      router: trained ? "ok" : "training",
      procedure_reader: readers ? "ok" : "training",
      first_turn: turn ? "ok" : "rehearsing",
      sentence_model: model.state === "unavailable" ? `unavailable: ${model.reason}` : model.state,
    },
  };
}

/** The processes' warm-ups under way: a probe every few seconds during one starts none of its own. */
const warming = new WeakMap<TServiceDeps, Promise<void>>();

/** Catalogs whose systems' learned readers are trained (a fraction of a second per system). */
const readersTrained = new WeakSet<TCatalog>();

async function trainReaders(catalog: TCatalog): Promise<void> {
  for (const system of catalog.systems) {
    // (one system per task: the probes answer in between)
    await new Promise((resolve) => setImmediate(resolve));
    trainSystemReader(catalog, system.id);
  }
  readersTrained.add(catalog);
}

/** Services whose turn was rehearsed (or whose rehearsal failed: logged, and not tried again). */
const rehearsed = new WeakSet<TServiceDeps>();

async function rehearse(deps: TServiceDeps): Promise<void> {
  try {
    await rehearseTurns(deps);
  } catch (error) {
    console.error("warm-up: the rehearsed turn failed:", error);
  } finally {
    rehearsed.add(deps);
  }
}

/**
 * What the first turn would otherwise build, built in the background at start-up: the candidate
 * index, the router trained on the filed examples, procedure mode's learned readers, then a
 * rehearsed turn (turn/rehearsal.ts). A call during a warm-up joins it.
 */
export function warmUp(deps: TServiceDeps): Promise<void> {
  let run = warming.get(deps);
  if (!run) {
    run = deps.repos.cfbs.index
      .sync()
      .then(() => deps.routing.refresh())
      .then(() => trainReaders(deps.catalog))
      .then(() => (rehearsed.has(deps) ? undefined : rehearse(deps)))
      .then(
        () => undefined,
        (error: unknown) => console.error("warm-up:", error),
      )
      .finally(() => warming.delete(deps));
    warming.set(deps, run);
  }
  return run;
}

const IDLE = { running: false, done: 0, total: 0, perSecond: null, secondsLeft: null };

/** Semantic matching's state and the embedding backfill's progress (the knowledge page shows it). */
export async function semanticStatus(ctx: TServiceContext): Promise<TSemanticStatusWire> {
  const handle = ctx.deps.semantic;
  const state = handle?.state() ?? { state: "off" as const };
  const matching = state.state === "ready" ? await handle?.get() : null;
  const status = matching ? await matching.status() : null;
  return {
    state: state.state,
    model: "model" in state ? state.model : null,
    reason: state.state === "unavailable" ? state.reason : null,
    embedded: status?.embedded ?? 0,
    pending: status?.pending ?? 0,
    backfill: status?.backfill ?? IDLE,
  };
}
