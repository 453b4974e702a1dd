import { ZPromoteRequest, ZPromoteResponse } from "@solserver/contracts";
import { promoteProposal } from "@solserver/control-plane";
import { readJsonBody, runRest } from "@/server/rest";

export const runtime = "nodejs";

/** POST /umbra/promote: approve or reject a proposal (seed 001 §3.3). */
export function POST(req: Request) {
  return runRest(req, ZPromoteResponse, async (ctx) => ({
    body: await promoteProposal(ctx, await readJsonBody(req, ZPromoteRequest)),
  }));
}
