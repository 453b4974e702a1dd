import type { TServiceDeps } from "./deps";

/** Liveness with a real database read, for probes and start-up checks. No caller: anyone may ask. */
export async function health(deps: TServiceDeps) {
  return { status: "ok" as const, model: deps.model.name, cfbs: await deps.repos.cfbs.count() };
}
