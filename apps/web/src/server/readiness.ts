import { readiness as readinessOf } from "@solserver/control-plane";
import { getServer } from "./control-plane";
import { routeWarmUp } from "./http/warm-routes";

// The readiness probe's question, shared by GET /readyz's route and its early answer on the Node
// server (server/http/early-answers.ts): does the database answer a one-page read in time, are
// the knowledge index and the router built, is the sentence model loaded (or known to be
// unavailable), and has every route been loaded once (server/http/warm-routes.ts)? The checks say which.
export type TReadinessReport = { ok: boolean; checks: Record<string, string> };

export async function readiness(): Promise<TReadinessReport> {
  // Until the routes are loaded the control plane is theirs to open (server/http/warm-routes.ts).
  if (routeWarmUp() === "loading") return { ok: false, checks: { routes: "loading" } };
  return readinessOf((await getServer()).deps);
}
