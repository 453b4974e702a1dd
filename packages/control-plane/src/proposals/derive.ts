import type { TOutputMeta, TProposalWarning } from "@solserver/contracts";
import type { TNewProposal } from "@solserver/db";
import { fingerprint } from "@solserver/resolve";

export type TKnownCfbs = ReadonlyMap<string, { domain: string }>;

/**
 * Turns validated meta into proposals. Nothing the model said is trusted as-is: a target that
 * does not exist is flagged (not dropped), confidence is clamped to [0, 1] and the clamp is
 * flagged, and the proposed CFB's domain comes from the real target, else from its own text
 * (`domainOf`: the router, with the turn's domain as the thread's, issue 35).
 * The content (summary, text) is kept apart from the change note: a `create` without a summary
 * of its own has its change note as summary (it describes the new CFB); an update or merge
 * without one proposes none, and approving it keeps the target's summary.
 */
export function deriveProposals(
  meta: TOutputMeta,
  known: TKnownCfbs,
  domainOf: (text: string) => string,
): TNewProposal[] {
  return meta.cfb_suggestions.map((s, suggestionIndex) => {
    const warnings: TProposalWarning[] = [];
    const needsTarget = s.op === "update" || s.op === "merge";
    // A blank id is no id: `|| null` (not `??`) so "  " reads as a missing target.
    const target = needsTarget ? s.target_cfb_id?.trim() || null : null;
    if (needsTarget && target === null) warnings.push("target_cfb_required");
    if (target !== null && !known.has(target)) warnings.push("target_cfb_missing");
    const confidence = Math.min(1, Math.max(0, s.confidence));
    if (confidence !== s.confidence) warnings.push("confidence_clamped");
    const domain =
      (target !== null && known.get(target)?.domain) || domainOf(`${s.title}. ${s.summary ?? s.delta_summary}`);
    return {
      suggestionIndex,
      op: s.op,
      targetCfbId: target,
      title: s.title,
      deltaSummary: s.delta_summary,
      proposedCfb: {
        title: s.title,
        summary: s.summary ?? (s.op === "create" ? s.delta_summary : null),
        text: s.text ?? null,
        tags: s.tags,
        entities: s.entities,
        domain,
      },
      rationale: s.rationale ?? null,
      confidence,
      fingerprint: fingerprint(s),
      warnings,
    };
  });
}
