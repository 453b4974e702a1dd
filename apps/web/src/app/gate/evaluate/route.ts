import { ZGateEvaluateRequest, ZGateEvaluateResponse } from "@solserver/contracts";
import { evaluateGate } from "@solserver/control-plane";
import { readJsonBody, runRest } from "@/server/rest";

export const runtime = "nodejs";

/**
 * POST /gate/evaluate: compare a candidate output with a baseline (seed 002). The decision comes
 * back with HTTP 200 whatever it is (ALLOW, WARN or BLOCK is the answer, not an error) and is
 * stored for the dashboard's gate page.
 */
export function POST(req: Request) {
  return runRest(req, ZGateEvaluateResponse, async (ctx) => ({
    body: await evaluateGate(ctx, await readJsonBody(req, ZGateEvaluateRequest)),
  }));
}
