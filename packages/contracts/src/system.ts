import { z } from "zod";

/** system.health: the server is up and its database answers. */
export const ZHealth = z.object({ status: z.literal("ok"), model: z.string(), cfbs: z.number().int().nonnegative() });
export type THealth = z.infer<typeof ZHealth>;

/**
 * system.semantic: semantic matching as this server process sees it: the sentence model's state
 * (off, loading, ready, or unavailable with the reason), how many CFBs have a vector for their
 * current version, and the background embedding under way.
 */
export const ZSemanticStatus = z.object({
  state: z.enum(["off", "loading", "ready", "unavailable"]),
  model: z.string().nullable(),
  reason: z.string().nullable(),
  embedded: z.number().int().nonnegative(),
  pending: z.number().int().nonnegative(),
  backfill: z.object({
    running: z.boolean(),
    done: z.number().int().nonnegative(),
    total: z.number().int().nonnegative(),
    perSecond: z.number().nonnegative().nullable(),
    secondsLeft: z.number().nonnegative().nullable(),
  }),
});
export type TSemanticStatusWire = z.infer<typeof ZSemanticStatus>;
