import { z } from "zod";
import { ZCfbId, ZResponseId } from "./ids";
import { ZPromotionTrigger } from "./resolve";

// A person's feedback on an answer (seed 001 §5.1 human_feedback). A tag repeated across answers
// of a router domain becomes a promotion trigger (seed 001 §5.2).

export const ZFeedbackPolarity = z.enum(["positive", "negative", "correction"]);

export const ZFeedbackRequest = z.strictObject({
  response_id: ZResponseId,
  polarity: ZFeedbackPolarity,
  /** A short label for what was wrong or right, e.g. "outdated", "wrong-domain". */
  tag: z
    .string()
    .trim()
    .min(1)
    .max(40)
    .regex(/^[\p{L}\p{N}][\p{L}\p{N} _.-]*$/u, { error: "tag: letters, digits, spaces, _ . - only" })
    .optional(),
  comment: z.string().trim().max(2000).optional(),
  /** The CFB the feedback is about, when it is about one. */
  cfb_id: ZCfbId.optional(),
});
export type TFeedbackRequest = z.infer<typeof ZFeedbackRequest>;

export const ZFeedbackResponse = z.object({
  feedback_id: z.string(),
  /** Set when this feedback's tag just crossed its threshold. */
  trigger_raised: z.boolean(),
});

export const ZTriggerList = z.object({ items: z.array(ZPromotionTrigger) });
export const ZTriggerListRequest = z.strictObject({ limit: z.number().int().min(1).max(100).default(50) });
export const ZTriggerDismissRequest = z.strictObject({ trigger_id: z.string().min(1).max(64) });

// Parsed requests, as a service receives them (defaults applied).
export type TTriggerListRequest = z.output<typeof ZTriggerListRequest>;
export type TTriggerDismissRequest = z.output<typeof ZTriggerDismissRequest>;
