// A catalog's labelled conversations (catalogs/<name>.conversations.json, the blind sets of issue
// 36): each message with the step answers it must record. The tune split's messages become each
// system's `examples`, what the learned reader is trained on; the held-out split only measures
// it (bench/procedure-blind.ts) and is never read here.
import { z } from "zod";

const ZConversations = z.object({
  conversations: z.array(
    z.object({
      system: z.string(),
      split: z.enum(["tune", "holdout"]),
      turns: z.array(
        z.object({
          message: z.string(),
          expect: z.object({ records: z.array(z.object({ step: z.string(), answer: z.string() })).optional() }),
        }),
      ),
    }),
  ),
});

/** The catalog data with each system's examples from the conversations' tune split (throws a ZodError on a bad file). */
export function withExamples<C extends { systems: readonly { id: string }[] }>(catalog: C, conversations: unknown): C {
  const tune = ZConversations.parse(conversations).conversations.filter((c) => c.split === "tune");
  return {
    ...catalog,
    systems: catalog.systems.map((system) => ({
      ...system,
      examples: tune
        .filter((c) => c.system === system.id)
        .flatMap((c) =>
          c.turns.flatMap(({ message, expect }) =>
            expect.records === undefined ? [] : [{ text: message, records: expect.records }],
          ),
        ),
    })),
  };
}
