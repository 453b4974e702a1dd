"use client";
import type { TEditorialOverrides } from "@solserver/contracts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useDeferredValue, useEffect, useState } from "react";
import { type TRouterOutputs, useTRPC } from "@/lib/trpc";
import { trpcCode } from "@/lib/trpc-errors";
import { CfbSideBySide } from "./field-diff";
import { formatTs } from "./format";
import { ProposalEditor } from "./proposal-editor";
import { ProposalWarnings } from "./proposal-warnings";
import { QueryState } from "./query-state";
import { ResolveSummary } from "./resolve-summary";
import { ReviewButtons } from "./review-buttons";
import { ErrorAlert } from "./ui";
import { type TReview, useReview } from "./use-review";

type TProposalReview = TRouterOutputs["proposals"]["review"];

/**
 * The proposal page: everything a reviewer needs to decide in one place (the proposal, resolve's
 * verdict with its component scores, the CFB it would change side by side with the result, where
 * it came from and why the model proposed it) and the decision itself, by button or key.
 */
export function ProposalReview({ proposalId }: { proposalId: string }) {
  const trpc = useTRPC();
  // The editor's overrides while it is open (cleared as it opens and closes).
  const [overrides, setOverrides] = useState<TEditorialOverrides | undefined>(undefined);
  // The diff follows the editor as the person types, without a request per key stroke.
  const previewOverrides = useDeferredValue(overrides);
  const query = useQuery(
    trpc.proposals.review.queryOptions(
      { proposal_id: proposalId, ...(previewOverrides ? { editorial_overrides: previewOverrides } : {}) },
      { retry: false, placeholderData: keepPreviousData },
    ),
  );
  const decision = useReview(proposalId, query.data?.proposal.actions, () => setOverrides(undefined));

  // Keyboard review anywhere on the page: A approve, E edit (Jam editors), R reject.
  useEffect(() => {
    window.addEventListener("keydown", decision.onKey);
    return () => window.removeEventListener("keydown", decision.onKey);
  });

  return (
    <div className="stack">
      <nav className="muted" aria-label="Breadcrumb">
        <Link href="/">Review queue</Link> › {proposalId}
      </nav>
      <QueryState query={query} what={`proposal ${proposalId}`}>
        {(review) => (
          <Review
            review={review}
            decision={decision}
            onEdit={setOverrides}
            refetch={() => query.refetch()}
            stale={query.isPlaceholderData}
          />
        )}
      </QueryState>
    </div>
  );
}

