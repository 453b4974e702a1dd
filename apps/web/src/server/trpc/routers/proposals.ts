import {
  ZProposal,
  ZProposalGetRequest,
  ZProposalListRequest,
  ZProposalListResponse,
  ZProposalReopenRequest,
  ZProposalReview,
  ZProposalReviewRequest,
} from "@solserver/contracts";
import { getProposal, listProposals, reopenProposal, reviewProposal } from "@solserver/control-plane";
import { jamProcedure, router, signedInProcedure } from "../init";

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
  /** A rejected proposal back to pending, its rejection kept as history. */
  reopen: jamProcedure
    .input(ZProposalReopenRequest)
    .output(ZProposal)
    .mutation(({ ctx, input }) => reopenProposal(ctx, input)),
});
