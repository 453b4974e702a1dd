"use client";
import { type FormEvent, useState } from "react";
import type { TReview } from "./use-review";

/**
 * A proposal's decision buttons, exactly those the server allows this reviewer: approve as new,
 * approve the update (or merge) of the CFB it names, edit first, reject. The main approval is the
 * highlighted one; each button names the key that does the same (aria-keyshortcuts). When the
 * update would change curated knowledge, or the approval needs a look for another reason (the
 * server's `held` notes: another subject, a changed value, resolve's review), it says so above
 * them, before the click.
 */
export function ReviewButtons({ review, createLabel }: { review: TReview; createLabel: string }) {
  const { actions, promote } = review;
  if (!actions) return null;
  const busy = promote.isPending;
  return (
    <>
      {actions.protection ? (
        <p className="protection" role="note" data-testid="protection-note">
          {actions.protection.note}
        </p>
      ) : null}
      {actions.held
        .filter((h) => h.code !== "curated")
        .map((h) => (
          <p key={h.code} className="badge warn" role="note" data-testid={`held-${h.code}`}>
            Look first: {h.note}
          </p>
        ))}
      <div className="row">
        {review.can("approve_create") ? (
          <button
            type="button"
            className="approve"
            aria-keyshortcuts={actions.primary === "approve_create" ? "A" : undefined}
            disabled={busy}
            onClick={() => review.act("approve_create")}
          >
            {createLabel}
          </button>
        ) : null}
        {actions.update && review.can("approve_update") ? (
          <button
            type="button"
            className={actions.primary === "approve_update" ? "approve" : undefined}
            aria-keyshortcuts={actions.primary === "approve_update" ? "A" : undefined}
            disabled={busy}
            onClick={() => review.act("approve_update")}
          >
            {actions.update.merge_cfb_id ? "Approve merge into" : "Approve update of"} {actions.update.cfb_id} “
            {actions.update.title}”
          </button>
        ) : null}
        {actions.edit ? (
          <button type="button" aria-keyshortcuts="E" disabled={busy} onClick={review.startEditing}>
            Edit &amp; approve
          </button>
        ) : null}
        {review.can("reject") ? (
          <button
            type="button"
            className="reject"
            aria-keyshortcuts="R"
            disabled={busy || review.rejecting}
            onClick={() => review.setRejecting(true)}
          >
            Reject…
          </button>
        ) : null}
      </div>
      {actions.covered_by && review.can("reject") ? (
        <div className="row">
          <button
            type="button"
            disabled={busy}
            onClick={() => review.act("reject", { knownCfbId: actions.covered_by?.cfb_id })}
            title="Close it: this CFB already says it (nothing is written to the CFB)"
          >
            Already known: {actions.covered_by.cfb_id}
          </button>
        </div>
      ) : null}
      {review.rejecting ? <RejectReason review={review} /> : null}
    </>
  );
}

/** The one-line reason of a rejection: Enter rejects (with the reason, if any), Esc cancels. */
function RejectReason({ review }: { review: TReview }) {
  const [reason, setReason] = useState("");
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const text = reason.trim();
    review.act("reject", { ...(text ? { reason: text } : {}), afterwards: () => review.setRejecting(false) });
  };
  return (
    <form className="row" onSubmit={submit} aria-label="Reject with a reason">
      <input
        // biome-ignore lint/a11y/noAutofocus: R opened it to be typed in at once
        autoFocus
        maxLength={1000}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        onKeyDown={(e) => {
          e.stopPropagation();
          if (e.key === "Escape") review.setRejecting(false);
        }}
        aria-label="Reason for rejecting (shown to the proposer; Enter rejects, Esc cancels)"
        placeholder="reason (optional) · Enter rejects · Esc cancels"
      />
      <button type="submit" className="reject" disabled={review.promote.isPending}>
        Reject
      </button>
      <button type="button" onClick={() => review.setRejecting(false)}>
        Cancel
      </button>
    </form>
  );
}
