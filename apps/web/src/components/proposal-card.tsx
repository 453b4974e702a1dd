"use client";
import {
  canApproveAsNew,
  type TEditorialOverrides,
  type TProposal,
  type TProposalPreview,
  type TProposalStatus,
} from "@solserver/contracts";
import Link from "next/link";
import { type KeyboardEvent, useState } from "react";
import { ProposalEditor } from "./proposal-editor";
import { ProposalWarnings } from "./proposal-warnings";
import { useMe } from "./require-session";
import { ResolveSummary } from "./resolve-summary";
import { reviewKey } from "./review-keys";
import { ErrorAlert } from "./ui";
import { usePromote } from "./use-promote";

type Props = {
  /** A chat turn's preview, or a queue item (which also carries the proposed CFB). */
  proposal: TProposalPreview & { proposed_cfb?: TProposal["proposed_cfb"]; resolve?: TProposal["resolve"] };
  status: TProposalStatus;
  /** Set when the proposal was decided: the CFB it produced. */
  finalCfbId?: string | null;
};

export function ProposalCard({ proposal, status, finalCfbId }: Props) {
  const promote = usePromote();
  const me = useMe();
  const [editing, setEditing] = useState(false);
  const decided = promote.data ?? null;
  const effectiveStatus = decided?.status ?? status;
  const cfbId = decided?.final_cfb_id ?? finalCfbId ?? null;
  const approvable = canApproveAsNew(proposal);
  const act = (action: "approve_create" | "approve_update" | "reject") =>
    promote.mutate({ proposal_id: proposal.proposal_id, action });
  // An update lands on the proposal's own target, or on the CFB resolve matched it to.
  const updateTarget =
    (!approvable ? proposal.target_cfb_id : null) ??
    (proposal.resolve && proposal.resolve.decision !== "create" ? proposal.resolve.target_cfb_id : null);
  // The server refuses edit_then_approve from anyone but a Jam editor; the button follows suit.
  const canEdit = me.data?.role === "jam" && (approvable || updateTarget !== null);
  const editThenApprove = (editorial_overrides: TEditorialOverrides) =>
    promote.mutate(
      { proposal_id: proposal.proposal_id, action: "edit_then_approve", editorial_overrides },
      { onSuccess: () => setEditing(false) },
    );
  // Keyboard review: with the card focused, A approves (as new, else as an update of the matched
  // CFB), E opens the editor (Jam editors), R rejects. Keys typed inside the editor's fields
  // are left alone.
  function onKeyDown(event: KeyboardEvent<HTMLElement>) {
    if (effectiveStatus !== "pending" || editing || promote.isPending) return;
    const key = reviewKey(event);
    if (key === "approve" && (approvable || updateTarget)) act(approvable ? "approve_create" : "approve_update");
    else if (key === "reject") act("reject");
    else if (key === "edit" && canEdit) {
      promote.reset();
      setEditing(true);
    } else return;
    event.preventDefault();
  }
  return (
    <article
      className="card"
      data-testid={`proposal-${proposal.proposal_id}`}
      aria-label={`Proposal ${proposal.proposal_id}`}
      aria-keyshortcuts={effectiveStatus === "pending" ? "A R E" : undefined}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the card is the keyboard target of its review shortcuts
      tabIndex={0}
      onKeyDown={onKeyDown}
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
      <ProposalWarnings warnings={proposal.warnings} />
      {proposal.resolve ? <ResolveSummary resolve={proposal.resolve} /> : null}
      {effectiveStatus === "pending" ? (
        editing && canEdit ? (
          <ProposalEditor
            proposalId={proposal.proposal_id}
            proposed={proposal.proposed_cfb}
            pending={promote.isPending}
            onCancel={() => {
              setEditing(false);
              promote.reset();
            }}
            onSubmit={editThenApprove}
          />
        ) : (
          <div className="row">
            {approvable ? (
              <button
                type="button"
                className="approve"
                disabled={promote.isPending}
                onClick={() => act("approve_create")}
              >
                Approve
              </button>
            ) : null}
            {updateTarget ? (
              <button
                type="button"
                className={approvable ? undefined : "approve"}
                disabled={promote.isPending}
                onClick={() => act("approve_update")}
              >
                {proposal.resolve?.decision === "merge" ? "Approve merge into" : "Approve update of"} {updateTarget}
              </button>
            ) : null}
            {canEdit ? (
              <button
                type="button"
                disabled={promote.isPending}
                onClick={() => {
                  promote.reset();
                  setEditing(true);
                }}
              >
                Edit &amp; approve
              </button>
            ) : null}
            <button type="button" className="reject" disabled={promote.isPending} onClick={() => act("reject")}>
              Reject
            </button>
          </div>
        )
      ) : (
        <p className="muted" role="status">
          {effectiveStatus === "approved" ? "Approved" : "Rejected"}
          {decided?.action === "edit_then_approve" ? " with edits" : ""}
          {cfbId ? (
            <>
              {" "}
              as <Link href={`/cfbs/${cfbId}`}>{cfbId}</Link>
            </>
          ) : null}
        </p>
      )}
      <ErrorAlert error={promote.error} />
    </article>
  );
}
