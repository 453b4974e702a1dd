import {
  ZFeedbackRequest,
  ZFeedbackResponse,
  ZTriggerDismissRequest,
  ZTriggerList,
  ZTriggerListRequest,
} from "@solserver/contracts";
import { dismissTrigger, giveFeedback, listTriggers } from "@solserver/control-plane";
import { z } from "zod";
import { jamProcedure, router, signedInProcedure } from "../init";

export const feedbackRouter = router({
  /** Feedback on an answer of a thread the caller may see; its tag counts toward a trigger. */
  give: signedInProcedure
    .input(ZFeedbackRequest)
    .output(ZFeedbackResponse)
    .mutation(({ ctx, input }) => giveFeedback(ctx, input)),
});

/** Promotion triggers (seed 001 §5.2): Jam editors only, they span every account's threads. */
export const triggersRouter = router({
  list: jamProcedure
    .input(ZTriggerListRequest)
    .output(ZTriggerList)
    .query(({ ctx, input }) => listTriggers(ctx, input)),
  dismiss: jamProcedure
    .input(ZTriggerDismissRequest)
    .output(z.object({ trigger_id: z.string(), dismissed: z.literal(true) }))
    .mutation(({ ctx, input }) => dismissTrigger(ctx, input)),
});
