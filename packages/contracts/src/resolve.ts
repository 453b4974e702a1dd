import { z } from "zod";

// Umbra resolve (seed 001 §6): a proposal matched against the existing CFBs by full-text
// candidates and a composite score, decided into update / review / create / merge. Shared by the
// pure `packages/resolve`, the database's candidate search, the services and the dashboard.

export const RESOLVE_DECISIONS = ["update", "review", "create", "merge"] as const;
export const ZResolveDecisionKind = z.enum(RESOLVE_DECISIONS);
export type TResolveDecisionKind = z.infer<typeof ZResolveDecisionKind>;

/** What resolve reads of a proposal (its proposed CFB, plus the model's own op and target). */
export type TResolveProposal = {
  title: string;
  delta_summary: string;
  tags: readonly string[];
  entities: readonly string[];
  domain: string;
  /** The model's own suggestion, compared with the decision (a disagreement is shown). */
  op?: "create" | "update" | "merge";
  target_cfb_id?: string | null;
};

/** What the candidate search looks for: analysed terms (packages/resolve analyzeTerms), never query syntax. */
export type TCandidateQuery = { terms: string[] };

/**
 * A candidate as the candidate search returns it: the CFB's text and labels, which resolve scores
 * itself (the search only decides which CFBs are worth scoring), and, when semantic matching is on,
 * the cosine similarity of the proposal's and the CFB's embeddings.
 */
export type TResolveCandidate = {
  cfb_id: string;
  title: string;
  summary: string;
  tags: readonly string[];
  entities: readonly string[];
  semantic_similarity?: number | null;
};

/** Why a candidate was held back from an update, or which signal carried it (docs/resolve.md). */
export const CANDIDATE_FLAGS = [
  "NEW_FACTS",
  "CONTRADICTS",
  "LANGUAGE_DIFFERS",
  "SEMANTIC_MATCH",
  // The proposal is about another subject than this CFB (the same pattern, another thing): never its update.
  "SUBJECT_DIFFERS",
  // About a part of this CFB's subject, or a closer one ("the furnace igniter" / "the furnace"): review.
  "SUBJECT_CLOSE",
  // The same subject with another value ("15 A" → "20 A", "Monday" → "Wednesday"): review.
  "VALUE_CHANGED",
] as const;
export const ZCandidateFlag = z.enum(CANDIDATE_FLAGS);
export type TCandidateFlag = z.infer<typeof ZCandidateFlag>;

const unit = z.number().min(0).max(1);

export const ZScoreComponents = z.object({
  /**
   * How much the two texts say the same: min(1, Dice of analysed terms / 0.7), or the semantic
   * similarity when higher. Null across languages with too few numbers and names to compare.
   */
  text_similarity: unit.nullable(),
  /** Jaccard of the labels' terms; null when either side has no tags (no evidence either way). */
  tag_overlap: unit.nullable(),
  /** Jaccard of the entities' terms; null when either side has none. */
  entity_overlap: unit.nullable(),
  title_similarity: unit,
  /** Cosine similarity of the embeddings (semantic matching on), else null. */
  semantic_similarity: z.number().min(-1).max(1).nullable(),
  /** Share of the proposal's terms in sentences the CFB does not support: the facts it adds. */
  new_share: unit,
});

export type TScoreComponents = z.infer<typeof ZScoreComponents>;

export const ZScoredCandidate = z.object({
  cfb_id: z.string(),
  /** The weighted mean of the components present: 0.50 text, 0.25 tags, 0.20 entities, 0.05 title. */
  score: unit,
  components: ZScoreComponents,
  flags: z.array(ZCandidateFlag).default([]),
  /**
   * The subject comparison: same, close or different, with the words only the proposal and only
   * the CFB hold where they differ (analysed terms). Absent in decisions from before it existed.
   */
  subject: z
    .object({
      relation: z.enum(["same", "close", "different"]),
      proposal: z.array(z.string()),
      candidate: z.array(z.string()),
    })
    .optional(),
  /** The values the proposal changes: what the CFB says, and what the proposal says instead. */
  changes: z.array(z.object({ old: z.string(), new: z.string() })).optional(),
});
export type TScoredCandidate = z.infer<typeof ZScoredCandidate>;

/**
 * The numbers resolve decides with (docs/resolve.md §3–4): the composite score's weights, the
 * text similarity under which labels count in proportion, and the bands. The shipped rule is
 * fitted on labelled proposals (packages/resolve/src/decision-rule.json); a knowledge base may be
 * refitted on its own reviewers' decisions.
 */
const share = z.number().min(0).max(1);
export const ZDecisionRule = z
  .object({
    weights: z.object({ text: share, tag: share, entity: share, title: share }),
    labelGate: z.number().gt(0).max(1),
    bands: z.object({
      low: share,
      high: share,
      mergeGap: share,
      hysteresis: share,
      contradiction: share,
    }),
  })
  .refine((r) => r.bands.low < r.bands.high, { message: "bands.low must be under bands.high", path: ["bands", "low"] })
  .refine((r) => r.weights.text + r.weights.tag + r.weights.entity + r.weights.title > 0, {
    message: "the weights must not all be 0",
    path: ["weights"],
  });
