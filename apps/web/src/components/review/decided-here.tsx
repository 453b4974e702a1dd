"use client";
import type { TPromoteResponse } from "@solserver/contracts";
import { useMutation, useMutationState } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useState } from "react";
import { useTRPC } from "@/lib/trpc";
import { ErrorAlert } from "../ui/ui";
import { useRefreshDecisions } from "./use-promote";

/** How many of this tab's latest decisions the queue keeps in view. */
const SHOWN = 3;
/** How long a decision made here offers Undo. */
const UNDO_MS = 10_000;

/** Whether a decision made at `at` (epoch ms) still offers Undo; false once the 10 s are over. */
export function useUndoWindow(at: number, allowed: boolean): [boolean, () => void] {
  const [open, setOpen] = useState(() => allowed && Date.now() - at < UNDO_MS);
  useEffect(() => {
    if (!open) return;
    const timer = setTimeout(() => setOpen(false), Math.max(0, UNDO_MS - (Date.now() - at)));
    return () => clearTimeout(timer);
  }, [open, at]);
  return [open, () => setOpen(false)];
}

/** The mutation meta of a bulk run's decisions: its own summary line says them (bulk-bar.tsx). */
export const BULK_META = { bulk: true } as const;

/**
 * The decisions made one by one from this tab, latest first: a decided card leaves the queue at
 * once, so what happened to it (and the CFB it became) is said here, announced to screen readers
 * too, with Undo for a Jam editor for 10 s (proposals.reopen: pending again, the CFBs an
 * approval wrote put back as they were).
 */
export function DecidedHere({ jam }: { jam: boolean }) {
  const trpc = useTRPC();
  const decided = useMutationState({
    filters: {
      mutationKey: trpc.promotion.promote.mutationKey(),
      status: "success",
      predicate: (m) => m.options.meta?.bulk !== true,
    },
    select: (m) => ({ decision: m.state.data as TPromoteResponse | undefined, at: m.state.submittedAt }),
  });
  const latest = decided
    .filter((d): d is { decision: TPromoteResponse; at: number } => d.decision !== undefined)
    .slice(-SHOWN)
    .reverse();
  return (
    <div role="status" aria-live="polite" className="decided-here">
      {latest.length > 0 ? (
        <ul className="plain" data-testid="decided-here">
          {latest.map((d) => (
            <DecisionLine key={d.decision.promotion_id} decision={d.decision} at={d.at} jam={jam} />
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function DecisionLine({ decision: d, at, jam }: { decision: TPromoteResponse; at: number; jam: boolean }) {
  const trpc = useTRPC();
  const refresh = useRefreshDecisions();
  const [undoable, closeUndo] = useUndoWindow(at, jam);
  const undo = useMutation(
    trpc.proposals.reopen.mutationOptions({
      onSettled: async () => {
        closeUndo();
        await refresh();
      },
    }),
  );
  return (
    <li className={d.status === "approved" ? "ok" : "bad"}>
      {d.status === "approved" ? "Approved" : "Rejected"}{" "}
      <Link href={`/proposals/${d.proposal_id}`}>{d.cfb?.title ?? d.proposal_id}</Link>
      {d.final_cfb_id ? (
        <>
          {" "}
          as <Link href={`/cfbs/${d.final_cfb_id}`}>{d.final_cfb_id}</Link>
        </>
      ) : null}
      {d.folded_proposal_ids.length > 0
        ? ` (and ${d.folded_proposal_ids.length} twin${d.folded_proposal_ids.length === 1 ? "" : "s"})`
        : ""}
      {undo.isSuccess ? " · undone, back in the queue" : null}
      {undoable && !undo.isSuccess ? (
        <>
          {" "}
          <button
            type="button"
            className="link-button"
            disabled={undo.isPending}
            onClick={() => undo.mutate({ proposal_id: d.proposal_id, promotion_id: d.promotion_id })}
          >
            {undo.isPending ? "Undoing…" : "Undo"}
          </button>
        </>
      ) : null}
      <ErrorAlert what="Could not undo" error={undo.error} />
    </li>
  );
}
