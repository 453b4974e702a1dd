import type {
  TCfb,
  TCfbKind,
  TResolveDecisionView,
  TStoredProposal,
  TStoredProposalPreview,
} from "@solserver/contracts";
import { ZEditor, ZPromoteAction, ZProposalWarning, ZProposedCfb, ZResolveOutcome } from "@solserver/contracts";
import type { Cfb, PromotionEvent, UmbraProposal, UmbraResolveDecision } from "./generated/prisma/client";
import { asStringArray } from "./json";

// Row -> wire shape. Explicit field by field, so a new column never leaks by accident.

export function toCfb(row: Cfb): TCfb {
  return {
    cfb_id: row.id,
    domain: row.domain,
    kind: row.kind as TCfbKind,
    confidence: row.confidence,
    title: row.title,
    summary: row.summary,
    text: row.text,
    tags: asStringArray(row.tags, "Cfb.tags"),
    entities: asStringArray(row.entities, "Cfb.entities"),
    trust_tier: row.trustTier as TCfb["trust_tier"],
    staleness: { ttl_days: row.ttlDays, review_on_use: row.reviewOnUse },
    source_refs: asStringArray(row.sourceRefs, "Cfb.sourceRefs"),
    version: row.version,
    created_ts: row.createdAt.toISOString(),
    updated_ts: row.updatedAt.toISOString(),
    last_accessed_ts: row.lastAccessedAt?.toISOString() ?? null,
  };
}

export function toProposalPreview(row: UmbraProposal): TStoredProposalPreview {
  return {
    proposal_id: row.id,
    op: row.op as TStoredProposalPreview["op"],
    target_cfb_id: row.targetCfbId,
    title: row.title,
    delta_summary: row.deltaSummary,
    confidence: row.confidence,
    warnings: asStringArray(row.warnings, "UmbraProposal.warnings").map((w) => ZProposalWarning.parse(w)),
  };
}

export function toProposal(
  row: UmbraProposal & { promotion: PromotionEvent | null; resolveDecision?: UmbraResolveDecision[] },
): TStoredProposal {
  const promotion = row.promotion;
  const latest = row.resolveDecision?.[0];
  return {
    ...toProposalPreview(row),
    response_id: row.responseId,
    thread_id: row.threadId,
    status: row.status as TStoredProposal["status"],
    proposed_cfb: ZProposedCfb.parse(row.proposedCfb),
    rationale: row.rationale,
    fingerprint: row.fingerprint,
    created_ts: row.createdAt.toISOString(),
    decided_ts: row.decidedAt?.toISOString() ?? null,
    promotion: promotion
      ? {
          promotion_id: promotion.id,
          action: ZPromoteAction.parse(promotion.action),
          final_cfb_id: promotion.finalCfbId,
          editor: ZEditor.parse(promotion.editor),
          created_ts: promotion.createdAt.toISOString(),
        }
      : null,
    resolve: latest ? toResolveDecisionView(latest) : null,
  };
}

/** A stored resolve decision as the API shows it. */
export function toResolveDecisionView(r: UmbraResolveDecision): TResolveDecisionView {
  const outcome = ZResolveOutcome.parse({
    decision: r.decision,
    target_cfb_id: r.targetCfbId,
    merge_cfb_ids: r.mergeCfbIds === null ? [] : asStringArray(r.mergeCfbIds, "UmbraResolveDecision.mergeCfbIds"),
    scores: r.scores,
    reason_codes: r.reasonCodes,
    hysteresis_applied: r.hysteresis,
  });
  const op = r.modelOp === "update" || r.modelOp === "merge" ? r.modelOp : "create";
  return {
    ...outcome,
    decision_id: r.id,
    stage: r.stage === "promotion" ? "promotion" : "created",
    model_op: op,
    model_target_cfb_id: r.modelTargetCfbId,
    disagreement: r.disagreement,
    created_ts: r.createdAt.toISOString(),
  };
}
