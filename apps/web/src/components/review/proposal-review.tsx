"use client";
import { decidedMessage, type TEditorialOverrides } from "@solserver/contracts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useDeferredValue, useEffect, useRef, useState } from "react";
import { type TRouterOutputs, useTRPC, useTRPCClient } from "@/lib/trpc";
import { trpcCode, trpcErrorData } from "@/lib/trpc-errors";
import { useMe } from "../session/session";
import { formatTs } from "../ui/format";
import { QueryState } from "../ui/query-state";
import { ErrorAlert } from "../ui/ui";
import { CfbSideBySide } from "./field-diff";
import { ProposalDiscussion } from "./proposal-discussion";
import { ProposalEditor } from "./proposal-editor";
import { EarlierDecisions, ReopenButton } from "./proposal-reopen";
import { ProposalWarnings } from "./proposal-warnings";
import { ResolveSummary } from "./resolve-summary";
import { ReviewButtons } from "./review-buttons";
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
  // Someone else may decide it meanwhile: its state is watched (cheaply: no resolve, no preview)
  // and the page reloads when it changes, instead of offering a decision that is gone.
  const watched = useQuery(
    trpc.proposals.get.queryOptions({ proposal_id: proposalId }, { retry: false, refetchInterval: REFRESH_MS }),
  );
  const shownStatus = query.data?.proposal.status;
  const { refetch } = query;
  useEffect(() => {
    if (watched.data && shownStatus && watched.data.status !== shownStatus) void refetch();
  }, [watched.data, shownStatus, refetch]);
  // Whether this page showed it pending: a decision that then appears was made elsewhere.
  const sawPending = useRef(false);
  if (shownStatus === "pending") sawPending.current = true;

  // Keyboard review anywhere on the page: A approve, E edit (Jam editors), R reject.
  useEffect(() => {
    window.addEventListener("keydown", decision.onKey);
    return () => window.removeEventListener("keydown", decision.onKey);
  });

  return (
    <div className="stack">
      <nav className="muted" aria-label="Breadcrumb">
        <Link href="/review">Review queue</Link> › {proposalId}
      </nav>
      <QueryState query={query} what={`proposal ${proposalId}`}>
        {(review) => (
          <Review
            review={review}
            decision={decision}
            onEdit={setOverrides}
            refetch={() => query.refetch()}
            stale={query.isPlaceholderData}
            decidedElsewhere={sawPending.current && review.proposal.status !== "pending" && !decision.decided}
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
  decidedElsewhere,
}: {
  review: TProposalReview;
  decision: TReview;
  onEdit: (overrides: TEditorialOverrides) => void;
  refetch: () => Promise<unknown>;
  stale: boolean;
  /** It was pending on this page and someone else decided it since. */
  decidedElsewhere: boolean;
}) {
  const { promote, editing } = decision;
  const pending = review.proposal.status === "pending" && !decision.decided;
  const update = review.preview.update;
  const { proposal, source } = review;
  const decided = decision.decided;
  const status = decided?.status ?? proposal.status;
  const finalCfbId = decided?.final_cfb_id ?? proposal.promotion?.final_cfb_id ?? null;
  const conflict = trpcCode(promote.error) === "CONFLICT" ? (trpcErrorData(promote.error)?.field ?? null) : undefined;
  const showCurrent = async () => {
    await refetch();
    promote.reset();
  };

  const me = useMe();
  return (
    <div className="stack" data-testid="proposal-review">
      {/* While editing, the live diff sits beside the editor (stacked on a narrow screen). */}
      <div className={editing && pending ? "grid editing-layout" : "stack"}>
        <section className="panel stack" aria-labelledby="proposal-heading">
          <div className="row">
            <span className="badge">{proposal.op}</span>
            <span
              className={`badge ${status === "approved" ? "ok" : status === "rejected" ? "bad" : status === "pending" ? "warn" : ""}`}
            >
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
          <Twins proposal={proposal} />
          {decidedElsewhere ? (
            <p className="conflict" role="alert">
              While you were reviewing, {decidedMessage({ ...proposal, final_cfb_id: finalCfbId })}.
            </p>
          ) : null}
          <EarlierDecisions decisions={proposal.earlier_decisions} />
          {pending ? (
            editing ? null : (
              <Decision review={decision} proposalId={proposal.proposal_id} />
            )
          ) : (
            <DecidedLine proposal={proposal} decided={decided} status={status} finalCfbId={finalCfbId} />
          )}
          {review.reopen ? (
            <ReopenButton
              proposalId={proposal.proposal_id}
              approved={status === "approved"}
              onReopened={() => promote.reset()}
            />
          ) : null}
          {conflict === undefined ? (
            <ErrorAlert what="Could not decide" error={promote.error} />
          ) : (
            <div className="stack conflict" role="alert">
              <p className="error">{promote.error?.message}</p>
              <p>{CONFLICT_NEXT[conflict ?? ""] ?? CONFLICT_NEXT.expected_cfb_version}</p>
              <div className="row">
                <button type="button" onClick={showCurrent}>
                  {conflict === "proposal_id" ? "Show the decision" : "Show the current version"}
                </button>
              </div>
            </div>
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
      </div>
      <ProposalDiscussion
        proposalId={proposal.proposal_id}
        canRequestChanges={me.data?.role === "jam" && status === "pending"}
      />
      <Source source={source} />
    </div>
  );
}

/** The queue and this page refresh on their own this often. */
const REFRESH_MS = 5_000;

/** What to do after each CONFLICT a decision can meet, by the field the server named. */
const CONFLICT_NEXT: Record<string, string> = {
  proposal_id: "Someone decided this proposal while you were reviewing it: there is nothing left to decide here.",
  expected_cfb_version: "The CFB changed while you were reviewing. Look at the new version below, then decide again.",
  action:
    "A CFB saying the same was approved since this proposal was made. Approve this one as an update of it instead, or reject it.",
};

/** " by editor2@… (a Jam editor)" as far as it is known. */
function decider(p: TProposalReview["proposal"]): string {
  const role = p.promotion ? (p.promotion.editor === "jam" ? "a Jam editor" : "a user") : null;
  if (p.decided_by) return ` by ${p.decided_by}${role ? ` (${role})` : ""}`;
  return role ? ` by ${role}` : "";
}

/** The twins of a proposal: the lead it is grouped under, or how many it stands for. */
function Twins({ proposal }: { proposal: TProposalReview["proposal"] }) {
  if (proposal.status === "pending" && proposal.twin_of_id) {
    return (
      <p className="muted" data-testid="twins">
        A twin of <Link href={`/proposals/${proposal.twin_of_id}`}>{proposal.twin_of_id}</Link>, which the queue shows
        for both: deciding either decides the other.
      </p>
    );
  }
  if (proposal.status === "pending" && proposal.echo_of_id) {
    return (
      <p className="muted" data-testid="twins">
        Another person proposed the same ({proposal.echo_of_id}): Jam editors see both as one item, and their decision
        covers both. Yours covers only yours.
      </p>
    );
  }
  if (proposal.twin_count === 0) return null;
  const people =
    proposal.people > 1
      ? ` ${proposal.people} people proposed it: a Jam editor's decision covers all of them, a person's own only theirs.`
      : "";
  return (
    <p className="muted" data-testid="twins">
      {proposal.status === "pending"
        ? `And ${proposal.twin_count} more like it: the same suggestion made again. Deciding this one decides them all.${people}`
        : `${proposal.twin_count} twin${proposal.twin_count === 1 ? " was" : "s were"} folded into this one.`}
    </p>
  );
}

/** The decision buttons with the keys that do the same (a rejection asks for its reason), and "approve and next". */
function Decision({ review, proposalId }: { review: TReview; proposalId: string }) {
  const { actions } = review;
  const client = useTRPCClient();
  const router = useRouter();
  // The next proposal waiting (the queue's default order), or the queue when none is left.
  const goNext = async () => {
    const page = await client.proposals.list.query({ status: "pending", limit: 2 });
    const next = page.items.find((p) => p.proposal_id !== proposalId);
    router.push(next ? `/proposals/${next.proposal_id}` : "/review");
  };
  const busy = review.promote.isPending;
  return (
    <div className="stack">
      <ReviewButtons review={review} createLabel="Approve as a new CFB" />
      {actions?.primary ? (
        <div className="row">
          <button
            type="button"
            disabled={busy}
            data-testid="approve-next"
            onClick={() => actions.primary && review.act(actions.primary, { afterwards: () => void goNext() })}
          >
            Approve &amp; next
          </button>
        </div>
      ) : null}
      <p className="muted">
        Keys: <kbd>A</kbd> approve{actions?.primary === "approve_create" ? " as new" : ""} ·{" "}
        {actions?.edit ? (
          <>
            <kbd>E</kbd> edit (<kbd>Esc</kbd> closes) ·{" "}
          </>
        ) : null}
        <kbd>R</kbd> reject with a reason (<kbd>Enter</kbd> rejects).
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
          <CfbSideBySide
            before={update.target}
            beforeLabel={`Now (v${update.target.version})`}
            after={update.after}
            afterLabel="After approval"
            changed={new Set(update.changes.map((c) => c.field))}
          />
        </>
      ) : update_unavailable ? (
        <p className="muted">Not an update: {update_unavailable}.</p>
      ) : null}
      {create ? (
        <>
          <p className="muted">{update ? "Or, approved" : "Approved"} as a new CFB, it would read:</p>
          <CfbSideBySide before={null} after={create} afterLabel="New CFB" />
        </>
      ) : null}
    </section>
  );
}

/** How a decided proposal ended: approved (as which CFB), rejected or folded, by whom and when. */
function DecidedLine({
  proposal,
  decided,
  status,
  finalCfbId,
}: {
  proposal: TProposalReview["proposal"];
  decided: TReview["decided"];
  status: string;
  finalCfbId: string | null;
}) {
  return (
    // The colour follows the decision: an approval green, a rejection red, a fold neutral.
    <p
      role="status"
      className={status === "approved" ? "ok" : status === "rejected" ? "bad" : "muted"}
      data-testid="decided"
    >
      {status === "duplicate" ? (
        <>
          Folded into its twin <Link href={`/proposals/${proposal.twin_of_id}`}>{proposal.twin_of_id}</Link>, decided
        </>
      ) : status === "approved" ? (
        "Approved"
      ) : (
        "Rejected"
      )}
      {(decided?.action ?? proposal.promotion?.action) === "edit_then_approve" ? " with edits" : ""}
      {finalCfbId && status !== "duplicate" ? (
        <>
          {" "}
          as <Link href={`/cfbs/${finalCfbId}`}>{finalCfbId}</Link>
        </>
      ) : null}
      {decided ? ` by you (${decided.decided_by})` : decider(proposal)}
      {` on ${formatTs(decided?.decided_ts ?? proposal.decided_ts)}`}.
    </p>
  );
}

/** The chat turn the proposal came from. */
function Source({ source }: { source: TProposalReview["source"] }) {
  return (
    <section className="panel stack" aria-labelledby="source-heading">
      <h2 id="source-heading">Where it came from</h2>
      <p className="muted">
        Thread <Link href={`/threads/${source.thread_id}`}>{source.thread_title}</Link> · response {source.response_id}{" "}
        · {formatTs(source.created_ts)}
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
  );
}
