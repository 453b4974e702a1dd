"use client";
import type { TProposalQueueItem } from "@solserver/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC, useTRPCClient } from "@/lib/trpc";
import { errorText } from "@/lib/trpc-errors";
import { heldSummary } from "../knowledge/glossary";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { ErrorAlert } from "../ui/ui";
import { BULK_META, useUndoWindow } from "./decided-here";
import { useRefreshDecisions } from "./use-promote";

type TBulk = "approve" | "reject";
/** What a bulk decision came to: how many landed, and each that did not with the server's reason. */
export type TBulkOutcome = {
  kind: "approve" | "reject";
  done: number;
  /** The decisions it made, in order: the run can be undone (each reopened) for a while. */
  decided: { proposal_id: string; promotion_id: string }[];
  /** When it ended (epoch ms): Undo is offered for 10 s from then. */
  at: number;
  failed: { id: string; title: string; message: string }[];
};

/**
 * A decision on every selected proposal: approve each with its highlighted approval, or reject
 * them all with one reason; and (Jam editors) assign them. A proposal whose approval needs a look
 * (its actions' `held` reasons: another subject, a changed value, curated knowledge, resolve's
 * review) is never approved in bulk: the confirmation counts them by reason and they stay
 * selected. Each proposal is its own decision, one after the other, with the server's checks
 * each time: one that moved meanwhile fails alone and is named, the rest land. The decisions go
 * through the promote mutation, so the queue knows they were made here (no "decided by" notice).
 */
export function BulkBar({
  items,
  jam,
  onDone,
}: {
  items: readonly TProposalQueueItem[];
  jam: boolean;
  /** Called when the selection is done with: after a bulk decision, with its outcome. */
  onDone: (outcome?: TBulkOutcome) => void;
}) {
  const trpc = useTRPC();
  const refresh = useRefreshDecisions();
  const promote = useMutation(trpc.promotion.promote.mutationOptions({ meta: BULK_META }));
  const [asking, setAsking] = useState<TBulk | null>(null);
  const [reason, setReason] = useState("");
  const [progress, setProgress] = useState<{ at: number; of: number } | null>(null);
  const approvable = items.filter((p) => p.actions.primary && p.actions.held.length === 0);
  const held = items.filter((p) => p.actions.primary && p.actions.held.length > 0);
  const rejectable = items.filter((p) => p.actions.allowed.includes("reject"));

  async function run(kind: TBulk) {
    const targets = kind === "approve" ? approvable : rejectable;
    const result: TBulkOutcome = { kind, done: 0, decided: [], failed: [], at: 0 };
    setProgress({ at: 0, of: targets.length });
    for (const [i, p] of targets.entries()) {
      try {
        const landed =
          kind === "approve" && p.actions.primary
            ? await promote.mutateAsync({ proposal_id: p.proposal_id, action: p.actions.primary })
            : await promote.mutateAsync({
                proposal_id: p.proposal_id,
                action: "reject",
                ...(reason.trim() ? { reason: reason.trim() } : {}),
              });
        result.done += 1;
        result.decided.push({ proposal_id: p.proposal_id, promotion_id: landed.promotion_id });
      } catch (error) {
        result.failed.push({ id: p.proposal_id, title: p.title, message: (error as Error).message });
      }
      setProgress({ at: i + 1, of: targets.length });
    }
    setProgress(null);
    setAsking(null);
    setReason("");
    onDone({ ...result, at: Date.now() });
    await refresh();
  }

  return (
    <section className="bulk-bar stack" aria-label="Bulk decision" data-testid="bulk-bar">
      <div className="row">
        <strong>{items.length} selected</strong>
        <button
          type="button"
          className="approve"
          disabled={approvable.length === 0 || progress !== null}
          onClick={() => setAsking("approve")}
        >
          Approve {approvable.length}
        </button>
        <button
          type="button"
          className="reject"
          disabled={rejectable.length === 0 || progress !== null}
          onClick={() => setAsking("reject")}
        >
          Reject {rejectable.length}…
        </button>
        {jam ? <AssignControl ids={items.map((p) => p.proposal_id)} onAssigned={() => onDone()} /> : null}
        <button type="button" onClick={() => onDone()} disabled={progress !== null}>
          Clear selection
        </button>
      </div>
      <p role="status" className="muted">
        {progress ? `Deciding ${progress.at} of ${progress.of}…` : ""}
      </p>
      {asking ? (
        <ConfirmDialog
          title={
            asking === "approve" ? `Approve ${approvable.length} proposals?` : `Reject ${rejectable.length} proposals?`
          }
          confirmLabel={asking === "approve" ? "Approve all" : "Reject all"}
          pending={progress !== null}
          onCancel={() => setAsking(null)}
          onConfirm={() => void run(asking)}
        >
          {asking === "approve" ? (
            <>
              <p>Each is approved with its highlighted approval (new CFB, update or merge), as on its card.</p>
              {held.length > 0 ? (
                <p className="badge warn" data-testid="bulk-held">
                  {held.length} not approved here, to decide one by one: {heldSummary(held.map((p) => p.actions))}.
                </p>
              ) : null}
            </>
          ) : (
            <label className="field">
              <span>Reason (shown to each proposer in their thread)</span>
              <textarea rows={3} maxLength={1000} value={reason} onChange={(e) => setReason(e.target.value)} />
            </label>
          )}
          {progress ? (
            <p role="status">
              Deciding {progress.at} of {progress.of}…
            </p>
          ) : null}
        </ConfirmDialog>
      ) : null}
    </section>
  );
}

