import { ZHealth } from "@solserver/contracts";
import { health } from "@solserver/control-plane";
import { z } from "zod";
import { publicProcedure, router } from "../init";

export const systemRouter = router({
  /** Public liveness probe: answers only once the database can be read. */
  health: publicProcedure
    .input(z.void())
    .output(ZHealth)
    .query(({ ctx }) => health(ctx.deps)),
});
