import { ZThreadDetail, ZThreadGetRequest, ZThreadList, ZThreadListRequest } from "@solserver/contracts";
import { getThread, listThreads } from "@solserver/control-plane";
import { router, signedInProcedure } from "../init";

export const threadsRouter = router({
  /** A user's own threads; every thread for a Jam editor. */
  list: signedInProcedure
    .input(ZThreadListRequest)
    .output(ZThreadList)
    .query(({ ctx, input }) => listThreads(ctx, input)),
  /** A thread's messages and each turn's trace. */
  get: signedInProcedure
    .input(ZThreadGetRequest)
    .output(ZThreadDetail)
    .query(({ ctx, input }) => getThread(ctx, input)),
});
