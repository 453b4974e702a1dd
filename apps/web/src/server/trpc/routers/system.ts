import { ZHealth, ZSemanticStatus } from "@solserver/contracts";
import { health, semanticStatus } from "@solserver/control-plane";
import { z } from "zod";
import { publicProcedure, router, signedInProcedure } from "../init";

export const systemRouter = router({
  /** Public liveness probe: answers only once the database can be read. */
  health: publicProcedure
    .input(z.void())
    .output(ZHealth)
    .query(({ ctx }) => health(ctx.deps)),
  /** Semantic matching and the embedding backfill, for the knowledge page. */
  semantic: signedInProcedure
    .input(z.void())
    .output(ZSemanticStatus)
    .query(({ ctx }) => semanticStatus(ctx)),
});
