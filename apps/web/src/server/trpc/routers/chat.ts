import { ZChatRespondRequest, ZChatRespondResponse } from "@solserver/contracts";
import { respondToTurn } from "@solserver/control-plane";
import { router, signedInProcedure } from "../init";

export const chatRouter = router({
  /** One chat turn: answer, stored meta and proposal previews (seed 001 §3.2). */
  respond: signedInProcedure
    .input(ZChatRespondRequest)
    .output(ZChatRespondResponse)
    .mutation(({ ctx, input }) => respondToTurn(ctx, input)),
});