/**
 * One line after a bulk decision: how many landed, and each that did not with the server's
 * reason. A Jam editor can undo the run for 10 s: each proposal reopened, latest first (a later
 * approval may have updated a CFB an earlier one wrote), pending again with its decision kept in
 * its history, and the CFBs an approval wrote put back as they were.
 */
export function BulkOutcome({
  outcome,
  jam,
  onDismiss,
}: {
  outcome: TBulkOutcome;
  jam: boolean;
  onDismiss: () => void;
}) {
  const client = useTRPCClient();
  const refresh = useRefreshDecisions();
  const [undoable, closeUndo] = useUndoWindow(outcome.at, jam && outcome.decided.length > 0);
  const [undoing, setUndoing] = useState(false);
  const [undone, setUndone] = useState<{ back: number; failed: TBulkOutcome["failed"] } | null>(null);
  async function undo() {
    closeUndo();
    setUndoing(true);
    const failed: TBulkOutcome["failed"] = [];
    for (const decision of [...outcome.decided].reverse()) {
      try {
        await client.proposals.reopen.mutate(decision);
      } catch (error) {
        failed.push({ id: decision.proposal_id, title: decision.proposal_id, message: (error as Error).message });
      }
    }
    setUndone({ back: outcome.decided.length - failed.length, failed });
    setUndoing(false);
    await refresh();
  }
  return (
    <div className="row wrap" role="status" data-testid="bulk-outcome">
      <span>
        {outcome.done} {outcome.kind === "approve" ? "approved" : "rejected"}
        {outcome.failed.length > 0 ? `, ${outcome.failed.length} not:` : "."}
        {undoing ? " Undoing…" : ""}
        {undone ? ` Undone: ${undone.back} of ${outcome.decided.length} back in the queue.` : ""}
      </span>
      {undoable ? (
        <button type="button" onClick={() => void undo()}>
          Undo
        </button>
      ) : null}
      {undone && undone.failed.length > 0 ? (
        <ul>
          {undone.failed.map((f) => (
            <li key={f.id}>
              {f.id}: {errorText(f)}
            </li>
          ))}
        </ul>
      ) : null}
      {outcome.failed.length > 0 ? (
        <ul>
          {outcome.failed.map((f) => (
            <li key={f.id}>
              {f.title}: {errorText(f)}
            </li>
          ))}
        </ul>
      ) : null}
      <button type="button" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}

/** Assigns the selection to a Jam editor (or clears it). */
function AssignControl({ ids, onAssigned }: { ids: readonly string[]; onAssigned?: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const users = useQuery(trpc.users.list.queryOptions());
  const assign = useMutation(
    trpc.proposals.assign.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.proposals.pathKey() });
        onAssigned?.();
      },
    }),
  );
  const editors = (users.data?.items ?? []).filter((u) => u.role === "jam");
  return (
    <>
      <label className="row">
        <span className="muted">Assign to</span>
        <select
          className="inline"
          value=""
          disabled={assign.isPending}
          onChange={(e) => {
            const v = e.target.value;
            if (v) assign.mutate({ proposal_ids: [...ids], assignee_id: v === "-" ? null : v });
          }}
        >
          <option value="">choose…</option>
          {editors.map((u) => (
            <option key={u.id} value={u.id}>
              {u.name || u.email}
            </option>
          ))}
          <option value="-">nobody (unassign)</option>
        </select>
      </label>
      <ErrorAlert what="Could not assign" error={assign.error} />
    </>
  );
}

/** "Select all N shown": ticks every open proposal on screen, or none (shown for two or more). */
export function SelectAll({
  open,
  ticked,
  set,
}: {
  open: readonly TProposalQueueItem[];
  ticked: number;
  set: (ids: ReadonlySet<string>) => void;
}) {
  if (open.length < 2) return null;
  return (
    <label className="row muted">
      <input
        type="checkbox"
        checked={ticked === open.length}
        onChange={(e) => set(e.target.checked ? new Set(open.map((p) => p.proposal_id)) : new Set())}
        data-testid="select-all"
      />
      Select all {open.length} shown
    </label>
  );
}
