import { ZProposal, ZProposalGetRequest, ZProposalListRequest, ZProposalListResponse } from "@solserver/contracts";
import { router, signedInProcedure } from "../init";

export const proposalsRouter = router({
  /** A user's own threads' proposals; every proposal for a Jam editor. */
  list: signedInProcedure
    .input(ZProposalListRequest)
    .output(ZProposalListResponse)
    .query(({ ctx, input }) => ctx.controlPlane.proposals.list(ctx.actor, input)),
  get: signedInProcedure
    .input(ZProposalGetRequest)
    .output(ZProposal)
    .query(({ ctx, input }) => ctx.controlPlane.proposals.get(ctx.actor, input.proposal_id)),
});
