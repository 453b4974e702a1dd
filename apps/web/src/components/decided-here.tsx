"use client";
import type { TPromoteResponse } from "@solserver/contracts";
import { useMutationState } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "@/lib/trpc";

/** How many of this tab's latest decisions the queue keeps in view. */
const SHOWN = 3;

/**
 * The decisions made from this tab, latest first: a decided card leaves the queue at once, so
 * what happened to it (and the CFB it became) is said here, announced to screen readers too.
 */
export function DecidedHere() {
  const trpc = useTRPC();
  const decided = useMutationState({
    filters: { mutationKey: trpc.promotion.promote.mutationKey(), status: "success" },
    select: (m) => m.state.data as TPromoteResponse | undefined,
  });
  const latest = decided
    .filter((d): d is TPromoteResponse => d !== undefined)
    .slice(-SHOWN)
    .reverse();
  return (
    <div role="status" aria-live="polite" className="decided-here">
      {latest.length > 0 ? (
        <ul className="plain" data-testid="decided-here">
          {latest.map((d) => (
            <li key={d.promotion_id}>
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
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
