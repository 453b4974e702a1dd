import type { TGateConfig } from "@solserver/contracts";
import { scanPii } from "@solserver/gate";

// What a streamed turn sends its client while the model writes (seed 000's streamed response).
// The model's text is provisional until the output gate has judged the whole attempt, so:
//  - text goes out only up to a whitespace at least HOLDBACK characters before the end of what
//    was written: a word, a phone number or a card number still being written is held back;
//  - before each piece goes out, the PII scanner reads everything written since a little before
//    the last piece (a value that straddles the cut is seen whole); once PII shows up nothing more
//    of that attempt is sent (the gate will block the attempt anyway, and PII must never reach a
//    screen);
//  - when an attempt turns out not to be delivered (blocked, invalid, a retry started), the client
//    is told to drop what it showed of it ("retract").
// The final answer (its full text, ids, proposals, memento) follows from the caller.

export type TStreamEvent = { type: "delta"; n: number; text: string } | { type: "retract"; n: number; reason: string };

/** Characters kept back from the end of the text: longer than any PII value the scanner finds. */
const HOLDBACK = 40;
/** Characters before the released boundary that are scanned again with each new piece. */
const OVERLAP = 128;

/** Just after the last whitespace at or before `limit` (0 when there is none, or limit < 0). */
function wordBoundary(text: string, limit: number): number {
  if (limit <= 0) return 0;
  return Math.max(text.lastIndexOf(" ", limit), text.lastIndexOf("\n", limit)) + 1;
}

export type TStreamGuard = {
  /** The provider's progress: attempt `n`'s assistant_text so far. */
  onText(progress: { n: number; text: string }): void;
  /** After the model: every attempt but the delivered one (null: none) is retracted if any of it went out. */
  settle(deliveredN: number | null, reason: string): void;
};

export function createStreamGuard(send: (event: TStreamEvent) => void, pii: TGateConfig["pii"]): TStreamGuard {
  const sentBy = new Map<number, number>();
  const withheld = new Set<number>();
  const retracted = new Set<number>();
  let current: number | null = null;

  const retract = (n: number, reason: string) => {
    if ((sentBy.get(n) ?? 0) === 0 || retracted.has(n)) return;
    retracted.add(n);
    send({ type: "retract", n, reason });
  };

  return {
    onText({ n, text }) {
      if (current !== null && current !== n) retract(current, `attempt ${current} was not delivered; trying again`);
      current = n;
      if (withheld.has(n) || retracted.has(n)) return;
      const sent = sentBy.get(n) ?? 0;
      let boundary = wordBoundary(text, text.length - HOLDBACK);
      if (boundary <= sent) return;
      if (pii.enforce !== "off") {
        const from = Math.max(0, sent - OVERLAP);
        for (const match of scanPii(text.slice(from), { types: pii.types, allowlist: pii.allowlist })) {
          const start = from + match.index;
          // A value that reaches the end of what was written may still be growing (help@example.co
          // becomes an allowlisted help@example.com): release nothing from its start on, yet.
          if (start + match.value.length >= text.length) boundary = Math.min(boundary, wordBoundary(text, start));
          else {
            withheld.add(n);
            return;
          }
        }
        if (boundary <= sent) return;
      }
      send({ type: "delta", n, text: text.slice(sent, boundary) });
      sentBy.set(n, boundary);
    },
    settle(deliveredN, reason) {
      for (const n of sentBy.keys()) if (n !== deliveredN) retract(n, reason);
    },
  };
}
