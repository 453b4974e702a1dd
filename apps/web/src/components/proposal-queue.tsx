"use client";
import { useInfiniteQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/lib/trpc";
import { DepartedNotice, useDepartedCards } from "./departed-cards";
import { PromotionTriggers } from "./promotion-triggers";
import { ProposalCard } from "./proposal-card";
import { hasNoItems, QueryState } from "./query-state";
import { useMe } from "./session";
import { LoadMore } from "./ui";

const STATUSES = ["pending", "approved", "rejected", "duplicate"] as const;
const STATUS_LABELS: Record<(typeof STATUSES)[number], string> = {
  pending: "pending",
  approved: "approved",
  rejected: "rejected",
  duplicate: "folded twins",
};
/** The queue refreshes on its own this often, so a decision made elsewhere shows within seconds. */
const REFRESH_MS = 5_000;
const DECISIONS = ["update", "review", "create", "merge"] as const;
const SORTS = { newest: "newest first", oldest: "oldest first", confidence: "most confident first" } as const;
type TDecision = (typeof DECISIONS)[number];
type TSort = keyof typeof SORTS;

export function ProposalQueue() {
  const trpc = useTRPC();
  const me = useMe();
  const [status, setStatus] = useState<(typeof STATUSES)[number]>("pending");
  const [decision, setDecision] = useState<TDecision | "">("");
  const [sort, setSort] = useState<TSort>("newest");
  const [minConfidence, setMinConfidence] = useState("");
  const query = useInfiniteQuery(
    trpc.proposals.list.infiniteQueryOptions(
      {
        status,
        sort,
        limit: 20,
        ...(decision ? { decision } : {}),
        ...(minConfidence ? { min_confidence: Number(minConfidence) } : {}),
      },
      { getNextPageParam: (page) => page.next_cursor ?? undefined, refetchInterval: REFRESH_MS },
    ),
  );
  const counts = query.data?.pages[0]?.counts;
  const shown = query.data?.pages.flatMap((p) => p.items.map((i) => i.proposal_id));
  const { departed, dismiss } = useDepartedCards(`${status}|${decision}|${sort}|${minConfidence}`, shown);
  return (
    <section className="panel" aria-labelledby="queue-heading">
      <h2 id="queue-heading">Review queue</h2>
      {me.data?.role === "jam" ? <PromotionTriggers /> : null}
      <fieldset className="tabs" aria-label="Proposal status">
        {STATUSES.map((s) => (
          <button key={s} type="button" aria-pressed={status === s} onClick={() => setStatus(s)}>
            {STATUS_LABELS[s]} {counts ? `(${counts[s]})` : ""}
          </button>
        ))}
      </fieldset>
      <div className="row wrap" data-testid="queue-filters">
        <label className="row">
          <span className="muted">Resolve</span>
          <select className="inline" value={decision} onChange={(e) => setDecision(e.target.value as TDecision | "")}>
            <option value="">any decision</option>
            {DECISIONS.map((d) => (
              <option key={d} value={d}>
                {d}
              </option>
            ))}
          </select>
        </label>
        <label className="row">
          <span className="muted">Confidence</span>
          <select className="inline" value={minConfidence} onChange={(e) => setMinConfidence(e.target.value)}>
            <option value="">any</option>
            <option value="0.5">≥ 0.5</option>
            <option value="0.8">≥ 0.8</option>
          </select>
        </label>
        <label className="row">
          <span className="muted">Sort</span>
          <select className="inline" value={sort} onChange={(e) => setSort(e.target.value as TSort)}>
            {(Object.keys(SORTS) as TSort[]).map((k) => (
              <option key={k} value={k}>
                {SORTS[k]}
              </option>
            ))}
          </select>
        </label>
      </div>
      <p className="muted">
        Keys: focus a proposal, then <kbd>A</kbd> approve · <kbd>E</kbd> edit (Jam) · <kbd>R</kbd> reject.
      </p>
      {departed.length > 0 ? (
        <section className="stack" aria-label="Changed while you were looking" aria-live="polite">
          {departed.map((id) => (
            <DepartedNotice key={id} proposalId={id} onDismiss={() => dismiss(id)} />
          ))}
        </section>
      ) : null}
      <QueryState
        query={query}
        what="proposals"
        isEmpty={hasNoItems}
        empty={
          status === "pending"
            ? "Nothing to review. Proposals appear here when a chat turn suggests new knowledge."
            : `No ${status === "duplicate" ? "folded twins" : `${status} proposals`} yet.`
        }
        refreshError="Could not load proposals"
      >
        {(data) => (
          <div className="stack" data-testid="proposal-queue">
            {data.pages
              .flatMap((p) => p.items)
              .map((p) => (
                <ProposalCard
                  key={p.proposal_id}
                  proposal={p}
                  status={p.status}
                  finalCfbId={p.promotion?.final_cfb_id ?? null}
                />
              ))}
          </div>
        )}
      </QueryState>
      <LoadMore query={query} />
    </section>
  );
}
