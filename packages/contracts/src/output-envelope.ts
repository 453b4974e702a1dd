import { z } from "zod";

// The OutputEnvelope a model returns (seed 001 §4.1, §7.2). The server parses it with these
// schemas before storing anything: the model is untrusted input. Fields the seed marks as
// optional default to empty so a terse model still yields a complete stored meta; bounds keep a
// runaway model from filling the database.

/** Bounds on a model's envelope. Exported so a model (the offline one) can stay inside them. */
export const OUTPUT_LIMITS = {
  text: 2000,
  label: 64,
  labels: 32,
  title: 200,
  query: 300,
  suggestions: 16,
  assumptions: 32,
  unknowns: 32,
  queries: 32,
  claims: 64,
  cfbIds: 64,
  assistantText: 20000,
} as const;
const L = OUTPUT_LIMITS;

const ZShortText = z.string().trim().min(1).max(L.text);
const ZLabel = z.string().trim().min(1).max(L.label);

export const ZCfbOp = z.enum(["create", "update", "merge"]);
export type TCfbOp = z.infer<typeof ZCfbOp>;

export const ZCfbSuggestion = z.object({
  op: ZCfbOp,
  target_cfb_id: z.string().trim().max(32).optional(),
  title: z.string().trim().min(1).max(L.title),
  delta_summary: ZShortText,
  tags: z.array(ZLabel).max(L.labels).default([]),
  entities: z.array(ZLabel).max(L.labels).default([]),
  // Finite (zod's number already refuses NaN and Infinity) but not bounded here on purpose:
  // the server clamps to [0, 1] and records that it did.
  confidence: z.number(),
  rationale: z.string().trim().max(L.text).optional(),
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
  modeLabel: z.string().trim().min(1).max(L.label).default("System"),
  domainHints: z.array(ZLabel).max(16).default([]),
  used_cfb_ids: z.array(z.string().max(32)).max(L.cfbIds).default([]),
  ignored_cfb_ids: z.array(z.string().max(32)).max(L.cfbIds).default([]),
  assumptions: z.array(ZAssumption).max(L.assumptions).default([]),
  unknowns: z.array(ZUnknown).max(L.unknowns).default([]),
  missing_cfb_queries: z.array(z.string().trim().min(1).max(L.query)).max(L.queries).default([]),
  cfb_suggestions: z.array(ZCfbSuggestion).max(L.suggestions).default([]),
  claim_map: z.array(ZClaimMapEntry).max(L.claims).optional(),
});
export type TOutputMeta = z.infer<typeof ZOutputMeta>;

export const ZOutputEnvelope = z.object({
  assistant_text: z.string().min(1).max(L.assistantText),
  meta: ZOutputMeta,
});
export type TOutputEnvelope = z.infer<typeof ZOutputEnvelope>;
