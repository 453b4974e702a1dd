"use client";
import type { TEditorialOverrides, TPromoteAction, TProposalActions } from "@solserver/contracts";
import { useState } from "react";
import { reviewKey } from "./review-keys";
import { usePromote } from "./use-promote";

type TKeyPress = Parameters<typeof reviewKey>[0] & { preventDefault: () => void };

/**
 * One proposal's review, the same for its buttons and its keys, on a queue card and on the
 * proposal page: the server's allowed actions say what is offered. A sends the main approval, E
 * opens the editor, R opens a one-line reason for the rejection (Enter rejects, Esc cancels). When the actions were decided as a promotion now decides them (the
 * proposal page), the target's version shown goes with an update: a CFB edited since is then a
 * CONFLICT instead of being overwritten. A card's come from a stored decision, so it sends none.
 */
export function useReview(
  proposalId: string,
  actions: TProposalActions | undefined,
  /** Told when the editor opens or closes (the proposal page previews the edits while it is open). */
  onEditingChange?: (editing: boolean) => void,
) {
  const promote = usePromote();
  const [editing, setEditingState] = useState(false);
  const [rejecting, setRejecting] = useState(false);
  const setEditing = (next: boolean) => {
    setEditingState(next);
    onEditingChange?.(next);
  };
  const allowed = new Set<TPromoteAction>(actions?.allowed ?? []);
  const open = !promote.data && allowed.size > 0;
  const pinned = actions?.basis === "current" && actions.update ? { expected_cfb_version: actions.update.version } : {};

  /** Decides; `afterwards` runs once it landed, e.g. "approve and next". A reject may carry a reason. */
  const act = (
    action: Exclude<TPromoteAction, "edit_then_approve">,
    options?: { reason?: string; knownCfbId?: string; afterwards?: () => void },
  ) =>
    promote.mutate(
      {
        proposal_id: proposalId,
        action,
        ...(action === "approve_update" ? pinned : {}),
        ...(action === "reject" && options?.reason ? { reason: options.reason } : {}),
        ...(action === "reject" && options?.knownCfbId ? { known_cfb_id: options.knownCfbId } : {}),
      },
      {
        onSuccess: () => options?.afterwards?.(),
      },
    );
  const startEditing = () => {
    promote.reset();
    setEditing(true);
  };
  const stopEditing = () => {
    setEditing(false);
    promote.reset();
  };
  const saveEdit = (editorial_overrides: TEditorialOverrides) =>
    promote.mutate(
      {
        proposal_id: proposalId,
        action: "edit_then_approve",
        editorial_overrides,
        ...(actions?.edit === "update" ? pinned : {}),
      },
      {
        onSuccess: () => setEditing(false),
      },
    );
  /** A review key: does what it asks when that is allowed, and then keeps the key from doing anything else. */
  const onKey = (event: TKeyPress) => {
    if (!open || editing || rejecting || promote.isPending) return;
    const key = reviewKey(event);
    if (key === "approve" && actions?.primary) act(actions.primary);
    else if (key === "reject" && allowed.has("reject")) setRejecting(true);
    else if (key === "edit" && actions?.edit) startEditing();
    else return;
    event.preventDefault();
  };

  return {
    actions,
    promote,
    /** The decision this page made, once it landed. */
    decided: promote.data ?? null,
    /** Still to decide: something is allowed and nothing was decided here. */
    open,
    editing,
    can: (action: TPromoteAction) => allowed.has(action),
    act,
    startEditing,
    stopEditing,
    /** The one-line reason of a rejection is open (R, or the Reject button). */
    rejecting,
    setRejecting,
    saveEdit,
    onKey,
  };
}

export type TReview = ReturnType<typeof useReview>;
