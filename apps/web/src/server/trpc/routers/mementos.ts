import { ZThreadGetRequest, ZThreadMementoRecord, ZThreadMementoWrite } from "@solserver/contracts";
import { router, signedInProcedure } from "../init";

export const mementosRouter = router({
  /** A thread's memento v0.2 and its version (the ETag). */
  get: signedInProcedure
    .input(ZThreadGetRequest)
    .output(ZThreadMementoRecord)
    .query(({ ctx, input }) => ctx.controlPlane.mementos.get(ctx.actor, input.thread_id)),
  /** Replaces it if `version` is still current; CONFLICT otherwise, with nothing changed. */
  put: signedInProcedure
    .input(ZThreadMementoWrite)
    .output(ZThreadMementoRecord)
    .mutation(({ ctx, input }) => ctx.controlPlane.mementos.put(ctx.actor, input)),
});
