import { ZPromoteRequest, ZPromoteResponse } from "@solserver/contracts";
import { readJsonBody, runRest } from "@/server/rest";

export const runtime = "nodejs";

/** POST /umbra/promote: approve or reject a proposal (seed 001 §3.3). */
export function POST(req: Request) {
  return runRest(req, ZPromoteResponse, async ({ controlPlane, actor }) => ({
    body: await controlPlane.promotion.promote(actor, await readJsonBody(req, ZPromoteRequest)),
  }));
}
