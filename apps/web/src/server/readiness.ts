import { ready } from "@solserver/control-plane";
import { getServer } from "./control-plane";

// The readiness probe's question, shared by GET /readyz's route and its early answer on the
// Node server (server/http/early-answers.ts): does the database answer a one-page read in time?
export async function readiness(): Promise<boolean> {
  return ready((await getServer()).deps);
}
