import type { TGateConfig } from "@solserver/contracts";
import { scanPii } from "@solserver/gate";

// What a streamed turn sends its client while the model writes (seed 000's streamed response).
// The model's text is provisional until the output gate has judged the whole attempt, so:
//  - text goes out only up to a whitespace at least HOLDBACK characters before the end of what
//    was written: a word, a phone number or a card number still being written is held back;
//  - before each piece goes out, the PII scanner reads everything written since a little before
//    the last piece (a value that straddles the cut is seen whole); once PII shows up nothing more
//    of that attempt is sent (the gate will block the attempt anyway, and PII must never reach a
//    screen). It is the gate's scanner, reading what people read (NFKC, control and invisible
//    characters as separators: @solserver/gate's pii-read.ts); its `source` ranges say where a
//    value sits in the text as written, which is what the cut is made in;
//  - when an attempt turns out not to be delivered (blocked, invalid, a retry started), the client
//    is told to drop what it showed of it ("retract").
// The final answer (its full text, ids, proposals, memento) follows from the caller.
//
// Linear in the answer (a model server is untrusted and may send one character per chunk, or
// 20,000 characters without a space): each piece is searched for whitespace once, on its own;
// only the unreleased text (plus OVERLAP) is ever scanned; and while a value that may be PII is
// still growing at the end, it is scanned again only once the unreleased text has grown by half,
// so a long one costs a geometric series of scans, not one per chunk. (bench/stream.ts measures
// it; see docs/performance.md.)

export type TStreamEvent = { type: "delta"; n: number; text: string } | { type: "retract"; n: number; reason: string };

/** Characters kept back from the end of the text: longer than any PII value the scanner finds. */
const HOLDBACK = 40;
/** Characters before the released boundary that are scanned again with each new piece. */
const OVERLAP = 128;
/** Unreleased text up to this length is rescanned on every piece that could release some of it. */
const RESCAN_ALWAYS = 512;

export type TStreamGuard = {
  /** The provider's progress: the next piece of attempt `n`'s assistant_text. */
  onText(progress: { n: number; piece: string }): void;
  /** After the model: every attempt but the delivered one (null: none) is retracted if any of it went out. */
  settle(deliveredN: number | null, reason: string): void;
};

/** One attempt's text as the guard follows it. Positions are in the attempt's whole text. */
type TAttempt = {
  /** The attempt's text from `sent - context.length` on: released context, then unreleased text. */
  context: string;
  pending: string;
  /** Characters released so far (the whole text's length is sent + pending.length). */
  sent: number;
  /** Whitespace positions after `sent` in order, from `head` on (earlier ones are used up). */
  blanks: number[];
  head: number;
  /** The last whitespace at or before the hold-back limit, + 1 (0: none yet). */
  boundary: number;
  /** Length of `pending` when a scan last held a growing value back (0: no value held). */
  heldAt: number;
  withheld: boolean;
};

export function createStreamGuard(send: (event: TStreamEvent) => void, pii: TGateConfig["pii"]): TStreamGuard {
  const attempts = new Map<number, TAttempt>();
  const shown = new Set<number>();
  const retracted = new Set<number>();
  let current: number | null = null;

  const retract = (n: number, reason: string) => {
    if (!shown.has(n) || retracted.has(n)) return;
    retracted.add(n);
    send({ type: "retract", n, reason });
  };

  const release = (n: number, a: TAttempt, upTo: number) => {
    const cut = upTo - a.sent;
    const text = a.pending.slice(0, cut);
    a.context = (a.context + text).slice(-OVERLAP);
    a.pending = a.pending.slice(cut);
    a.sent = upTo;
    a.heldAt = 0;
    shown.add(n);
    send({ type: "delta", n, text });
  };

  return {
    onText({ n, piece }) {
      if (current !== null && current !== n) retract(current, `attempt ${current} was not delivered; trying again`);
      current = n;
      if (retracted.has(n)) return;
      let a = attempts.get(n);
      if (a === undefined) {
        a = { context: "", pending: "", sent: 0, blanks: [], head: 0, boundary: 0, heldAt: 0, withheld: false };
        attempts.set(n, a);
      }
      if (a.withheld) return;
      const start = a.sent + a.pending.length;
      for (let i = 0; i < piece.length; i++) {
        const c = piece.charCodeAt(i);
        if (c === 32 || c === 10) a.blanks.push(start + i);
      }
      a.pending += piece;
      // The last whitespace at least HOLDBACK characters before the end (positions only grow).
      const limit = a.sent + a.pending.length - HOLDBACK;
      while (limit > 0 && a.head < a.blanks.length && (a.blanks[a.head] as number) <= limit) {
        a.boundary = (a.blanks[a.head++] as number) + 1;
      }
      if (a.head > 1024 && a.head * 2 > a.blanks.length) {
        a.blanks = a.blanks.slice(a.head);
        a.head = 0;
      }
      let boundary = a.boundary;
      if (boundary <= a.sent) return;
      if (pii.enforce !== "off") {
        if (a.heldAt > 0 && a.pending.length > RESCAN_ALWAYS && a.pending.length < a.heldAt * 1.5) return;
        const window = a.context + a.pending;
        const from = a.sent - a.context.length;
        let growing = false;
        for (const match of scanPii(window, { types: pii.types, allowlist: pii.allowlist })) {
          // A value that reaches the end of what was written may still be growing (help@example.co
          // becomes an allowlisted help@example.com): release nothing from its start on, yet.
          if (match.source.end >= window.length) {
            growing = true;
            boundary = Math.min(boundary, lastBlankBefore(window, match.source.start) + from);
          } else {
            a.withheld = true;
            return;
          }
        }
        if (boundary <= a.sent) {
          if (growing) a.heldAt = a.pending.length;
          return;
        }
      }
      release(n, a, boundary);
    },
    settle(deliveredN, reason) {
      for (const n of shown) if (n !== deliveredN) retract(n, reason);
    },
  };
}

/** Just after the last whitespace before `at` in `text` (0 when there is none). */
function lastBlankBefore(text: string, at: number): number {
  if (at <= 0) return 0;
  return Math.max(text.lastIndexOf(" ", at - 1), text.lastIndexOf("\n", at - 1)) + 1;
}
