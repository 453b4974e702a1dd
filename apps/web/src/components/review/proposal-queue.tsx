"use client";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useRef, useState, useSyncExternalStore } from "react";
import { useTRPC } from "@/lib/trpc";
import { useMe } from "../session/session";
import { hasNoItems, QueryState } from "../ui/query-state";
import { LoadMore } from "../ui/ui";
import { BulkBar, BulkOutcome, SelectAll, type TBulkOutcome } from "./bulk-bar";
import { DecidedHere } from "./decided-here";
import { DepartedNotices, useDepartedCards } from "./departed-cards";
import { DomainQueues } from "./domain-queues";
import { KeyboardHelp } from "./keyboard-help";
import { PromotionTriggers } from "./promotion-triggers";
import { ProposalCard } from "./proposal-card";
import { ProposalList } from "./proposal-list";
import { QueueFilters } from "./queue-filters";
import { useQueueFocus, useQueueKeys } from "./queue-focus";
import { QueueHeader } from "./queue-header";
import { type TQueueView, useQueueView } from "./queue-params";

/** The queue refreshes on its own this often, so a decision made elsewhere shows within seconds. */
const REFRESH_MS = 5_000;
/** Wide enough for the list and the current card side by side; narrower, the card opens under its line. */
const SIDE_BY_SIDE = "(min-width: 901px)";

/** The queue's pages as the view filters and sorts them, refreshed every few seconds. */
function useQueuePages(view: TQueueView, status: Exclude<TQueueView["tab"], "triggers">) {
  const trpc = useTRPC();
  return useInfiniteQuery(
    trpc.proposals.list.infiniteQueryOptions(
      {
        status,
        sort: view.sort,
        limit: 20,
        ...(view.decision ? { decision: view.decision } : {}),
        ...(view.minConfidence ? { min_confidence: Number(view.minConfidence) } : {}),
        ...(view.domain ? { domain: view.domain } : {}),
        ...(view.mine ? { assignee: "me" as const } : {}),
      },
      { getNextPageParam: (page) => page.next_cursor ?? undefined, refetchInterval: REFRESH_MS },
    ),
  );
}

/** What an empty tab says: nothing yet, or nothing that matches the filters. */
function emptyText(view: TQueueView): string {
  const status = view.tab;
  if (status !== "pending") return `No ${status === "duplicate" ? "folded twins" : `${status} proposals`} yet.`;
  return view.decision || view.domain || view.minConfidence || view.mine
    ? "Nothing pending matches these filters."
    : "Nothing to review. Proposals appear here when a chat turn suggests new knowledge.";
}

/** The proposals ticked for a bulk decision: the set, replace it, toggle one. */
function useSelection() {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  return [selected, setSelected, toggle] as const;
}

function useSideBySide(): boolean {
  return useSyncExternalStore(
    (changed) => {
      const media = window.matchMedia(SIDE_BY_SIDE);
      media.addEventListener("change", changed);
      return () => media.removeEventListener("change", changed);
    },
    () => window.matchMedia(SIDE_BY_SIDE).matches,
    () => true,
  );
}

/**
 * The review desk (/review): the queue first, full width. Tabs per status with counts that follow
 * the filters, the promotion triggers behind their own tab, filters and sort in the URL, the
 * per-domain queues, multi-select for bulk decisions, and a keyboard flow (J/K, Enter, A/E/R with
 * focus moving on to the next card, X, ?). In the list layout J/K move through the lines and the
 * current proposal's card (beside the list, or under its line on a narrow screen) takes the keys.
 */
