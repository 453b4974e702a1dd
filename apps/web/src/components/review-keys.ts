/** What a key press means to a proposal under review: A approve, E edit, R reject. */
export type TReviewKey = "approve" | "edit" | "reject";

const KEYS: Record<string, TReviewKey> = { a: "approve", e: "edit", r: "reject" };

/**
 * The review shortcut a key press asks for, or null: keys typed into a field, or held with a
 * modifier (browser and OS shortcuts), are never shortcuts. Read by useReview, which the queue's
 * cards and the proposal page share, so both answer the same keys the same way.
 */
export function reviewKey(event: {
  key: string;
  target: EventTarget | null;
  metaKey: boolean;
  ctrlKey: boolean;
  altKey: boolean;
}): TReviewKey | null {
  if (event.metaKey || event.ctrlKey || event.altKey) return null;
  const target = event.target as { tagName?: unknown; isContentEditable?: unknown } | null;
  if (target && typeof target.tagName === "string" && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return null;
  if (target?.isContentEditable === true) return null;
  return KEYS[event.key.toLowerCase()] ?? null;
}
