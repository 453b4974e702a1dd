import { z } from "zod";

// The OutputEnvelope a model returns (seed 001 §4.1, §7.2). The server parses it with these
// schemas before storing anything: the model is untrusted input. Fields the seed marks as
// optional default to empty so a terse model still yields a complete stored meta; bounds keep a
// runaway model from filling the database.

const ZShortText = z.string().trim().min(1).max(2000);
const ZLabel = z.string().trim().min(1).max(64);

export const ZCfbOp = z.enum(["create", "update", "merge"]);
export type TCfbOp = z.infer<typeof ZCfbOp>;

export const ZCfbSuggestion = z.object({
  op: ZCfbOp,
  target_cfb_id: z.string().trim().max(32).optional(),
  title: z.string().trim().min(1).max(200),
  delta_summary: ZShortText,
  tags: z.array(ZLabel).max(32).default([]),
  entities: z.array(ZLabel).max(32).default([]),
  // Not bounded here on purpose: the server clamps to [0, 1] and records that it did.
  confidence: z.number().refine(Number.isFinite, { error: "must be a finite number" }),
  rationale: z.string().trim().max(2000).optional(),
});
export type TCfbSuggestion = z.infer<typeof ZCfbSuggestion>;

export const ZAssumption = z.object({
  id: z.string().trim().min(1).max(32),
  text: ZShortText,
  severity: z.enum(["low", "med", "high"]).optional(),
});

export const ZUnknown = z.object({
  id: z.string().trim().min(1).max(32),
  text: ZShortText,
  needs_user_input: z.boolean().optional(),
});
export type TUnknown = z.infer<typeof ZUnknown>;

export const ZClaimMapEntry = z.object({
  claim_id: z.string().trim().min(1).max(32),
  span: z.object({
    sentence: z.number().int().nonnegative().optional(),
    start_char: z.number().int().nonnegative().optional(),
    end_char: z.number().int().nonnegative().optional(),
  }),
  text: ZShortText,
  support: z.object({
    cfb_ids: z.array(z.string().max(32)).max(32).optional(),
    unknown_id: z.string().max(32).optional(),
  }),
});
export type TClaimMapEntry = z.infer<typeof ZClaimMapEntry>;

export const ZOutputMeta = z.object({
  modeLabel: z.string().trim().min(1).max(64).default("System"),
  domainHints: z.array(ZLabel).max(16).default([]),
  used_cfb_ids: z.array(z.string().max(32)).max(64).default([]),
  ignored_cfb_ids: z.array(z.string().max(32)).max(64).default([]),
  assumptions: z.array(ZAssumption).max(32).default([]),
  unknowns: z.array(ZUnknown).max(32).default([]),
  missing_cfb_queries: z.array(z.string().trim().min(1).max(300)).max(32).default([]),
  cfb_suggestions: z.array(ZCfbSuggestion).max(16).default([]),
  claim_map: z.array(ZClaimMapEntry).max(64).optional(),
});
export type TOutputMeta = z.infer<typeof ZOutputMeta>;

export const ZOutputEnvelope = z.object({
  assistant_text: z.string().min(1).max(20000),
  meta: ZOutputMeta,
});
export type TOutputEnvelope = z.infer<typeof ZOutputEnvelope>;
