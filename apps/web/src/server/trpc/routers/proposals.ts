import { ZProposal, ZProposalGetRequest, ZProposalListRequest, ZProposalListResponse } from "@solserver/contracts";
import { reviewerProcedure, router } from "../init";

export const proposalsRouter = router({
  list: reviewerProcedure
    .input(ZProposalListRequest)
    .output(ZProposalListResponse)
    .query(({ ctx, input }) => ctx.controlPlane.proposals.list(input)),
  get: reviewerProcedure
    .input(ZProposalGetRequest)
    .output(ZProposal)
    .query(({ ctx, input }) => ctx.controlPlane.proposals.get(input.proposal_id)),
});
