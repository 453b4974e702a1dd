"use client";
import { usePathname, useRouter, useSearchParams } from "next/navigation";

/** The queue's tabs: the four statuses, and (Jam editors) the promotion triggers. */
const QUEUE_TABS = ["pending", "approved", "rejected", "duplicate", "triggers"] as const;
export const DECISIONS = ["update", "review", "create", "merge"] as const;
export const SORTS = { newest: "newest first", oldest: "oldest first", confidence: "most confident first" } as const;
export const CONFIDENCES = ["0.5", "0.8"] as const;
/** Cards (the default) or the dense list with the current proposal's card beside it. */
const LAYOUTS = ["cards", "list"] as const;

export type TQueueTab = (typeof QUEUE_TABS)[number];
export type TDecision = (typeof DECISIONS)[number];
export type TSort = keyof typeof SORTS;

/** What the queue shows, as the URL says it: shareable, bookmarkable, kept on reload and Back. */
export type TQueueView = {
  tab: TQueueTab;
  decision: TDecision | "";
  sort: TSort;
  minConfidence: (typeof CONFIDENCES)[number] | "";
  domain: string;
  mine: boolean;
  layout: (typeof LAYOUTS)[number];
};

const DEFAULTS: TQueueView = {
  tab: "pending",
  decision: "",
  sort: "newest",
  minConfidence: "",
  domain: "",
  mine: false,
  layout: "cards",
};

function oneOf<T extends string>(value: string | null, allowed: readonly T[], fallback: T): T {
  return value !== null && (allowed as readonly string[]).includes(value) ? (value as T) : fallback;
}

/** Reads a view from a query string; anything unknown falls back to the default (a stale link still opens). */
function parseQueueView(params: { get: (key: string) => string | null }): TQueueView {
  const domain = (params.get("domain") ?? "").trim();
  return {
    tab: oneOf(params.get("status"), QUEUE_TABS, DEFAULTS.tab),
    decision: oneOf(params.get("decision"), [...DECISIONS, ""], ""),
    sort: oneOf(params.get("sort"), Object.keys(SORTS) as TSort[], DEFAULTS.sort),
    minConfidence: oneOf(params.get("confidence"), [...CONFIDENCES, ""], ""),
    domain: /^[\w.-]{1,64}$/.test(domain) ? domain : "",
    mine: params.get("mine") === "1",
    layout: oneOf(params.get("layout"), LAYOUTS, DEFAULTS.layout),
  };
}

/** The query string of a view, defaults left out (the plain queue is just /review). */
export function queueViewQuery(view: TQueueView): string {
  const q = new URLSearchParams();
  if (view.tab !== DEFAULTS.tab) q.set("status", view.tab);
  if (view.decision) q.set("decision", view.decision);
  if (view.sort !== DEFAULTS.sort) q.set("sort", view.sort);
  if (view.minConfidence) q.set("confidence", view.minConfidence);
  if (view.domain) q.set("domain", view.domain);
  if (view.mine) q.set("mine", "1");
  if (view.layout !== DEFAULTS.layout) q.set("layout", view.layout);
  const text = q.toString();
  return text ? `?${text}` : "";
}

/** The view in the URL, and a setter that replaces the URL (no history entry per filter click). */
export function useQueueView(): [TQueueView, (patch: Partial<TQueueView>) => void] {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const view = parseQueueView(params);
  const set = (patch: Partial<TQueueView>) =>
    router.replace(`${pathname}${queueViewQuery({ ...view, ...patch })}`, { scroll: false });
  return [view, set];
}
