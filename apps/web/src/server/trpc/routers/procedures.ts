import { ZProcedureCatalog, ZProcedureGetRequest, ZProcedureView } from "@solserver/contracts";
import { z } from "zod";
import { router, signedInProcedure } from "../init";

export const proceduresRouter = router({
  /** The procedure catalog's systems: what a new thread can be bound to (seed 004). */
  catalog: signedInProcedure
    .input(z.void())
    .output(ZProcedureCatalog)
    .query(({ ctx }) => ctx.controlPlane.procedures.catalog(ctx.actor)),
  /** Where a thread's diagnosis stands: mode, active step, findings, labor draft, final report. */
  get: signedInProcedure
    .input(ZProcedureGetRequest)
    .output(ZProcedureView)
    .query(({ ctx, input }) => ctx.controlPlane.procedures.get(ctx.actor, input.thread_id)),
});
