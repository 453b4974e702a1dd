"use client";
import { useInfiniteQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/lib/trpc";
import { PromotionTriggers } from "./promotion-triggers";
import { ProposalCard } from "./proposal-card";
import { useMe } from "./require-session";
import { ErrorAlert, LoadMore } from "./ui";

const STATUSES = ["pending", "approved", "rejected"] as const;

export function ProposalQueue() {
  const trpc = useTRPC();
  const me = useMe();
  const [status, setStatus] = useState<(typeof STATUSES)[number]>("pending");
  const query = useInfiniteQuery(
    trpc.proposals.list.infiniteQueryOptions(
      { status, limit: 20 },
      { getNextPageParam: (page) => page.next_cursor ?? undefined },
    ),
  );
  const counts = query.data?.pages[0]?.counts;
  const items = query.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <section className="panel" aria-labelledby="queue-heading">
      <h2 id="queue-heading">Review queue</h2>
      {me.data?.role === "jam" ? <PromotionTriggers /> : null}
      <fieldset className="tabs" aria-label="Proposal status">
        {STATUSES.map((s) => (
          <button key={s} type="button" aria-pressed={status === s} onClick={() => setStatus(s)}>
            {s} {counts ? `(${counts[s]})` : ""}
          </button>
        ))}
      </fieldset>
      {query.isPending ? <p className="muted">Loading proposals…</p> : null}
      <ErrorAlert what="Could not load proposals" error={query.error} />
      {query.isSuccess && items.length === 0 ? (
        <p className="muted">
          {status === "pending"
            ? "Nothing to review. Proposals appear here when a chat turn suggests new knowledge."
            : `No ${status} proposals yet.`}
        </p>
      ) : null}
      <div className="stack" data-testid="proposal-queue">
        {items.map((p) => (
          <ProposalCard
            key={p.proposal_id}
            proposal={p}
            status={p.status}
            finalCfbId={p.promotion?.final_cfb_id ?? null}
          />
        ))}
      </div>
      <LoadMore query={query} />
    </section>
  );
}
