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

/** The words a candidate search looks for: plain lowercase tokens, never query syntax. */
export type TCandidateQuery = { terms: string[] };

/**
 * A candidate as the full-text search returns it. `bm25` is the raw relevance made positive
 * (higher is better); `bm25_reference` is the score a CFB of average length containing every
 * query term once would get in the same index, so `bm25 / bm25_reference` is comparable across
 * queries and corpus sizes (see docs/resolve.md).
 */
export type TResolveCandidate = {
  cfb_id: string;
  title: string;
  summary: string;
  tags: readonly string[];
  entities: readonly string[];
  bm25: number;
  bm25_reference: number;
};

export const ZScoreComponents = z.object({
  bm25_norm: z.number().min(0).max(1),
  tag_overlap: z.number().min(0).max(1),
  entity_overlap: z.number().min(0).max(1),
  title_similarity: z.number().min(0).max(1),
});
export type TScoreComponents = z.infer<typeof ZScoreComponents>;

export const ZScoredCandidate = z.object({
  cfb_id: z.string(),
  /** 0.50·bm25_norm + 0.25·tag_overlap + 0.20·entity_overlap + 0.05·title_similarity */
  score: z.number().min(0).max(1),
  components: ZScoreComponents,
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
