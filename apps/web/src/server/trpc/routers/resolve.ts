import {
  ZJobStarted,
  ZResolveActivateRequest,
  ZResolveAgreement,
  ZResolveAgreementRequest,
  ZResolveRuleView,
} from "@solserver/contracts";
import { activateResolveRule, listResolveRules, resolveAgreement, startRefit } from "@solserver/control-plane";
import { z } from "zod";
import { jamProcedure, router } from "../init";

/** Resolve learning from the reviewers (docs/resolve.md#learning-from-the-reviewers): Jam editors. */
export const resolveRouter = router({
  agreement: jamProcedure
    .input(ZResolveAgreementRequest)
    .output(ZResolveAgreement)
    .query(({ ctx, input }) => resolveAgreement(ctx, input)),
  rules: jamProcedure
    .input(z.void())
    .output(z.array(ZResolveRuleView))
    .query(({ ctx }) => listResolveRules(ctx)),
  /** Queues a refit and answers at once with its job (jobs.get follows it to its result). */
  refit: jamProcedure
    .input(z.object({}).strict())
    .output(ZJobStarted)
    .mutation(({ ctx }) => startRefit(ctx)),
  activate: jamProcedure
    .input(ZResolveActivateRequest)
    .output(z.object({ active_rule_id: z.string().nullable() }))
    .mutation(({ ctx, input }) => activateResolveRule(ctx, input)),
});
