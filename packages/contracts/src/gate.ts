import { z } from "zod";

// The BreakPoint output gate (seed 002): a candidate model output compared with a known-good
// baseline by independent policies, aggregated to ALLOW / WARN / BLOCK. These are the shapes the
// gate library, the `breakpoint` CLI, the turn pipeline and the dashboard share.

export const ZGateStatus = z.enum(["ALLOW", "WARN", "BLOCK"]);
export type TGateStatus = z.infer<typeof ZGateStatus>;

export const ZGateMode = z.enum(["lite", "full"]);
export type TGateMode = z.infer<typeof ZGateMode>;

export const GATE_POLICIES = ["cost", "pii", "drift", "latency", "output_contract"] as const;
export const ZGatePolicyName = z.enum(GATE_POLICIES);
export type TGatePolicyName = z.infer<typeof ZGatePolicyName>;

/**
 * Built-in threshold sets for common assistants (the original library's three), merged under a
 * config: `chatbot` tolerates free-form answers, `extraction` holds structured output tight,
 * `support` sits between. Values: packages/gate/src/presets.ts.
 */
export const GATE_PRESETS = ["chatbot", "extraction", "support"] as const;
export const ZGatePresetName = z.enum(GATE_PRESETS, {
  error: `preset must be one of ${GATE_PRESETS.join(", ")}`,
});
export type TGatePresetName = z.infer<typeof ZGatePresetName>;

export const PII_TYPES = ["EMAIL", "PHONE", "CREDIT_CARD", "SSN"] as const;
export const ZPiiType = z.enum(PII_TYPES);
export type TPiiType = z.infer<typeof ZPiiType>;

const count = z.number().int().nonnegative();

/**
 * `expires_at`: an ISO-8601 date ("2026-12-31", the end of that day in UTC) or date-time with a
 * zone ("2026-12-31T18:00:00Z", "...+02:00"). A time without a zone is refused: a waiver's end
 * must not depend on the machine's clock zone.
 */
export const ZWaiverExpiry = z.union([z.iso.date(), z.iso.datetime({ offset: true })], {
  error: 'expires_at must be an ISO-8601 date ("2026-12-31") or a date-time with a zone ("2026-12-31T18:00:00Z")',
});

/**
 * A waiver: while it has not expired, findings with these reason codes do not count (the policy
 * reads as if they were not there) and the decision lists the waiver as applied. Once expired it
 * stops applying and the decision says so. Reason and owner are required: a waiver nobody can
 * be asked about is how risks get forgotten.
 */
export const ZGateWaiver = z.strictObject({
  codes: z.array(z.string().trim().min(1)).min(1, "codes must name at least one reason code"),
  reason: z.string().trim().min(1, "reason must say why the finding is accepted"),
  owner: z.string().trim().min(1, "owner must name who answers for the waiver"),
  expires_at: ZWaiverExpiry,
  /** Optional link to the ticket tracking the fix. */
  ticket: z.string().trim().min(1).optional(),
});
export type TGateWaiver = z.infer<typeof ZGateWaiver>;

/** A waiver as a decision reports it: applied (with the codes it matched) or expired. */
export const ZWaiverOutcome = z.object({
  codes: z.array(z.string()),
  reason: z.string(),
  owner: z.string(),
  expires_at: z.string(),
  ticket: z.string().nullable(),
  /** The reason codes of this decision the waiver covered (applied), or would have (expired). */
  matched: z.array(z.string()),
});
export type TWaiverOutcome = z.infer<typeof ZWaiverOutcome>;

/**
 * One side of a comparison, as the seed's JSON files hold it. `output` is required; the rest
 * feeds the cost and latency policies. Unknown fields are kept (and ignored): teams store their
 * own metadata next to the output.
 */
export const ZGateRecord = z.looseObject({
  output: z.string({ error: "output must be a string (the model's text output)" }),
  cost_usd: z.number().nonnegative().optional(),
  tokens_in: count.optional(),
  tokens_out: count.optional(),
  tokens_total: count.optional(),
  latency_ms: z.number().nonnegative().optional(),
  model: z.string().optional(),
});
export type TGateRecord = z.infer<typeof ZGateRecord>;

const pct = z.number().nonnegative();

