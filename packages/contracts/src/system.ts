import { z } from "zod";

/** system.health: the server is up and its database answers. */
export const ZHealth = z.object({ status: z.literal("ok"), model: z.string(), cfbs: z.number().int().nonnegative() });
export type THealth = z.infer<typeof ZHealth>;
