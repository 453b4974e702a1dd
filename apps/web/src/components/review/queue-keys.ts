import { isTypingTarget, type TKeyEvent } from "./review-keys";

/** What a key press means to the review queue as a whole (the card's own keys are in review-keys.ts). */
export type TQueueKey = "next" | "prev" | "open" | "select" | "help";

const KEYS: Record<string, TQueueKey> = { j: "next", k: "prev", enter: "open", x: "select", "?": "help" };

/**
 * The queue shortcut a key press asks for, or null: J/K move between cards, Enter opens the
 * focused one, X selects it for a bulk decision, ? shows every key. Never while typing in a
 * field or with a modifier held (Shift is part of "?").
 */
export function queueKey(event: TKeyEvent): TQueueKey | null {
  if (event.metaKey || event.ctrlKey || event.altKey) return null;
  if (isTypingTarget(event.target)) return null;
  return KEYS[event.key.toLowerCase()] ?? null;
}

/** The card `step` places after (1) or before (-1) `from` among `cards`, staying at the ends. */
export function siblingCard<T>(cards: readonly T[], from: T | null, step: 1 | -1): T | undefined {
  if (cards.length === 0) return undefined;
  const at = from === null ? -1 : cards.indexOf(from);
  if (at === -1) return step === 1 ? cards[0] : cards[cards.length - 1];
  return cards[Math.min(cards.length - 1, Math.max(0, at + step))];
}
