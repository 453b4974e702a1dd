import { ZThreadGetRequest, ZThreadMementoRecord, ZThreadMementoWrite } from "@solserver/contracts";
import { getMemento, putMemento } from "@solserver/control-plane";
import { router, signedInProcedure } from "../init";

export const mementosRouter = router({
  /** A thread's memento v0.2 and its version (the ETag). */
  get: signedInProcedure
    .input(ZThreadGetRequest)
    .output(ZThreadMementoRecord)
    .query(({ ctx, input }) => getMemento(ctx, input)),
  /** Replaces it if `version` is still current; CONFLICT otherwise, with nothing changed. */
  put: signedInProcedure
    .input(ZThreadMementoWrite)
    .output(ZThreadMementoRecord)
    .mutation(({ ctx, input }) => putMemento(ctx, input)),
});
