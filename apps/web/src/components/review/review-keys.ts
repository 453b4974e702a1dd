/** What a key press means to a proposal under review: A approve, E edit, R reject. */
export type TReviewKey = "approve" | "edit" | "reject";

/** The parts of a keyboard event the shortcut readers look at. */
export type TKeyEvent = {
  key: string;
  target: EventTarget | null;
  metaKey: boolean;
  ctrlKey: boolean;
  altKey: boolean;
};

const KEYS: Record<string, TReviewKey> = { a: "approve", e: "edit", r: "reject" };

/** Whether a key press lands in something a person types into (a field, an editable element). */
export function isTypingTarget(target: EventTarget | null): boolean {
  const t = target as { tagName?: unknown; isContentEditable?: unknown } | null;
  if (t && typeof t.tagName === "string" && /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName)) return true;
  return t?.isContentEditable === true;
}

/**
 * The review shortcut a key press asks for, or null: keys typed into a field, or held with a
 * modifier (browser and OS shortcuts), are never shortcuts. Read by useReview, which the queue's
 * cards and the proposal page share, so both answer the same keys the same way.
 */
export function reviewKey(event: TKeyEvent): TReviewKey | null {
  if (event.metaKey || event.ctrlKey || event.altKey) return null;
  if (isTypingTarget(event.target)) return null;
  return KEYS[event.key.toLowerCase()] ?? null;
}
