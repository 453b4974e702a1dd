import { readiness as readinessOf } from "@solserver/control-plane";
import { getServer } from "./control-plane";

// The readiness probe's question, shared by GET /readyz's route and its early answer on the Node
// server (server/http/early-answers.ts): does the database answer a one-page read in time, and is
// the sentence model loaded (or known to be unavailable)? The checks say which.
export type TReadinessReport = { ok: boolean; checks: Record<string, string> };

export async function readiness(): Promise<TReadinessReport> {
  return readinessOf((await getServer()).deps);
}
