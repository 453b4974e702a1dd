import { ZGateEvaluateRequest, ZGateEvaluateResponse } from "@solserver/contracts";
import { readJsonBody, runRest } from "@/server/rest";

export const runtime = "nodejs";

/**
 * POST /gate/evaluate: compare a candidate output with a baseline (seed 002). The decision comes
 * back with HTTP 200 whatever it is (ALLOW, WARN or BLOCK is the answer, not an error) and is
 * stored for the dashboard's gate page.
 */
export function POST(req: Request) {
  return runRest(req, ZGateEvaluateResponse, async ({ controlPlane, actor }) => ({
    body: await controlPlane.gate.evaluate(actor, await readJsonBody(req, ZGateEvaluateRequest)),
  }));
}
