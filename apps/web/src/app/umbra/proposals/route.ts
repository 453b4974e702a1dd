import { ZProposalListQuery, ZProposalListResponse } from "@solserver/contracts";
import { listProposals, parseInput } from "@solserver/control-plane";
import { queryParams, runRest } from "@/server/rest";

export const runtime = "nodejs";

/** GET /umbra/proposals?response_id=R-0001: a response's proposals, or the review queue (seed 001 §3.3). */
export function GET(req: Request) {
  return runRest(req, ZProposalListResponse, async (ctx) => ({
    body: await listProposals(ctx, parseInput(ZProposalListQuery, queryParams(req))),
  }));
}
