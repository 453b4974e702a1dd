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
  /** A proposed CFB's full text (a new CFB's, or what an update adds to its target's). */
  cfbText: 8000,
} as const;
const L = OUTPUT_LIMITS;

const ZShortText = z.string().trim().min(1).max(L.text);
const ZLabel = z.string().trim().min(1).max(L.label);

export const ZCfbOp = z.enum(["create", "update", "merge"]);
export type TCfbOp = z.infer<typeof ZCfbOp>;

/** Proposed content may be left out, but not sent empty: an empty summary would blank a CFB. */
const ZProposedText = (what: string, max: number, omit: string) =>
  z
    .string()
    .trim()
    .min(1, { error: `must not be empty: leave ${what} out ${omit}` })
    .max(max, { error: `must be at most ${max} characters` });

/**
 * One piece of knowledge the model proposes (seed 001 §7.2). `delta_summary` describes the change
 * (a reviewer's one-line note); the content is `summary` and `text`, kept apart so that approving
 * an update never writes the change note into the CFB (docs/api.md#proposed-content):
 * - `summary`: the CFB's summary as it should read after the change (a new CFB's 1–3 sentence
 *   gist; for an update, the target's summary rewritten to include the change). Left out on an
 *   update, the target keeps its summary.
 * - `text`: a new CFB's full text; for an update, the prose the change adds to the target's full
 *   text (the model sees a CFB's summary only, so it adds to the full text, never rewrites it).
 */
export const ZCfbSuggestion = z.object({
  op: ZCfbOp,
  target_cfb_id: z.string().trim().max(32).optional(),
  title: z.string().trim().min(1).max(L.title),
  delta_summary: ZShortText,
  summary: ZProposedText("summary", L.text, "to keep the target's summary").optional(),
  text: ZProposedText("text", L.cfbText, "when the change adds nothing to the full text").optional(),
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