export type TDecisionRule = z.infer<typeof ZDecisionRule>;

export const ZResolveOutcome = z.object({
  decision: ZResolveDecisionKind,
  /** update: the CFB to update; review: the best candidate; merge: the first of the pair; create: null. */
  target_cfb_id: z.string().nullable(),
  /** merge: the two near-identical CFBs (top two within the merge gap); else []. */
  merge_cfb_ids: z.array(z.string()),
  /** Best first, at most 10. */
  scores: z.array(ZScoredCandidate),
  reason_codes: z.array(z.string()),
  /** True when the previous decision for this fingerprint held because of the +0.05 buffer. */
  hysteresis_applied: z.boolean(),
});
export type TResolveOutcome = z.infer<typeof ZResolveOutcome>;

/** A stored UmbraResolveDecision as the dashboard shows it. */
export const ZResolveDecisionView = ZResolveOutcome.extend({
  decision_id: z.string(),
  /** When it was taken: as the proposal was created, or again at promotion. */
  stage: z.enum(["created", "promotion"]),
  /** The model's own op and target, and whether resolve disagrees with them. */
  model_op: z.enum(["create", "update", "merge"]),
  model_target_cfb_id: z.string().nullable(),
  disagreement: z.string().nullable(),
  created_ts: z.string(),
});
export type TResolveDecisionView = z.infer<typeof ZResolveDecisionView>;

/** Repetition keys of seed 001 §5.2; crossing a threshold raises a promotion trigger. */
export const REPETITION_KINDS = [
  "cfb_used",
  "cfb_ignored",
  "missing_query",
  "unknown_type",
  "feedback_tag",
  "proposal_fingerprint",
  "cfb_stale",
  "domain_mismatch",
] as const;
export const ZRepetitionKind = z.enum(REPETITION_KINDS);
export type TRepetitionKind = z.infer<typeof ZRepetitionKind>;

/** A repetition that crossed its threshold, shown in the review queue with its count. */
export const ZPromotionTrigger = z.object({
  trigger_id: z.string(),
  kind: ZRepetitionKind,
  router_domain: z.string(),
  /** The repeated thing: a CFB id, the normalised query, the unknown type, the tag, a fingerprint. */
  key: z.string(),
  /** Human words for it, e.g. the query as first asked, or the proposal's title. */
  label: z.string(),
  count: z.number().int().min(1),
  threshold: z.number().int().min(1),
  /** What a reviewer should do about it. */
  suggestion: z.string(),
  first_seen_ts: z.string(),
  last_seen_ts: z.string(),
});
export type TPromotionTrigger = z.infer<typeof ZPromotionTrigger>;

/** How resolve's decisions agreed with the reviewers' over the last decided proposals (resolve.agreement). */
export const ZResolveAgreement = z.object({
  /** Decided proposals looked at (the newest first, at most the limit asked). */
  decided: z.number().int().nonnegative(),
  /** Where resolve decided (update, create, merge) and a reviewer approved: how often they agreed. */
  compared: z.number().int().nonnegative(),
  agreed: z.number().int().nonnegative(),
  /** Proposals resolve sent to review (a person decided; nothing to agree with). */
  reviewed: z.number().int().nonnegative(),
  per_domain: z.array(
    z.object({
      domain: z.string(),
      compared: z.number().int().nonnegative(),
      agreed: z.number().int().nonnegative(),
      reviewed: z.number().int().nonnegative(),
    }),
  ),
  /** The latest disagreements: what resolve decided and what the reviewer did instead. */
  disagreements: z.array(
    z.object({
      proposal_id: z.string(),
      domain: z.string(),
      resolve: z.string(),
      reviewer: z.string(),
      decided_ts: z.string(),
    }),
  ),
  /** The rule deciding now: a refitted one, or null for the shipped one. */
  active_rule_id: z.string().nullable(),
});
export type TResolveAgreement = z.infer<typeof ZResolveAgreement>;

export const ZResolveRuleView = z.object({
  rule_id: z.string(),
  rule: ZDecisionRule,
  active: z.boolean(),
  fitted_on: z.number().int().nonnegative(),
  checked_on: z.number().int().nonnegative(),
  agreement_before: z.number(),
  agreement_after: z.number(),
  created_ts: z.string(),
});
export type TResolveRuleView = z.infer<typeof ZResolveRuleView>;

/** A refit's answer: the new rule (now active), or why none was kept. */
export const ZResolveRefitResult = z.object({
  kept: z.boolean(),
  rule_id: z.string().nullable(),
  fitted_on: z.number().int().nonnegative(),
  checked_on: z.number().int().nonnegative(),
  agreement_before: z.number(),
  agreement_after: z.number(),
  message: z.string(),
});
export type TResolveRefitResult = z.infer<typeof ZResolveRefitResult>;

export const ZResolveActivateRequest = z.object({ rule_id: z.string().min(1).max(32).nullable() });
export const ZResolveAgreementRequest = z.object({ limit: z.number().int().min(10).max(2000).default(200) });