/** Prices per 1,000 tokens; `per_1k` prices `tokens_total` when in/out are not given. */
export const ZModelPrice = z.strictObject({
  input_per_1k: z.number().nonnegative(),
  output_per_1k: z.number().nonnegative(),
  per_1k: z.number().nonnegative().optional(),
});
export type TModelPrice = z.infer<typeof ZModelPrice>;

/**
 * How far a policy may go. "block": its BLOCK stands; "warn": a BLOCK is reported as WARN (the
 * turn pipeline uses this for cost and drift, which compare different questions); "off": the
 * policy does not run.
 */
export const ZPolicyEnforcement = z.enum(["block", "warn", "off"]);
export type TPolicyEnforcement = z.infer<typeof ZPolicyEnforcement>;

const enforce = ZPolicyEnforcement.default("block");

/** A JSON value type name for the output contract's `types` map. */
export const ZJsonTypeName = z.enum(["string", "number", "integer", "boolean", "object", "array", "null"]);

/**
 * Every threshold of every policy, with the seed's defaults. A config file (YAML or JSON) holds
 * any subset; missing keys take these defaults.
 */
export const ZGateConfig = z.strictObject({
  cost: z
    .strictObject({
      enforce,
      warn_increase_pct: pct.default(20),
      block_increase_pct: pct.default(40),
      /** Also WARN / BLOCK when the cost rises by at least this many dollars, whatever the percentage. */
      warn_increase_usd: z.number().nonnegative().optional(),
      block_increase_usd: z.number().nonnegative().optional(),
      /** Model name -> prices, merged over the built-in table. */
      pricing: z.record(z.string(), ZModelPrice).default({}),
    })
    .prefault({}),
  pii: z
    .strictObject({
      enforce,
      types: z.array(ZPiiType).default([...PII_TYPES]),
      /**
       * Values never reported: an exact value (case-insensitive; phones and cards compared by
       * digits), or `*suffix` for any value ending with it (e.g. `*@example.com`). No regexes:
       * the scan stays linear whatever the config says.
       */
      allowlist: z.array(z.string().min(1)).default([]),
    })
    .prefault({}),
  drift: z
    .strictObject({
      enforce,
      warn_length_delta_pct: pct.default(35),
      block_length_delta_pct: pct.default(70),
      /**
       * Separate thresholds for a longer (expansion) or shorter (compression) answer; each one
       * not set falls back to the length delta above. An extraction bot may allow a longer
       * answer but not a shorter one.
       */
      warn_expansion_pct: pct.optional(),
      block_expansion_pct: pct.optional(),
      warn_compression_pct: pct.optional(),
      block_compression_pct: pct.optional(),
      warn_short_ratio: z.number().min(0).max(1).default(0.35),
      /** Full mode: WARN when similarity falls below this. */
      warn_similarity: z.number().min(0).max(1).default(0.15),
      similarity: z.enum(["token_jaccard", "char_ngram_jaccard"]).default("token_jaccard"),
      ngram: z.number().int().min(1).max(10).default(3),
    })
    .prefault({}),
  latency: z
    .strictObject({
      enforce,
      warn_increase_pct: pct.default(50),
      block_increase_pct: pct.default(100),
      /** Also WARN / BLOCK when the latency rises by at least this many milliseconds, whatever the percentage. */
      warn_increase_ms: z.number().nonnegative().optional(),
      block_increase_ms: z.number().nonnegative().optional(),
    })
    .prefault({}),
  output_contract: z
    .strictObject({
      enforce,
      /** Whether the output must parse as JSON at all (implied by any rule below). */
      json: z.boolean().default(false),
      required_keys: z.array(z.string().min(1)).default([]),
      types: z.record(z.string(), ZJsonTypeName).default({}),
      /** A JSON Schema (draft 2020-12 or 7) the parsed output must satisfy. */
      json_schema: z.record(z.string(), z.unknown()).optional(),
    })
    .prefault({}),
  /** Findings accepted for a while, each with a reason, an owner and an expiry (see ZGateWaiver). */
  waivers: z.array(ZGateWaiver).default([]),
});
export type TGateConfig = z.infer<typeof ZGateConfig>;
export type TGateConfigInput = z.input<typeof ZGateConfig>;

