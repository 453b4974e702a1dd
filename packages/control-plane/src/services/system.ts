import type { TServiceDeps } from "./deps";

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
