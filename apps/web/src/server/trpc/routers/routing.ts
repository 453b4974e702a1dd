import {
  ZRoutingExampleAdd,
  ZRoutingExampleRemove,
  ZRoutingExampleView,
  ZRoutingOverview,
  ZRoutingTeach,
} from "@solserver/contracts";
import { addRoutingExample, removeRoutingExample, routingOverview, teachRouting } from "@solserver/control-plane";
import { z } from "zod";
import { jamProcedure, router } from "../init";

/** Teaching the router (docs/routing.md#learning-from-corrections): Jam editors. */
export const routingRouter = router({
  overview: jamProcedure
    .input(z.void())
    .output(ZRoutingOverview)
    .query(({ ctx }) => routingOverview(ctx)),
  add: jamProcedure
    .input(ZRoutingExampleAdd)
    .output(ZRoutingExampleView)
    .mutation(({ ctx, input }) => addRoutingExample(ctx, input)),
  remove: jamProcedure
    .input(ZRoutingExampleRemove)
    .output(z.object({ id: z.string(), removed: z.literal(true) }))
    .mutation(({ ctx, input }) => removeRoutingExample(ctx, input)),
  teach: jamProcedure
    .input(ZRoutingTeach)
    .output(ZRoutingExampleView)
    .mutation(({ ctx, input }) => teachRouting(ctx, input)),
});
