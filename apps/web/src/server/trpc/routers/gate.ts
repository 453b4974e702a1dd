import {
  ZGateEvaluateRequest,
  ZGateEvaluateResponse,
  ZGateEvaluationList,
  ZGateEvaluationListQuery,
} from "@solserver/contracts";
import { evaluateGate, listGateEvaluations } from "@solserver/control-plane";
import { router, signedInProcedure } from "../init";

/** The BreakPoint output gate (seed 002): compare two outputs, list stored decisions. */
export const gateRouter = router({
  evaluate: signedInProcedure
    .input(ZGateEvaluateRequest)
    .output(ZGateEvaluateResponse)
    .mutation(({ ctx, input }) => evaluateGate(ctx, input)),
  /** A Jam editor sees every evaluation; anyone else those of their own turns and calls. */
  list: signedInProcedure
    .input(ZGateEvaluationListQuery)
    .output(ZGateEvaluationList)
    .query(({ ctx, input }) => listGateEvaluations(ctx, input)),
});
