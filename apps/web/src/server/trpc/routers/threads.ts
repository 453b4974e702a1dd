import { ZThreadDetail, ZThreadGetRequest, ZThreadList, ZThreadListRequest } from "@solserver/contracts";
import { router, signedInProcedure } from "../init";

export const threadsRouter = router({
  /** A user's own threads; every thread for a Jam editor. */
  list: signedInProcedure
    .input(ZThreadListRequest)
    .output(ZThreadList)
    .query(({ ctx, input }) => ctx.controlPlane.threads.list(ctx.actor, input.limit)),
  /** A thread's messages and each turn's trace. */
  get: signedInProcedure
    .input(ZThreadGetRequest)
    .output(ZThreadDetail)
    .query(({ ctx, input }) => ctx.controlPlane.threads.get(ctx.actor, input.thread_id)),
});
