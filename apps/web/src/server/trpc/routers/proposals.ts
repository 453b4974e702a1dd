import {
  ZProposal,
  ZProposalGetRequest,
  ZProposalListRequest,
  ZProposalListResponse,
  ZProposalReview,
  ZProposalReviewRequest,
} from "@solserver/contracts";
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
  /**
   * The proposal page: the proposal, its source, and what each approval would write now (with a
   * Jam editor's overrides when given). Reads only.
   */
  review: signedInProcedure
    .input(ZProposalReviewRequest)
    .output(ZProposalReview)
    .query(({ ctx, input }) => ctx.controlPlane.proposals.review(ctx.actor, input)),
});
