import { ZProposalListRequest } from "@solserver/contracts";
import { parseInput } from "@solserver/control-plane";
import { z } from "zod";
import { queryParams, runRest } from "@/server/rest";

export const runtime = "nodejs";

// Query strings carry text: `limit` is coerced, and a lookup by response defaults to every status.
const ZQuery = ZProposalListRequest.extend({ limit: z.coerce.number().int().min(1).max(100).default(25) }).strict();

/** GET /umbra/proposals?response_id=R-0001: the proposals of a response (seed 001 §3.3). */
export function GET(req: Request) {
  return runRest(async ({ controlPlane }) => {
    const params = queryParams(req);
    const input = parseInput(ZQuery, { status: params.response_id ? "all" : "pending", ...params });
    return { body: await controlPlane.proposals.list(input) };
  });
}
