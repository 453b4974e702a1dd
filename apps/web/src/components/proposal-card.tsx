"use client";
import type { TProposal, TProposalPreview, TProposalStatus } from "@solserver/contracts";
import Link from "next/link";
import { formatTs } from "./format";
import { ProposalEditor } from "./proposal-editor";
import { ProposalWarnings } from "./proposal-warnings";
import { ResolveSummary } from "./resolve-summary";
import { ReviewButtons } from "./review-buttons";
import { ErrorAlert } from "./ui";
import { useReview } from "./use-review";

type Props = {
  /** A chat turn's preview, or a queue item (which also carries the proposed CFB, its twins and its decision). */
  proposal: TProposalPreview &
    Partial<Pick<TProposal, "proposed_cfb" | "resolve" | "twin_count" | "twin_of_id" | "decided_by" | "decided_ts">>;
  status: TProposalStatus;
  /** Set when the proposal was decided: the CFB it produced. */
  finalCfbId?: string | null;
};

/** " by editor2@… on <local time>" when known. */
function decidedLine(d: { decided_by?: string | null; decided_ts?: string | null }): string {
  return `${d.decided_by ? ` by ${d.decided_by}` : ""}${d.decided_ts ? ` on ${formatTs(d.decided_ts)}` : ""}`;
}

export function ProposalCard({ proposal, status, finalCfbId }: Props) {
  const review = useReview(proposal.proposal_id, proposal.actions);
  const decided = review.decided;
  const effectiveStatus = decided?.status ?? status;
  const cfbId = decided?.final_cfb_id ?? finalCfbId ?? null;
  return (
    <article
      className="card"
      data-testid={`proposal-${proposal.proposal_id}`}
      aria-label={`Proposal ${proposal.proposal_id}`}
      aria-keyshortcuts={review.open ? "A R E" : undefined}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the card is the keyboard target of its review shortcuts
      tabIndex={0}
      // With the card focused: A, E and R as the server allows them; keys typed in the editor are left alone.
      onKeyDown={review.onKey}
    >
      <div className="row">
        <span className="badge">{proposal.op}</span>
        <span className="muted">{proposal.proposal_id}</span>
        {proposal.target_cfb_id ? <span className="muted">→ {proposal.target_cfb_id}</span> : null}
        <span className="muted">confidence {proposal.confidence.toFixed(2)}</span>
      </div>
      <h3>
        <Link href={`/proposals/${proposal.proposal_id}`}>{proposal.title}</Link>
      </h3>
      <p className="muted">{proposal.delta_summary}</p>
      {proposal.twin_count ? (
        <p className="muted" data-testid="twin-count">
          and {proposal.twin_count} more like it
          {effectiveStatus === "pending" ? ": one decision covers them all" : ", folded into this one"}
        </p>
      ) : null}
      <ProposalWarnings warnings={proposal.warnings} />
      {proposal.resolve ? <ResolveSummary resolve={proposal.resolve} /> : null}
      {effectiveStatus === "pending" ? (
        review.editing ? (
          <ProposalEditor
            proposalId={proposal.proposal_id}
            proposed={proposal.proposed_cfb}
            pending={review.promote.isPending}
            onCancel={review.stopEditing}
            onSubmit={review.saveEdit}
          />
        ) : (
          <ReviewButtons review={review} createLabel="Approve" />
        )
      ) : (
        <p className="muted" role="status">
          {effectiveStatus === "duplicate" ? (
            <>
              Folded into its twin <Link href={`/proposals/${proposal.twin_of_id}`}>{proposal.twin_of_id}</Link>
            </>
          ) : effectiveStatus === "approved" ? (
            "Approved"
          ) : (
            "Rejected"
          )}
          {decided?.action === "edit_then_approve" ? " with edits" : ""}
          {cfbId && effectiveStatus !== "duplicate" ? (
            <>
              {" "}
              as <Link href={`/cfbs/${cfbId}`}>{cfbId}</Link>
            </>
          ) : null}
          {decidedLine(decided ?? proposal)}
        </p>
      )}
      <ErrorAlert error={review.promote.error} />
    </article>
  );
}