/** The proposal page once it loaded: the proposal and the decision, what would change, where it came from. */
function Review({
  review,
  decision,
  onEdit,
  refetch,
  stale,
}: {
  review: TProposalReview;
  decision: TReview;
  onEdit: (overrides: TEditorialOverrides) => void;
  refetch: () => Promise<unknown>;
  stale: boolean;
}) {
  const { promote, editing } = decision;
  const pending = review.proposal.status === "pending" && !decision.decided;
  const update = review.preview.update;
  const { proposal, source } = review;
  const decided = decision.decided;
  const status = decided?.status ?? proposal.status;
  const finalCfbId = decided?.final_cfb_id ?? proposal.promotion?.final_cfb_id ?? null;
  const isConflict = trpcCode(promote.error) === "CONFLICT";

  return (
    <div className="stack" data-testid="proposal-review">
      <section className="panel stack" aria-labelledby="proposal-heading">
        <div className="row">
          <span className="badge">{proposal.op}</span>
          <span className={`badge ${status === "approved" ? "ok" : status === "rejected" ? "bad" : "warn"}`}>
            {status}
          </span>
          <span className="muted">{proposal.proposal_id}</span>
          <span className="muted">model confidence {proposal.confidence.toFixed(2)}</span>
          <span className="muted">proposed {formatTs(proposal.created_ts)}</span>
        </div>
        <h1 id="proposal-heading" className="page-title">
          {proposal.title}
        </h1>
        <p>{proposal.delta_summary}</p>
        <ProposalWarnings warnings={proposal.warnings} />
        <dl className="meta">
          <dt>Why the model proposed it</dt>
          <dd>{proposal.rationale ?? "The model gave no rationale."}</dd>
          <dt>Tags</dt>
          <dd>{proposal.proposed_cfb.tags.join(", ") || "—"}</dd>
          <dt>Entities</dt>
          <dd>{proposal.proposed_cfb.entities.join(", ") || "—"}</dd>
          <dt>Domain</dt>
          <dd>{proposal.proposed_cfb.domain}</dd>
        </dl>
        {proposal.resolve ? <ResolveSummary resolve={proposal.resolve} open /> : null}
        {pending ? (
          editing ? null : (
            <Decision review={decision} />
          )
        ) : (
          <p role="status" className="ok">
            {status === "approved" ? "Approved" : "Rejected"}
            {(decided?.action ?? proposal.promotion?.action) === "edit_then_approve" ? " with edits" : ""}
            {finalCfbId ? (
              <>
                {" "}
                as <Link href={`/cfbs/${finalCfbId}`}>{finalCfbId}</Link>
              </>
            ) : null}
            {proposal.promotion && !decided
              ? ` by a ${proposal.promotion.editor === "jam" ? "Jam editor" : "user"}`
              : ""}
            {proposal.decided_ts && !decided ? ` on ${formatTs(proposal.decided_ts)}` : ""}.
          </p>
        )}
        {isConflict ? (
          <div className="stack conflict" role="alert">
            <p className="error">{promote.error?.message}</p>
            <p>The CFB changed while you were reviewing. Look at the new version below, then decide again.</p>
            <div className="row">
              <button
                type="button"
                onClick={async () => {
                  await refetch();
                  promote.reset();
                }}
              >
                Show the current version
              </button>
            </div>
          </div>
        ) : (
          <ErrorAlert what="Could not decide" error={promote.error} />
        )}
        {editing && pending ? (
          <ProposalEditor
            proposalId={proposal.proposal_id}
            proposed={proposal.proposed_cfb}
            start={(decision.actions?.edit === "update" ? update?.after : review.preview.create) ?? undefined}
            pending={promote.isPending}
            onChange={onEdit}
            onCancel={decision.stopEditing}
            onSubmit={decision.saveEdit}
          />
        ) : null}
      </section>
      {pending ? <Preview review={review} editing={editing} stale={stale} /> : null}
      <section className="panel stack" aria-labelledby="source-heading">
        <h2 id="source-heading">Where it came from</h2>
        <p className="muted">
          Thread <Link href={`/threads/${source.thread_id}`}>{source.thread_title}</Link> · response{" "}
          {source.response_id} · {formatTs(source.created_ts)}
        </p>
        <div>
          <div className="muted">The user asked</div>
          <p className="message">{source.user_message}</p>
        </div>
        <div>
          <div className="muted">The assistant answered</div>
          <p className="reply">{source.assistant_text}</p>
        </div>
      </section>
    </div>
  );
}

/** The decision buttons with the keys that do the same. */
function Decision({ review }: { review: TReview }) {
  const { actions } = review;
  return (
    <div className="stack">
      <ReviewButtons review={review} createLabel="Approve as a new CFB" />
      <p className="muted">
        Keys: <kbd>A</kbd> approve{actions?.primary === "approve_create" ? " as new" : ""} ·{" "}
        {actions?.edit ? (
          <>
            <kbd>E</kbd> edit ·{" "}
          </>
        ) : null}
        <kbd>R</kbd> reject.
      </p>
    </div>
  );
}

/** What approving would write: the target CFB now beside the result, or the new CFB. */
function Preview({ review, editing, stale }: { review: TProposalReview; editing: boolean; stale: boolean }) {
  const { create, update, update_unavailable } = review.preview;
  return (
    <section className="panel stack" aria-labelledby="preview-heading" aria-busy={stale}>
      <h2 id="preview-heading">What would change{editing ? " (with your edits)" : ""}</h2>
      {update ? (
        <>
          <p className="muted">
            Approving as an update rewrites <Link href={`/cfbs/${update.target.cfb_id}`}>{update.target.cfb_id}</Link>{" "}
            (version {update.target.version}); {update.changes.length} field
            {update.changes.length === 1 ? "" : "s"} change.
            {update.merged ? ` ${update.merged.cfb_id} "${update.merged.title}" is merged into it.` : ""}
          </p>
          <div className="table-wrap">
            <CfbSideBySide
              before={update.target}
              beforeLabel={`Now (v${update.target.version})`}
              after={update.after}
              afterLabel="After approval"
              changed={new Set(update.changes.map((c) => c.field))}
            />
          </div>
        </>
      ) : update_unavailable ? (
        <p className="muted">Not an update: {update_unavailable}.</p>
      ) : null}
      {create ? (
        <>
          <p className="muted">{update ? "Or, approved" : "Approved"} as a new CFB, it would read:</p>
          <div className="table-wrap">
            <CfbSideBySide before={null} after={create} afterLabel="New CFB" />
          </div>
        </>
      ) : null}
    </section>
  );
}
