"use client";
import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { useTRPC } from "@/lib/trpc";

/** How often the nav asks again, so a proposal made in another tab shows up without a reload. */
const REFRESH_MS = 15_000;

/**
 * The number of proposals waiting for a decision, beside the nav's Review link (the same count
 * the queue's "pending" tab shows: a group of twins counts once). Nothing when none wait.
 */
export function PendingBadge() {
  const trpc = useTRPC();
  const queue = useQuery(
    trpc.proposals.list.queryOptions({ status: "pending", limit: 1 }, { refetchInterval: REFRESH_MS }),
  );
  const pending = queue.data?.counts.pending ?? 0;
  // The tab says it too ("(4) Review queue · Solserver"), for a reviewer working in another tab.
  useEffect(() => {
    const base = document.title.replace(/^\(\d+\+?\) /, "");
    document.title = pending > 0 ? `(${pending > 999 ? "999+" : pending}) ${base}` : base;
  });
  if (pending === 0) return null;
  return (
    <span className="nav-count" data-testid="pending-badge">
      <span aria-hidden="true">{pending > 999 ? "999+" : pending}</span>
      <span className="visually-hidden"> ({pending} pending)</span>
    </span>
  );
}

/**
 * The number of workflow checkpoints waiting for this editor's decision, beside the nav's
 * Checkpoints link (checkpoints assigned to others are not counted). Nothing when none wait.
 */
export function CheckpointBadge() {
  const trpc = useTRPC();
  const waiting = useQuery(trpc.workflows.waiting.queryOptions(undefined, { refetchInterval: REFRESH_MS }));
  const count = waiting.data?.count ?? 0;
  if (count === 0) return null;
  return (
    <span className="nav-count" data-testid="checkpoint-badge">
      <span aria-hidden="true">{count >= 100 ? "99+" : count}</span>
      <span className="visually-hidden"> ({count} waiting for your decision)</span>
    </span>
  );
}
