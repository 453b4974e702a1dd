"use client";
import Link from "next/link";
import type { TQueueTab, TQueueView } from "./queue-params";

const STATUS_LABELS: Record<Exclude<TQueueTab, "triggers">, string> = {
  pending: "pending",
  approved: "approved",
  rejected: "rejected",
  duplicate: "folded twins",
};
/** The triggers tab counts up to the one page it lists. */
const TRIGGERS_SHOWN = 20;

/** The review desk's title row (layout, glossary, shortcuts) and its tabs per status, with counts. */
export function QueueHeader({
  view,
  setView,
  counts,
  triggerCount,
  jam,
  onTab,
  onHelp,
}: {
  view: TQueueView;
  setView: (patch: Partial<TQueueView>) => void;
  counts: Record<Exclude<TQueueTab, "triggers">, number> | undefined;
  triggerCount: number;
  /** Only Jam editors see the triggers tab. */
  jam: boolean;
  onTab: (tab: TQueueTab) => void;
  onHelp: () => void;
}) {
  return (
    <>
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
          <button type="button" className="link-button hide-narrow" onClick={onHelp} aria-keyshortcuts="?">
            Keyboard shortcuts <kbd>?</kbd>
          </button>
        </div>
      </div>
      <fieldset className="tabs" aria-label="Proposal status">
        {(Object.keys(STATUS_LABELS) as (keyof typeof STATUS_LABELS)[]).map((s) => (
          <button key={s} type="button" aria-pressed={view.tab === s} onClick={() => onTab(s)}>
            {STATUS_LABELS[s]} {counts ? `(${counts[s]})` : ""}
          </button>
        ))}
        {jam ? (
          <button
            type="button"
            aria-pressed={view.tab === "triggers"}
            onClick={() => onTab("triggers")}
            data-testid="triggers-tab"
          >
            triggers ({triggerCount >= TRIGGERS_SHOWN ? `${TRIGGERS_SHOWN}+` : triggerCount})
          </button>
        ) : null}
      </fieldset>
    </>
  );
}
