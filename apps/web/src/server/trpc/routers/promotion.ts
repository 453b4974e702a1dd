import { ZPromoteRequest, ZPromoteResponse } from "@solserver/contracts";
import { reviewerProcedure, router } from "../init";

export const promotionRouter = router({
  /** A person's decision on a pending proposal (seed 001 §3.3). */
  promote: reviewerProcedure
    .input(ZPromoteRequest)
    .output(ZPromoteResponse)
    .mutation(({ ctx, input }) => ctx.controlPlane.promotion.promote(ctx.actor, input)),
});
