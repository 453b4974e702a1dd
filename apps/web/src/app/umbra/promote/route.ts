import { ZPromoteRequest } from "@solserver/contracts";
import { readJsonBody, runRest } from "@/server/rest";

export const runtime = "nodejs";

/** POST /umbra/promote: approve or reject a proposal (seed 001 §3.3). */
export function POST(req: Request) {
  return runRest(async ({ controlPlane, actor }) => {
    const input = await readJsonBody(req, ZPromoteRequest);
    return { body: await controlPlane.promotion.promote(actor, input) };
  });
}
