"use client";
import { useEffect, useRef } from "react";
import {
  CONFIDENCES,
  DECISIONS,
  queueViewQuery,
  SORTS,
  type TDecision,
  type TQueueView,
  type TSort,
} from "./queue-params";
import { SavedViews } from "./saved-views";

/** Resolve's decisions in words (the glossary on the proposal page says more). */
export const DECISION_WORDS: Record<TDecision, string> = {
  update: "updates a CFB",
  review: "needs a look",
  create: "new knowledge",
  merge: "merges two CFBs",
};

/**
 * The queue's filters and sort, all kept in the URL. In a <details>, folded on a phone so the
 * first card is on the first screen.
 */
export function QueueFilters({
  view,
  set,
  domains,
  canSeeMine,
}: {
  view: TQueueView;
  set: (patch: Partial<TQueueView>) => void;
  domains: readonly string[];
  canSeeMine: boolean;
}) {
  const details = useRef<HTMLDetailsElement>(null);
  // Open where there is room; on a phone folded, so the first card is on the first screen.
  useEffect(() => {
    if (details.current && window.matchMedia("(min-width: 700px)").matches) details.current.open = true;
  }, []);
  const active = [view.decision, view.minConfidence, view.domain, view.mine ? "mine" : ""].filter(Boolean).length;
  return (
    <details ref={details} className="queue-filters" data-testid="queue-filters">
      <summary>Filters and sort{active > 0 ? ` (${active} on)` : ""}</summary>
      <div className="row wrap">
        <label className="row">
          <span className="muted">Resolve</span>
          <select
            className="inline"
            value={view.decision}
            onChange={(e) => set({ decision: e.target.value as TDecision | "" })}
          >
            <option value="">any decision</option>
            {DECISIONS.map((d) => (
              <option key={d} value={d}>
                {d}: {DECISION_WORDS[d]}
              </option>
            ))}
          </select>
        </label>
        <label className="row">
          <span className="muted">Domain</span>
          <select className="inline" value={view.domain} onChange={(e) => set({ domain: e.target.value })}>
            <option value="">every domain</option>
            {[...new Set([...domains, ...(view.domain ? [view.domain] : [])])].map((d) => (
              <option key={d} value={d}>
                {d}
              </option>
            ))}
          </select>
        </label>
        <label className="row">
          <span className="muted">Confidence</span>
          <select
            className="inline"
            value={view.minConfidence}
            onChange={(e) => set({ minConfidence: e.target.value as TQueueView["minConfidence"] })}
          >
            <option value="">any</option>
            {CONFIDENCES.map((c) => (
              <option key={c} value={c}>
                ≥ {c}
              </option>
            ))}
          </select>
        </label>
        <label className="row">
          <span className="muted">Sort</span>
          <select className="inline" value={view.sort} onChange={(e) => set({ sort: e.target.value as TSort })}>
            {(Object.keys(SORTS) as TSort[]).map((k) => (
              <option key={k} value={k}>
                {SORTS[k]}
              </option>
            ))}
          </select>
        </label>
        {canSeeMine ? (
          <label className="row">
            <input type="checkbox" checked={view.mine} onChange={(e) => set({ mine: e.target.checked })} />
            <span>Assigned to me</span>
          </label>
        ) : null}
        {active > 0 ? (
          <button type="button" onClick={() => set({ decision: "", minConfidence: "", domain: "", mine: false })}>
            Clear filters
          </button>
        ) : null}
      </div>
      <SavedViews query={queueViewQuery(view)} />
    </details>
  );
}
