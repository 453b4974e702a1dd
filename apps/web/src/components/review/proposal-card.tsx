"use client";
import type { TProposal, TProposalPreview, TProposalStatus, TQueueContext } from "@solserver/contracts";
import Link from "next/link";
import type { Ref } from "react";
import { ageOf, OP_WORDS } from "../knowledge/glossary";
import { formatTs } from "../ui/format";
import { ErrorAlert } from "../ui/ui";
import { ProposalEditor } from "./proposal-editor";
import { ProposalWarnings } from "./proposal-warnings";
import { ResolveSummary } from "./resolve-summary";
import { ReviewButtons } from "./review-buttons";
import { useReview } from "./use-review";

type Props = {
  /** A chat turn's preview, or a queue item (which also carries the proposed CFB, its twins, its decision and its card context). */
  proposal: TProposalPreview &
    Partial<
      Pick<
        TProposal,
        | "proposed_cfb"
        | "resolve"
        | "twin_count"
        | "twin_of_id"
        | "people"
        | "decided_by"
        | "decided_ts"
        | "created_ts"
        | "thread_id"
      >
    > & { queue?: TQueueContext };
  status: TProposalStatus;
  /** Set when the proposal was decided: the CFB it produced. */
  finalCfbId?: string | null;
  /** The queue's selection for a bulk decision (absent: no checkbox). */
  selection?: { selected: boolean; toggle: () => void };
  cardRef?: Ref<HTMLElement>;
};

/** " by editor2@… on <local time>" when known. */
function decidedLine(d: { decided_by?: string | null; decided_ts?: string | null }): string {
  return `${d.decided_by ? ` by ${d.decided_by}` : ""}${d.decided_ts ? ` on ${formatTs(d.decided_ts)}` : ""}`;
}

export function ProposalCard({ proposal, status, finalCfbId, selection, cardRef }: Props) {
  const review = useReview(proposal.proposal_id, proposal.actions);
  const decided = review.decided;
  const effectiveStatus = decided?.status ?? status;
  const cfbId = decided?.final_cfb_id ?? finalCfbId ?? null;
  const queue = proposal.queue;
  return (
    <article
      ref={cardRef}
      className="card"
      data-testid={`proposal-${proposal.proposal_id}`}
      data-review-card=""
      data-open={review.open && effectiveStatus === "pending" ? "true" : "false"}
      data-href={`/proposals/${proposal.proposal_id}`}
      aria-label={`Proposal: ${proposal.title}`}
      aria-keyshortcuts={review.open ? "A R E" : undefined}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the card is the keyboard target of its review shortcuts
      tabIndex={0}
      // With the card focused: A, E and R as the server allows them; keys typed in the editor are left alone.
      onKeyDown={review.onKey}
    >
      <div className="row">
        {selection && effectiveStatus === "pending" && review.open ? (
          <input
            type="checkbox"
            checked={selection.selected}
            onChange={selection.toggle}
            aria-label={`Select "${proposal.title}"`}
            data-testid="select-proposal"
          />
        ) : null}
        {/* One verdict per card: resolve's (in its summary below) when there is one, else what the model proposed. */}
        {proposal.resolve ? null : (
          <span className="badge" data-testid="verdict">
            {OP_WORDS[proposal.op] ?? proposal.op}
          </span>
        )}
        <span className="muted">confidence {proposal.confidence.toFixed(2)}</span>
        {queue?.changes_requested ? <span className="badge warn">changes requested</span> : null}
        {queue && queue.comment_count > 0 ? (
          <span className="muted" data-testid="comment-count">
            {queue.comment_count} {queue.comment_count === 1 ? "comment" : "comments"}
          </span>
        ) : null}
      </div>
      <h3>
        <Link href={`/proposals/${proposal.proposal_id}`}>{proposal.title}</Link>
      </h3>
      {queue || proposal.created_ts ? (
        <p className="muted card-meta" data-testid="card-meta">
          {queue?.proposer ? <>by {queue.proposer.name || queue.proposer.email}</> : null}
          {proposal.created_ts ? (
            <>
              {" "}
              ·{" "}
              <time dateTime={proposal.created_ts} title={formatTs(proposal.created_ts)}>
                {ageOf(proposal.created_ts)}
              </time>
            </>
          ) : null}
          {proposal.thread_id ? (
            <>
              {" "}
              · in <Link href={`/threads/${proposal.thread_id}`}>{queue?.thread_title || "its thread"}</Link>
            </>
          ) : null}
          {queue?.assignee ? <> · assigned to {queue.assignee.name || queue.assignee.email}</> : null}
        </p>
      ) : null}
      <p>{proposal.delta_summary}</p>
      {queue?.target ? (
        <blockquote className="target-now" data-testid="target-now">
          <span className="muted">
            Now in <Link href={`/cfbs/${queue.target.cfb_id}`}>{queue.target.title}</Link> (v{queue.target.version}):
          </span>{" "}
          {queue.target.summary}
        </blockquote>
      ) : null}
      {proposal.twin_count ? (
        <p className="muted" data-testid="twin-count">
          and {proposal.twin_count} more like it{(proposal.people ?? 1) > 1 ? ` (×${proposal.people} people)` : ""}
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
