"use client";
import type { TProposalWarning } from "@solserver/contracts";

const WARNING_TEXT: Record<TProposalWarning, string> = {
  target_cfb_missing: "names a CFB that does not exist",
  target_cfb_required: "update without a target CFB",
  confidence_clamped: "model confidence was out of range",
};

/** The problems the server found in a model's suggestion, as badges (queue card and proposal page). */
export function ProposalWarnings({ warnings }: { warnings: readonly TProposalWarning[] }) {
  if (warnings.length === 0) return null;
  return (
    <div className="row">
      {warnings.map((w) => (
        <span key={w} className="badge warn">
          {WARNING_TEXT[w] ?? w}
        </span>
      ))}
    </div>
  );
}
