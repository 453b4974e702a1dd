import {
  ZProposal,
  ZProposalAssignRequest,
  ZProposalAssignResponse,
  ZProposalComment,
  ZProposalCommentRequest,
  ZProposalCommentsRequest,
  ZProposalCommentsResponse,
  ZProposalGetRequest,
  ZProposalListRequest,
  ZProposalListResponse,
  ZProposalQueuesResponse,
  ZProposalReopenRequest,
  ZProposalReview,
  ZProposalReviewRequest,
} from "@solserver/contracts";
import {
  assignProposals,
  commentOnProposal,
  getProposal,
  listProposalComments,
  listProposals,
  proposalQueues,
  reopenProposal,
  reviewProposal,
} from "@solserver/control-plane";
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
  /** A decided proposal back to pending, its decision kept as history; an approval's CFBs put back. */
  reopen: jamProcedure
    .input(ZProposalReopenRequest)
    .output(ZProposal)
    .mutation(({ ctx, input }) => reopenProposal(ctx, input)),
  /** The caller's queues per domain (pending, oldest, decided in 24 h) and how many are assigned to them. */
  queues: signedInProcedure.output(ZProposalQueuesResponse).query(({ ctx }) => proposalQueues(ctx)),
  /** Asks a Jam editor to decide pending proposals, or clears the assignment. */
  assign: jamProcedure
    .input(ZProposalAssignRequest)
    .output(ZProposalAssignResponse)
    .mutation(({ ctx, input }) => assignProposals(ctx, input)),
  /** A comment, or (Jam editors) a request for changes, on a proposal the caller may see. */
  comment: signedInProcedure
    .input(ZProposalCommentRequest)
    .output(ZProposalComment)
    .mutation(({ ctx, input }) => commentOnProposal(ctx, input)),
  /** The discussion of a proposal, or of every proposal of a thread. */
  comments: signedInProcedure
    .input(ZProposalCommentsRequest)
    .output(ZProposalCommentsResponse)
    .query(({ ctx, input }) => listProposalComments(ctx, input)),
});