export const ZPolicyResult = z.object({
  policy: ZGatePolicyName,
  status: ZGateStatus,
  /** The ✓ / ✗ line of the text report, e.g. "Cost: Delta +40.00%." */
  title: z.string(),
  reasons: z.array(z.string()),
  codes: z.array(z.string()),
  details: z.record(z.string(), z.unknown()),
});
export type TPolicyResult = z.infer<typeof ZPolicyResult>;

export const ZGateDecision = z.object({
  status: ZGateStatus,
  reasons: z.array(z.string()),
  reason_codes: z.array(z.string()),
  /** cost_delta_pct, cost_delta_usd, length_delta_pct, similarity, latency_delta_pct, pii_matches ... */
  metrics: z.record(z.string(), z.number()),
  metadata: z.object({
    mode: ZGateMode,
    strict: z.boolean(),
    baseline_model: z.string().nullable(),
    candidate_model: z.string().nullable(),
    /** Policies that ran, in report order. */
    policies: z.array(ZGatePolicyName),
  }),
  policies: z.array(ZPolicyResult),
  /** Present when the config has waivers: which applied, which have expired. */
  waivers: z.object({ applied: z.array(ZWaiverOutcome), expired: z.array(ZWaiverOutcome) }).optional(),
});
export type TGateDecision = z.infer<typeof ZGateDecision>;

/** `gate.evaluate` over the API: the CLI's comparison, stored and listed in the dashboard. */
/** A record to compare: an empty output is nothing to judge (it was a BLOCK row of nothing). */
const ZComparedRecord = ZGateRecord.refine((r) => r.output.trim().length > 0, {
  message: "output must not be empty",
  path: ["output"],
});

export const ZGateEvaluateRequest = z.strictObject({
  baseline: ZComparedRecord,
  candidate: ZComparedRecord,
  mode: ZGateMode.default("lite"),
  strict: z.boolean().default(false),
  /** Built-in thresholds the config is merged over (as `breakpoint --preset`). */
  preset: ZGatePresetName.optional(),
  /**
   * Any subset of the gate config (thresholds, PII allowlist, output contract, waivers), merged
   * over the preset and the defaults. Validated by the gate, which names the bad key
   * (`config.cost.warn_increase_pct`), so a partial object is accepted here.
   */
  config: z.record(z.string(), z.unknown()).optional(),
  /** A name for the comparison in the dashboard, e.g. "support-bot: gpt-4.1 -> gpt-5". */
  label: z.string().trim().min(1).max(120).optional(),
});
export type TGateEvaluateRequest = z.input<typeof ZGateEvaluateRequest>;

export const ZGateEvaluationSource = z.enum(["turn", "api"]);

/** A stored evaluation, as the dashboard lists it. */
export const ZGateEvaluationView = z.object({
  evaluation_id: z.string(),
  source: ZGateEvaluationSource,
  label: z.string().nullable(),
  status: ZGateStatus,
  mode: ZGateMode,
  strict: z.boolean(),
  reasons: z.array(z.string()),
  reason_codes: z.array(z.string()),
  metrics: z.record(z.string(), z.number()),
  policies: z.array(ZPolicyResult),
  thread_id: z.string().nullable(),
  transmission_id: z.string().nullable(),
  attempt_n: z.number().int().nullable(),
  /** Whether the attempt it judged was delivered (turn evaluations only). */
  delivered: z.boolean().nullable(),
  created_ts: z.string(),
});
export type TGateEvaluationView = z.infer<typeof ZGateEvaluationView>;

export const ZGateEvaluationList = z.object({
  items: z.array(ZGateEvaluationView),
  next_cursor: z.string().nullable(),
});

export const ZGateEvaluationListQuery = z.strictObject({
  status: ZGateStatus.optional(),
  source: ZGateEvaluationSource.optional(),
  cursor: z.string().optional(),
  limit: z.number().int().min(1).max(100).default(25),
});

export const ZGateEvaluateResponse = z.object({ evaluation_id: z.string(), decision: ZGateDecision });
export type TGateEvaluateResponse = z.infer<typeof ZGateEvaluateResponse>;

// Parsed requests, as a service receives them (defaults applied).
export type TGateEvaluationListQuery = z.output<typeof ZGateEvaluationListQuery>;