export function ProposalQueue() {
  const trpc = useTRPC();
  const me = useMe();
  const router = useRouter();
  const jam = me.data?.role === "jam";
  const [view, setView] = useQueueView();
  const status = view.tab === "triggers" ? "pending" : view.tab;
  const [selected, setSelected, toggle] = useSelection();
  const [help, setHelp] = useState(false);
  const [bulkOutcome, setBulkOutcome] = useState<TBulkOutcome | null>(null);
  const list = useRef<HTMLDivElement>(null);
  const listed = view.layout === "list";
  const sideBySide = useSideBySide();
  const query = useQueuePages(view, status);
  const queues = useQuery(trpc.proposals.queues.queryOptions(undefined, { refetchInterval: REFRESH_MS * 6 }));
  const triggers = useQuery(trpc.triggers.list.queryOptions({ limit: 20 }, { enabled: jam }));
  const counts = query.data?.pages[0]?.counts;
  const items = query.data?.pages.flatMap((p) => p.items) ?? [];
  const shown = query.data?.pages.flatMap((p) => p.items.map((i) => i.proposal_id));
  const viewKey = `${status}|${view.decision}|${view.sort}|${view.minConfidence}|${view.domain}|${view.mine}`;
  const { departed, dismiss } = useDepartedCards(viewKey, shown);
  const triggerCount = triggers.data?.items.length ?? 0;

  const ids = items.map((p) => p.proposal_id);
  const { currentId, pane, pick, rememberFocus } = useQueueFocus(listed, ids, list);
  const currentItem = items.find((p) => p.proposal_id === currentId);

  useQueueKeys({
    listed,
    ids,
    currentId,
    list,
    pick,
    // the help dialog takes its own keys; the triggers tab has no cards
    paused: help,
    onlyHelp: view.tab === "triggers",
    onHelp: () => setHelp(true),
    onOpen: (href) => router.push(href),
    onSelect: (id) => toggle(id),
  });

  const openItems = items.filter((p) => p.status === "pending" && p.actions.allowed.length > 0);
  /** The current proposal's card in the list layout, with where it stands in the queue. */
  const currentCard = (p: (typeof items)[number]) => (
    <div className="triage-pane stack">
      <p className="muted triage-progress" data-testid="queue-progress">
        {items.indexOf(p) + 1} of {counts?.[status] ?? items.length}
      </p>
      {card(p, pane)}
    </div>
  );
  const card = (p: (typeof items)[number], cardRef?: typeof pane) => (
    <ProposalCard
      key={p.proposal_id}
      cardRef={cardRef}
      proposal={p}
      status={p.status}
      finalCfbId={p.promotion?.final_cfb_id ?? null}
      selection={{ selected: selected.has(p.proposal_id), toggle: () => toggle(p.proposal_id) }}
    />
  );
  const selectedItems = openItems.filter((p) => selected.has(p.proposal_id));
  return (
    <section className="panel stack review-desk" aria-labelledby="queue-heading">
      <QueueHeader
        view={view}
        setView={setView}
        counts={counts}
        triggerCount={triggerCount}
        jam={jam}
        onTab={(tab) => {
          if (tab !== "triggers") setSelected(new Set());
          setView({ tab });
        }}
        onHelp={() => setHelp(true)}
      />
      {view.tab === "triggers" ? (
        <PromotionTriggers />
      ) : (
        <>
          <QueueFilters
            view={view}
            set={(patch) => {
              setSelected(new Set());
              setView(patch);
            }}
            domains={queues.data?.domains.map((d) => d.domain) ?? []}
            canSeeMine={jam}
          />
          {status === "pending" && queues.data ? (
            <DomainQueues queues={queues.data} current={view.domain} onPick={(domain) => setView({ domain })} />
          ) : null}
          {selectedItems.length > 0 ? (
            <BulkBar
              items={selectedItems}
              jam={jam}
              onDone={(outcome) => {
                setSelected(new Set());
                if (outcome) setBulkOutcome(outcome);
              }}
            />
          ) : null}
          <DecidedHere jam={jam} />
          {bulkOutcome ? (
            <BulkOutcome key={bulkOutcome.at} outcome={bulkOutcome} jam={jam} onDismiss={() => setBulkOutcome(null)} />
          ) : null}
          <DepartedNotices departed={departed} dismiss={dismiss} />
          <QueryState
            query={query}
            what="proposals"
            isEmpty={hasNoItems}
            empty={emptyText(view)}
            refreshError="Could not load proposals"
          >
            {(data) => (
              // biome-ignore lint/a11y/noStaticElementInteractions: only listens for which card has the focus
              <div className="stack" data-testid="proposal-queue" ref={list} onFocus={rememberFocus}>
                {status === "pending" ? (
                  <SelectAll open={openItems} ticked={selectedItems.length} set={setSelected} />
                ) : null}
                {listed ? (
                  <div className={sideBySide ? "triage side-by-side" : "triage"}>
                    <ProposalList
                      items={items}
                      current={currentItem?.proposal_id ?? null}
                      onPick={pick}
                      selection={{ has: (id) => selected.has(id), toggle }}
                      detail={sideBySide || !currentItem ? null : currentCard(currentItem)}
                    />
                    {sideBySide && currentItem ? currentCard(currentItem) : null}
                  </div>
                ) : (
                  data.pages.flatMap((p) => p.items).map((p) => card(p))
                )}
              </div>
            )}
          </QueryState>
          <LoadMore query={query} />
        </>
      )}
      {help ? <KeyboardHelp onClose={() => setHelp(false)} /> : null}
    </section>
  );
}
