"use client";
import type { TReview } from "./use-review";

/**
 * A proposal's decision buttons, exactly those the server allows this reviewer: approve as new,
 * approve the update (or merge) of the CFB it names, edit first, reject. The main approval is the
 * highlighted one; each button names the key that does the same (aria-keyshortcuts). When the
 * update would change curated knowledge, the server's note says so above them, before the click.
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
            {actions.update.merge_cfb_id ? "Approve merge into" : "Approve update of"} {actions.update.cfb_id}
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
            disabled={busy}
            onClick={() => review.act("reject")}
          >
            Reject
          </button>
        ) : null}
      </div>
    </>
  );
}
