import {
  ZProposal,
  ZProposalGetRequest,
  ZProposalListRequest,
  ZProposalListResponse,
  ZProposalReview,
  ZProposalReviewRequest,
} from "@solserver/contracts";
import { getProposal, listProposals, reviewProposal } from "@solserver/control-plane";
import { router, signedInProcedure } from "../init";

export const proposalsRouter = router({
  /** A user's own threads' proposals; every proposal for a Jam editor. */
  list: signedInProcedure
    .input(ZProposalListRequest)
    .output(ZProposalListResponse)
    .query(({ ctx, input }) => listProposals(ctx, input)),
  get: signedInProcedure
    .input(ZProposalGetRequest)
    .output(ZProposal)
    .query(({ ctx, input }) => getProposal(ctx, input)),
  /**
   * The proposal page: the proposal, its source, and what each approval would write now (with a
   * Jam editor's overrides when given). Reads only.
   */
  review: signedInProcedure
    .input(ZProposalReviewRequest)
    .output(ZProposalReview)
    .query(({ ctx, input }) => reviewProposal(ctx, input)),
});
