// Breakpoint engine (seed 000): classifies every turn as must / should / skip, and the peak
// guardrail that freezes summary updates during emotional peaks unless the decision is `must`.
// Pure: no I/O, no clock, no runtime imports. Messages are untrusted input, so the ack detector is a
// single linear pass over the string with no regular expressions and no allocation.

import type { TThreadMementoSignalKind } from "@solserver/contracts";

export type BreakpointDecision = "must" | "should" | "skip";

/** The signals a turn may carry: the memento's (seed 000). */
export type BreakpointSignalKind = TThreadMementoSignalKind;

export const MUST_SIGNAL_KINDS: ReadonlySet<BreakpointSignalKind> = new Set<BreakpointSignalKind>([
  "decision_made",
  "scope_changed",
  "pivot",
  "answer_provided",
]);

export const SHOULD_SIGNAL_KINDS: ReadonlySet<BreakpointSignalKind> = new Set<BreakpointSignalKind>([
  "open_loop_created",
  "open_loop_resolved",
  "risk_or_conflict",
]);

const ACK_TOKENS = [
  "ok",
  "okay",
  "kk",
  "thx",
  "thanks",
  "got",
  "it",
  "sounds",
  "good",
  "cool",
  "yep",
  "yup",
  "sure",
  "all",
  "right",
] as const;

// Every ack token is 2..6 ASCII lowercase letters, so a token is packed into an integer
// (5 bits per letter, a = 1 … z = 26; at most 30 bits) and looked up without building a string.
const MAX_ACK_TOKEN_LENGTH = 6;
const ACK_TOKEN_CODES: ReadonlySet<number> = new Set(ACK_TOKENS.map(packToken));

function packToken(token: string): number {
  let code = 0;
  for (let i = 0; i < token.length; i++) code = code * 32 + (token.charCodeAt(i) - 96);
  return code;
}

// Exactly the characters of JavaScript's `\s` (and of String.prototype.trim).
function isWhitespace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/**
 * True when the message is nothing but acknowledgment tokens ("ok thanks", "Sounds good!").
 * Same result as: trim, lowercase, delete `.,!?`, split on whitespace, drop empty tokens, and
 * require at least one token with every token in the ack set — computed in one pass.
 */
export function isAckOnlyMessage(message: string): boolean {
  let code = 0;
  let length = 0;
  let tokens = 0;
  for (let i = 0; i < message.length; i++) {
    let c = message.charCodeAt(i);
    // Punctuation is deleted, not turned into a separator: "o.k" normalises to "ok".
    if (c === 0x2e || c === 0x2c || c === 0x21 || c === 0x3f) continue;
    if (isWhitespace(c)) {
      if (length > 0) {
        if (!ACK_TOKEN_CODES.has(code)) return false;
        tokens++;
        code = 0;
        length = 0;
      }
      continue;
    }
    if (c >= 0x41 && c <= 0x5a) c += 0x20;
    else if (c === 0x212a) c = 0x6b; // KELVIN SIGN lowercases to "k"; no other non-ASCII char reaches a-z.
    if (c < 0x61 || c > 0x7a || ++length > MAX_ACK_TOKEN_LENGTH) return false;
    code = code * 32 + (c - 0x60);
  }
  if (length > 0) {
    if (!ACK_TOKEN_CODES.has(code)) return false;
    tokens++;
  }
  return tokens > 0;
}

/**
 * Priority order, first match wins: summaryChanged → must; any MUST signal → must; any SHOULD
 * signal → should; context-window pressure or drift risk → should; an `ack_only` signal or an
 * ack-only message → skip; otherwise should.
 */
export function decideBreakpointAction(args: {
  message: string;
  signalKinds?: readonly BreakpointSignalKind[];
  contextWindowPressure?: boolean;
  driftRisk?: boolean;
  summaryChanged?: boolean;
}): BreakpointDecision {
  if (args.summaryChanged) return "must";
  let sawShould = false;
  let sawAck = false;
  const kinds = args.signalKinds;
  if (kinds !== undefined) {
    for (let i = 0; i < kinds.length; i++) {
      // A switch rather than the exported sets: callers cannot change the engine by mutating them.
      switch (kinds[i]) {
        case "decision_made":
        case "scope_changed":
        case "pivot":
        case "answer_provided":
          return "must";
        case "open_loop_created":
        case "open_loop_resolved":
        case "risk_or_conflict":
          sawShould = true;
          break;
        case "ack_only":
          sawAck = true;
          break;
      }
    }
  }
  if (sawShould) return "should";
  if (args.contextWindowPressure || args.driftRisk) return "should";
  if (sawAck || isAckOnlyMessage(args.message)) return "skip";
  return "should";
}

/** The peak guardrail: freeze summary updates at peak phase or high intensity, unless `must`. */
export function shouldFreezeSummaryAtPeak(args: {
  phase?: "rising" | "peak" | "downshift" | "settled";
  intensityBucket?: "low" | "med" | "high";
  decision: BreakpointDecision;
}): boolean {
  return (args.phase === "peak" || args.intensityBucket === "high") && args.decision !== "must";
}
