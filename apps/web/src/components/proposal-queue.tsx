"use client";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import type React from "react";
import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { useTRPC } from "@/lib/trpc";
import { BulkBar, BulkOutcome, type TBulkOutcome } from "./bulk-bar";
import { DecidedHere } from "./decided-here";
import { DepartedNotice, useDepartedCards } from "./departed-cards";
import { DomainQueues } from "./domain-queues";
import { KeyboardHelp } from "./keyboard-help";
import { PromotionTriggers } from "./promotion-triggers";
import { ProposalCard } from "./proposal-card";
import { ProposalList } from "./proposal-list";
import { hasNoItems, QueryState } from "./query-state";
import { QueueFilters } from "./queue-filters";
import { queueKey, siblingCard } from "./queue-keys";
import { type TQueueTab, useQueueView } from "./queue-params";
import { useMe } from "./session";
import { LoadMore } from "./ui";

const STATUS_LABELS: Record<Exclude<TQueueTab, "triggers">, string> = {
  pending: "pending",
  approved: "approved",
  rejected: "rejected",
  duplicate: "folded twins",
};
/** The queue refreshes on its own this often, so a decision made elsewhere shows within seconds. */
const REFRESH_MS = 5_000;
/** Wide enough for the list and the current card side by side; narrower, the card opens under its line. */
const SIDE_BY_SIDE = "(min-width: 901px)";

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
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [help, setHelp] = useState(false);
  const [bulkOutcome, setBulkOutcome] = useState<TBulkOutcome | null>(null);
  const list = useRef<HTMLDivElement>(null);
  const listed = view.layout === "list";
  const sideBySide = useSideBySide();
  const [current, setCurrent] = useState<string | null>(null);
  const pane = useRef<HTMLElement>(null);
  /** Set when the current line changed by a key or a click: its card then takes the focus. */
  const focusPane = useRef(false);
  const query = useInfiniteQuery(
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
  const queues = useQuery(trpc.proposals.queues.queryOptions(undefined, { refetchInterval: REFRESH_MS * 6 }));
  const triggers = useQuery(trpc.triggers.list.queryOptions({ limit: 20 }, { enabled: jam }));
  const counts = query.data?.pages[0]?.counts;
  const items = query.data?.pages.flatMap((p) => p.items) ?? [];
  const shown = query.data?.pages.flatMap((p) => p.items.map((i) => i.proposal_id));
  const viewKey = `${status}|${view.decision}|${view.sort}|${view.minConfidence}|${view.domain}|${view.mine}`;
  const { departed, dismiss } = useDepartedCards(viewKey, shown);
  const triggerCount = triggers.data?.items.length ?? 0;

  // Focus stays in the queue as cards leave it: when the focused card goes (decided here by key
  // or button, or by someone else), the card that followed it takes the focus (or, at the end,
  // the one before), so a keyboard review never falls back to the top of the page.
  const focused = useRef<{ id: string; order: string[] } | null>(null);
  const ids = items.map((p) => p.proposal_id);
  const idsKey = ids.join(",");
  // biome-ignore lint/correctness/useExhaustiveDependencies: `idsKey` stands for `ids`, compared by value
  useEffect(() => {
    if (listed) {
      // The current proposal left (decided here or elsewhere): the one after it is current.
      const gone = current ?? focused.current?.id ?? null;
      if (gone === null || ids.includes(gone)) return;
      const order = focused.current?.order ?? [];
      const at = order.indexOf(gone);
      const next = order.slice(at + 1).find((id) => ids.includes(id)) ?? ids[0] ?? null;
      focusPane.current = document.activeElement === null || document.activeElement === document.body;
      setCurrent(next);
      return;
    }
    const was = focused.current;
    if (!was || ids.includes(was.id)) return;
    if (document.activeElement && document.activeElement !== document.body) return;
    const at = was.order.indexOf(was.id);
    const after = was.order.slice(at + 1).find((id) => ids.includes(id));
    const before = was.order
      .slice(0, Math.max(0, at))
      .reverse()
      .find((id) => ids.includes(id));
    const next = after ?? before;
    if (next) list.current?.querySelector<HTMLElement>(`[data-testid="proposal-${next}"]`)?.focus();
  }, [idsKey]);
  const currentItem = listed ? (items.find((p) => p.proposal_id === current) ?? items[0]) : undefined;
  useEffect(() => {
    // Not before the line that became current is rendered (the one that left falls back to the first).
    if (!focusPane.current || !currentItem || (current !== null && currentItem.proposal_id !== current)) return;
    focusPane.current = false;
    pane.current?.focus();
  }, [currentItem, current]);
  /** Makes a line current and gives its card the focus. */
  function pick(id: string) {
    focused.current = { id, order: ids };
    focusPane.current = true;
    setCurrent(id);
  }

  function rememberFocus(event: React.FocusEvent<HTMLDivElement>) {
    const card = event.target.closest<HTMLElement>("[data-review-card]");
    const id = card?.dataset.testid?.replace(/^proposal-/, "");
    if (id) focused.current = { id, order: ids };
  }

  // The queue's keys work from anywhere on the page (J from the top focuses the first card);
  // a card's own keys (A/E/R) need the card focused, and typing in a field is never a shortcut.
  useEffect(() => {
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });

  function onKey(event: KeyboardEvent) {
    if (event.defaultPrevented || help) return;
    const key = queueKey(event);
    if (!key) return;
    const target = event.target instanceof HTMLElement ? event.target : null;
    const card = target?.closest<HTMLElement>("[data-review-card]") ?? null;
    if (key !== "help" && view.tab === "triggers") return;
    if (key === "help") setHelp(true);
    else if ((key === "next" || key === "prev") && listed) {
      // From outside the current card, J or K first brings the focus to it; then they move.
      const from = currentItem?.proposal_id ?? null;
      const id = card && from ? siblingCard(ids, from, key === "next" ? 1 : -1) : (from ?? ids[0]);
      if (id) pick(id);
    } else if (key === "next" || key === "prev") {
      const cards = list.current ? [...list.current.querySelectorAll<HTMLElement>("[data-review-card]")] : [];
      siblingCard(cards, card, key === "next" ? 1 : -1)?.focus();
    } else if (key === "open") {
      // Enter on a link or button inside the card does what it does; on the card, opens it.
      if (!card || event.target !== card) return;
      router.push(card.dataset.href ?? "/review");
    } else if (key === "select") {
      const id = card?.dataset.testid?.replace(/^proposal-/, "");
      if (!id || card?.dataset.open !== "true") return;
      toggle(id);
    }
    event.preventDefault();
  }

  function toggle(id: string) {
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }

  const openItems = items.filter((p) => p.status === "pending" && p.actions.allowed.length > 0);
  /** The current proposal's card in the list layout, with where it stands in the queue. */
  const currentCard = (p: (typeof items)[number]) => (
    <div className="triage-pane stack">
      <p className="muted triage-progress" data-testid="queue-progress">
        {items.indexOf(p) + 1} of {counts?.[status] ?? items.length}
      </p>
      <ProposalCard
        key={p.proposal_id}
        cardRef={pane}
        proposal={p}
        status={p.status}
        finalCfbId={p.promotion?.final_cfb_id ?? null}
        selection={{ selected: selected.has(p.proposal_id), toggle: () => toggle(p.proposal_id) }}
      />
    </div>
  );
  const selectedItems = openItems.filter((p) => selected.has(p.proposal_id));
  return (
    <section className="panel stack review-desk" aria-labelledby="queue-heading">
      <div className="row spread">
        <h1 id="queue-heading" className="page-title">
          Review queue
        </h1>
        <div className="row">
          <fieldset className="tabs compact" aria-label="Layout">
            {(["cards", "list"] as const).map((layout) => (
              <button
                key={layout}
                type="button"
                aria-pressed={view.layout === layout}
                onClick={() => setView({ layout })}
              >
                {layout === "cards" ? "Cards" : "List"}
              </button>
            ))}
          </fieldset>
          <Link href="/glossary">Glossary</Link>
          <button type="button" className="link-button hide-narrow" onClick={() => setHelp(true)} aria-keyshortcuts="?">
            Keyboard shortcuts <kbd>?</kbd>
          </button>
        </div>
      </div>
      <fieldset className="tabs" aria-label="Proposal status">
        {(Object.keys(STATUS_LABELS) as (keyof typeof STATUS_LABELS)[]).map((s) => (
          <button
            key={s}
            type="button"
            aria-pressed={view.tab === s}
            onClick={() => {
              setSelected(new Set());
              setView({ tab: s });
            }}
          >
            {STATUS_LABELS[s]} {counts ? `(${counts[s]})` : ""}
          </button>
        ))}
        {jam ? (
          <button
            type="button"
            aria-pressed={view.tab === "triggers"}
            onClick={() => setView({ tab: "triggers" })}
            data-testid="triggers-tab"
          >
            triggers ({triggerCount >= 20 ? "20+" : triggerCount})
          </button>
        ) : null}
      </fieldset>
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
                ? view.decision || view.domain || view.minConfidence || view.mine
                  ? "Nothing pending matches these filters."
                  : "Nothing to review. Proposals appear here when a chat turn suggests new knowledge."
                : `No ${status === "duplicate" ? "folded twins" : `${status} proposals`} yet.`
            }
            refreshError="Could not load proposals"
          >
            {(data) => (
              // biome-ignore lint/a11y/noStaticElementInteractions: only listens for which card has the focus
              <div className="stack" data-testid="proposal-queue" ref={list} onFocus={rememberFocus}>
                {status === "pending" && openItems.length > 1 ? (
                  <label className="row muted">
                    <input
                      type="checkbox"
                      checked={selectedItems.length === openItems.length}
                      onChange={(e) =>
                        setSelected(e.target.checked ? new Set(openItems.map((p) => p.proposal_id)) : new Set())
                      }
                      data-testid="select-all"
                    />
                    Select all {openItems.length} shown
                  </label>
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
                  data.pages
                    .flatMap((p) => p.items)
                    .map((p) => (
                      <ProposalCard
                        key={p.proposal_id}
                        proposal={p}
                        status={p.status}
                        finalCfbId={p.promotion?.final_cfb_id ?? null}
                        selection={{ selected: selected.has(p.proposal_id), toggle: () => toggle(p.proposal_id) }}
                      />
                    ))
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
