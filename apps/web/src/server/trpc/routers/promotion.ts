import { ZPromoteRequest, ZPromoteResponse } from "@solserver/contracts";
import { promoteProposal } from "@solserver/control-plane";
import { router, signedInProcedure } from "../init";

export const promotionRouter = router({
  /** A person's decision on a pending proposal (seed 001 §3.3); edit_then_approve is Jam-only. */
  promote: signedInProcedure
    .input(ZPromoteRequest)
    .output(ZPromoteResponse)
    .mutation(({ ctx, input }) => promoteProposal(ctx, input)),
});
