import { ZProcedureCatalog, ZProcedureGetRequest, ZProcedureView } from "@solserver/contracts";
import { getProcedureCatalog, getThreadProcedure } from "@solserver/control-plane";
import { z } from "zod";
import { router, signedInProcedure } from "../init";

export const proceduresRouter = router({
  /** The procedure catalog's systems: what a new thread can be bound to (seed 004). */
  catalog: signedInProcedure
    .input(z.void())
    .output(ZProcedureCatalog)
    .query(({ ctx }) => getProcedureCatalog(ctx)),
  /** Where a thread's diagnosis stands: mode, active step, findings, labor draft, final report. */
  get: signedInProcedure
    .input(ZProcedureGetRequest)
    .output(ZProcedureView)
    .query(({ ctx, input }) => getThreadProcedure(ctx, input)),
});
