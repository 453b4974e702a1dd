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
export const CANDIDATE_FLAGS = ["NEW_FACTS", "CONTRADICTS", "LANGUAGE_DIFFERS", "SEMANTIC_MATCH"] as const;
export const ZCandidateFlag = z.enum(CANDIDATE_FLAGS);
export type TCandidateFlag = z.infer<typeof ZCandidateFlag>;

const unit = z.number().min(0).max(1);

const ZScoreComponentsNow = z.object({
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

/**
 * Decisions stored before the candidate index (2026-11) have `bm25_norm` where `text_similarity`
 * is now, no `semantic_similarity` or `new_share`, and 0 for missing labels; they are read as such.
 */
export const ZScoreComponents = z.preprocess((value) => {
  if (typeof value !== "object" || value === null || "text_similarity" in value) return value;
  const legacy = value as Record<string, unknown>;
  return {
    text_similarity: legacy.bm25_norm,
    tag_overlap: legacy.tag_overlap,
    entity_overlap: legacy.entity_overlap,
    title_similarity: legacy.title_similarity,
    semantic_similarity: null,
    new_share: 0,
  };
}, ZScoreComponentsNow);
export type TScoreComponents = z.infer<typeof ZScoreComponentsNow>;

export const ZScoredCandidate = z.object({
  cfb_id: z.string(),
  /** The weighted mean of the components present: 0.50 text, 0.25 tags, 0.20 entities, 0.05 title. */
  score: unit,
  components: ZScoreComponents,
  flags: z.array(ZCandidateFlag).default([]),
});
export type TScoredCandidate = z.infer<typeof ZScoredCandidate>;

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
