"use client";
import type React from "react";
import { type RefObject, useEffect, useRef, useState } from "react";
import { queueKey, siblingCard } from "./queue-keys";

/**
 * Where the review desk's focus is, and where it goes as cards leave the queue: when the focused
 * card goes (decided here by key or button, or by someone else), the card that followed it takes
 * the focus (or, at the end, the one before), so a keyboard review never falls back to the top of
 * the page. In the list layout, the current line's card (`pane`) takes the focus instead.
 */
export function useQueueFocus(listed: boolean, ids: readonly string[], list: RefObject<HTMLDivElement | null>) {
  const [current, setCurrent] = useState<string | null>(null);
  const pane = useRef<HTMLElement>(null);
  /** Set when the current line changed by a key or a click: its card then takes the focus. */
  const focusPane = useRef(false);
  const focused = useRef<{ id: string; order: readonly string[] } | null>(null);
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
  /** The list layout's current line: the one picked, else the first. */
  const currentId = listed ? (current !== null && ids.includes(current) ? current : (ids[0] ?? null)) : null;
  useEffect(() => {
    // Not before the line that became current is rendered (the one that left falls back to the first).
    if (!focusPane.current || currentId === null || (current !== null && currentId !== current)) return;
    focusPane.current = false;
    pane.current?.focus();
  }, [currentId, current]);
  return {
    currentId,
    pane,
    /** Makes a line current and gives its card the focus. */
    pick(id: string) {
      focused.current = { id, order: ids };
      focusPane.current = true;
      setCurrent(id);
    },
    /** Remembers which card has the focus (and the order around it), to follow it when it leaves. */
    rememberFocus(event: React.FocusEvent<HTMLDivElement>) {
      const card = event.target.closest<HTMLElement>("[data-review-card]");
      const id = card?.dataset.testid?.replace(/^proposal-/, "");
      if (id) focused.current = { id, order: ids };
    },
  };
}

/**
 * The queue's keys, from anywhere on the page (J from the top focuses the first card); a card's
 * own keys (A/E/R) need the card focused, and typing in a field is never a shortcut.
 */
export function useQueueKeys(o: {
  listed: boolean;
  ids: readonly string[];
  currentId: string | null;
  list: RefObject<HTMLDivElement | null>;
  pick: (id: string) => void;
  paused: boolean;
  /** Only "?" works (a tab without cards). */
  onlyHelp: boolean;
  onHelp: () => void;
  onOpen: (href: string) => void;
  onSelect: (id: string) => void;
}) {
  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.defaultPrevented || o.paused) return;
      const key = queueKey(event);
      if (!key) return;
      const target = event.target instanceof HTMLElement ? event.target : null;
      const card = target?.closest<HTMLElement>("[data-review-card]") ?? null;
      if (key !== "help" && o.onlyHelp) return;
      if (key === "help") o.onHelp();
      else if ((key === "next" || key === "prev") && o.listed) {
        // From outside the current card, J or K first brings the focus to it; then they move.
        const from = o.currentId;
        const id = card && from ? siblingCard(o.ids, from, key === "next" ? 1 : -1) : (from ?? o.ids[0]);
        if (id) o.pick(id);
      } else if (key === "next" || key === "prev") {
        const cards = o.list.current ? [...o.list.current.querySelectorAll<HTMLElement>("[data-review-card]")] : [];
        siblingCard(cards, card, key === "next" ? 1 : -1)?.focus();
      } else if (key === "open") {
        // Enter on a link or button inside the card does what it does; on the card, opens it.
        if (!card || event.target !== card) return;
        o.onOpen(card.dataset.href ?? "/review");
      } else if (key === "select") {
        const id = card?.dataset.testid?.replace(/^proposal-/, "");
        if (!id || card?.dataset.open !== "true") return;
        o.onSelect(id);
      }
      event.preventDefault();
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });
}
