// The seed's (000_fe1df6f4872e95a8) tables and examples, row by row, plus property tests.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MUST_SIGNAL_KINDS, SHOULD_SIGNAL_KINDS } from "./breakpoint";
import {
  type BreakpointDecision,
  type BreakpointSignalKind,
  decideBreakpointAction,
  isAckOnlyMessage,
  shouldFreezeSummaryAtPeak,
} from "./index";

const ALL_KINDS: BreakpointSignalKind[] = [
  "decision_made",
  "scope_changed",
  "pivot",
  "answer_provided",
  "ack_only",
  "open_loop_created",
  "open_loop_resolved",
  "risk_or_conflict",
];
const MUST_KINDS: BreakpointSignalKind[] = ["decision_made", "scope_changed", "pivot", "answer_provided"];
const SHOULD_KINDS: BreakpointSignalKind[] = ["open_loop_created", "open_loop_resolved", "risk_or_conflict"];
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
];
const PHASES = ["rising", "peak", "downshift", "settled", undefined] as const;
const INTENSITIES = ["low", "med", "high", undefined] as const;
const DECISIONS: BreakpointDecision[] = ["must", "should", "skip"];

/** The seed's algorithm written the obvious way (regexes are fine here: test input is ours). */
function referenceIsAck(message: string): boolean {
  const tokens = message
    .trim()
    .toLowerCase()
    .replace(/[.,!?]/g, "")
    .split(/\s+/)
    .filter((token) => token.length > 0);
  return tokens.length > 0 && tokens.every((token) => ACK_TOKENS.includes(token));
}

const NOT_ACK = "let's ship the migration on friday";

describe("signal classification (seed: BreakpointSignalKind table)", () => {
  it.each([
    ["decision_made", "MUST", "must"],
    ["scope_changed", "MUST", "must"],
    ["pivot", "MUST", "must"],
    ["answer_provided", "MUST", "must"],
    ["ack_only", "(skip)", "skip"],
    ["open_loop_created", "SHOULD", "should"],
    ["open_loop_resolved", "SHOULD", "should"],
    ["risk_or_conflict", "SHOULD", "should"],
  ] as const)("%s is %s and alone decides %s", (kind, category, decision) => {
    expect(MUST_SIGNAL_KINDS.has(kind)).toBe(category === "MUST");
    expect(SHOULD_SIGNAL_KINDS.has(kind)).toBe(category === "SHOULD");
    expect(decideBreakpointAction({ message: NOT_ACK, signalKinds: [kind] })).toBe(decision);
  });

  it("MUST_SIGNAL_KINDS and SHOULD_SIGNAL_KINDS hold exactly the seed's members", () => {
    expect([...MUST_SIGNAL_KINDS].sort()).toEqual([...MUST_KINDS].sort());
    expect([...SHOULD_SIGNAL_KINDS].sort()).toEqual([...SHOULD_KINDS].sort());
  });

  it("ack_only is in neither set", () => {
    expect(MUST_SIGNAL_KINDS.has("ack_only")).toBe(false);
    expect(SHOULD_SIGNAL_KINDS.has("ack_only")).toBe(false);
  });

  it("the two sets and ack_only partition the 8 kinds", () => {
    expect(MUST_SIGNAL_KINDS.size + SHOULD_SIGNAL_KINDS.size + 1).toBe(ALL_KINDS.length);
    for (const kind of ALL_KINDS) {
      const homes = [MUST_SIGNAL_KINDS.has(kind), SHOULD_SIGNAL_KINDS.has(kind), kind === "ack_only"];
      expect(homes.filter(Boolean)).toHaveLength(1);
    }
  });
});

describe("isAckOnlyMessage (seed: examples table)", () => {
  it.each([
    ["ok thanks", true, "both tokens in ack set"],
    ["Sounds good!", true, "after normalization, both tokens match"],
    ["ok let's do it", false, `"let's" and "do" are not in the ack set`],
    ["", false, "empty message"],
  ])("%j → %s (%s)", (input, expected) => {
    expect(isAckOnlyMessage(input)).toBe(expected);
  });

  it.each([
    ["ok thanks", true],
    ["sounds good", true],
    ["yep!", true],
  ])("overview example %j → %s", (input, expected) => {
    expect(isAckOnlyMessage(input)).toBe(expected);
  });

  it.each(ACK_TOKENS)("ack token %j alone is an ack", (token) => {
    expect(isAckOnlyMessage(token)).toBe(true);
    expect(isAckOnlyMessage(token.toUpperCase())).toBe(true);
  });

  it.each([
    // trim
    ["   ok   ", true],
    // lowercase
    ["OK THANKS", true],
    ["Got It", true],
    // strip .,!? (deleted, not turned into separators)
    ["ok.", true],
    ["okay!!!", true],
    ["thanks?!", true],
    ["ok, thanks.", true],
    ["o.k", true],
    ["ok.thanks", false],
    ["ok ...", true],
    // collapse whitespace (any JavaScript whitespace)
    ["ok \t\n thanks", true],
    ["ok\u00a0thanks", true],
    ["ok\u3000thanks", true],
    ["\ufeffok", true],
    // only the seed's punctuation is stripped, only whitespace separates
    ["ok;", false],
    ["ok :)", false],
    ["ok\u200bthanks", false],
    ["ok-thanks", false],
    // every token must be in the set
    ["all right", true],
    ["sure thing", false],
    ["thanks a lot", false],
    ["okk", false],
    ["oks", false],
    ["thank", false],
    ["thanksgiving", false],
    ["yes", false],
    // empty after normalisation
    ["   ", false],
    ["...", false],
    ["?! ,", false],
    // non-ASCII: only what toLowerCase maps into the ack alphabet (KELVIN SIGN → k)
    ["\u212a\u212a", true],
    ["ökay", false],
    ["οk", false],
    ["ok 👍", false],
  ])("normalisation %j → %s", (input, expected) => {
    expect(isAckOnlyMessage(input)).toBe(expected);
    expect(referenceIsAck(input)).toBe(expected);
  });

  it("is linear on long input (1.5 MB of acks, then a 1 MB non-ack)", () => {
    expect(isAckOnlyMessage("ok thanks ".repeat(150_000))).toBe(true);
    expect(isAckOnlyMessage(`${"ok ".repeat(333_333)}no`)).toBe(false);
    expect(isAckOnlyMessage("x".repeat(1_000_000))).toBe(false);
  });

  it("agrees with the seed's algorithm for every code point, alone and inside a token", () => {
    const mismatches: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      const ch = String.fromCodePoint(cp);
      for (const input of [ch, `o${ch}k`, `ok${ch}`]) {
        if (isAckOnlyMessage(input) !== referenceIsAck(input)) mismatches.push(cp.toString(16));
      }
    }
    expect(mismatches).toEqual([]);
  });
});

describe("decideBreakpointAction (seed: decision rules, first match wins)", () => {
  it.each([
    // Priority 1: summaryChanged → must, over every later rule.
    ["1: summaryChanged", { message: NOT_ACK, summaryChanged: true }, "must"],
    ["1 over 3 (SHOULD signal)", { message: NOT_ACK, summaryChanged: true, signalKinds: ["risk_or_conflict"] }, "must"],
    ["1 over 4 (pressure, drift)", { message: NOT_ACK, summaryChanged: true, contextWindowPressure: true }, "must"],
    ["1 over 5 (ack_only + ack message)", { message: "ok", summaryChanged: true, signalKinds: ["ack_only"] }, "must"],
    // Priority 2: any MUST signal → must.
    ["2: decision_made", { message: NOT_ACK, signalKinds: ["decision_made"] }, "must"],
    ["2: scope_changed", { message: NOT_ACK, signalKinds: ["scope_changed"] }, "must"],
    ["2: pivot", { message: NOT_ACK, signalKinds: ["pivot"] }, "must"],
    ["2: answer_provided", { message: NOT_ACK, signalKinds: ["answer_provided"] }, "must"],
    [
      "2: any, not only the first",
      { message: NOT_ACK, signalKinds: ["ack_only", "open_loop_created", "pivot"] },
      "must",
    ],
    ["2 over 3", { message: NOT_ACK, signalKinds: ["risk_or_conflict", "decision_made"] }, "must"],
    ["2 over 4", { message: NOT_ACK, signalKinds: ["scope_changed"], driftRisk: true }, "must"],
    ["2 over 5", { message: "ok thanks", signalKinds: ["ack_only", "answer_provided"] }, "must"],
    // Priority 3: any SHOULD signal → should.
    ["3: open_loop_created", { message: NOT_ACK, signalKinds: ["open_loop_created"] }, "should"],
    ["3: open_loop_resolved", { message: NOT_ACK, signalKinds: ["open_loop_resolved"] }, "should"],
    ["3: risk_or_conflict", { message: NOT_ACK, signalKinds: ["risk_or_conflict"] }, "should"],
    ["3 over 5 (ack_only + ack message)", { message: "ok", signalKinds: ["ack_only", "open_loop_resolved"] }, "should"],
    // Priority 4: pressure or drift → should.
    ["4: contextWindowPressure", { message: NOT_ACK, contextWindowPressure: true }, "should"],
    ["4: driftRisk", { message: NOT_ACK, driftRisk: true }, "should"],
    ["4 over 5 (ack message)", { message: "sounds good", contextWindowPressure: true }, "should"],
    ["4 over 5 (ack_only signal)", { message: "ok", signalKinds: ["ack_only"], driftRisk: true }, "should"],
    // Priority 5: ack_only signal OR ack message → skip.
    ["5: ack_only signal, non-ack message", { message: NOT_ACK, signalKinds: ["ack_only"] }, "skip"],
    ["5: ack message, no signals", { message: "ok thanks" }, "skip"],
    ["5: ack message, empty signals", { message: "Sounds good!", signalKinds: [] }, "skip"],
    ["5: ack_only signal + ack message", { message: "yep!", signalKinds: ["ack_only"] }, "skip"],
    ["5: false flags do not block skip", { message: "ok", contextWindowPressure: false, driftRisk: false }, "skip"],
    // Priority 6: default → should.
    ["6: non-ack message, nothing else", { message: NOT_ACK }, "should"],
    ["6: empty message", { message: "" }, "should"],
    ["6: ok let's do it", { message: "ok let's do it", signalKinds: [] }, "should"],
    ["6: all flags false", { message: NOT_ACK, summaryChanged: false, contextWindowPressure: false }, "should"],
  ] as const)("%s → %s", (_row, args, expected) => {
    expect(decideBreakpointAction(args)).toBe(expected);
  });

  // The seed's "Key behaviors" bullets.
  it("MUST signals always win, even when the message looks like an ack", () => {
    expect(decideBreakpointAction({ message: "ok thanks", signalKinds: ["decision_made"] })).toBe("must");
    expect(decideBreakpointAction({ message: "ok", signalKinds: ["ack_only", "decision_made"] })).toBe("must");
  });

  it("context window pressure and drift risk only promote to should, never to must", () => {
    for (const contextWindowPressure of [true, false]) {
      for (const driftRisk of [true, false]) {
        if (!contextWindowPressure && !driftRisk) continue;
        for (const message of ["ok", NOT_ACK, ""]) {
          expect(decideBreakpointAction({ message, contextWindowPressure, driftRisk })).toBe("should");
        }
      }
    }
  });

  it("the default is should: a message that is not clearly an ack and has no signals", () => {
    expect(decideBreakpointAction({ message: "can you check the deploy logs?" })).toBe("should");
  });

  // The seed's unit-test table (test/breakpoint_engine.test.ts).
  it("unit table: decision_made signal → must", () => {
    expect(decideBreakpointAction({ message: "let's go with postgres", signalKinds: ["decision_made"] })).toBe("must");
  });

  it("unit table: ack_only signal + ack message → skip", () => {
    expect(decideBreakpointAction({ message: "ok thanks", signalKinds: ["ack_only"] })).toBe("skip");
  });

  it("ignores unknown signal kinds from untyped callers", () => {
    const signalKinds = ["not_a_kind"] as unknown as BreakpointSignalKind[];
    expect(decideBreakpointAction({ message: NOT_ACK, signalKinds })).toBe("should");
    expect(decideBreakpointAction({ message: "ok", signalKinds })).toBe("skip");
  });
});

describe("shouldFreezeSummaryAtPeak (seed: peak guardrail table)", () => {
  it.each([
    ["peak + should", { phase: "peak", decision: "should" }, true],
    ["peak + skip", { phase: "peak", decision: "skip" }, true],
    ["high + should", { intensityBucket: "high", decision: "should" }, true],
    ["high + skip", { intensityBucket: "high", decision: "skip" }, true],
    ["peak + high + skip", { phase: "peak", intensityBucket: "high", decision: "skip" }, true],
    ["high at another phase + should", { phase: "settled", intensityBucket: "high", decision: "should" }, true],
    ["peak at low intensity + skip", { phase: "peak", intensityBucket: "low", decision: "skip" }, true],
    ["peak + must", { phase: "peak", decision: "must" }, false],
    ["high + must", { intensityBucket: "high", decision: "must" }, false],
    ["peak + high + must", { phase: "peak", intensityBucket: "high", decision: "must" }, false],
    ["not peak/high: rising/med + should", { phase: "rising", intensityBucket: "med", decision: "should" }, false],
    ["not peak/high: downshift/low + skip", { phase: "downshift", intensityBucket: "low", decision: "skip" }, false],
    ["not peak/high: settled + must", { phase: "settled", decision: "must" }, false],
    ["not peak/high: nothing known + skip", { decision: "skip" }, false],
  ] as const)("%s → freeze %s", (_row, args, expected) => {
    expect(shouldFreezeSummaryAtPeak(args)).toBe(expected);
  });

  it("matches isPeakOrHigh && decision !== must for every phase × intensity × decision", () => {
    for (const phase of PHASES) {
      for (const intensityBucket of INTENSITIES) {
        for (const decision of DECISIONS) {
          const isPeakOrHigh = phase === "peak" || intensityBucket === "high";
          expect(shouldFreezeSummaryAtPeak({ phase, intensityBucket, decision })).toBe(
            isPeakOrHigh && decision !== "must",
          );
        }
      }
    }
  });
});

describe("properties", () => {
  const kindArb = fc.constantFrom(...ALL_KINDS);
  const ackishMessageArb = fc
    .array(
      fc.oneof(
        fc.constantFrom(...ACK_TOKENS, ...ACK_TOKENS.map((t) => t.toUpperCase())),
        fc.constantFrom(" ", "  ", "\t", "\n", "\u00a0", ".", ",", "!", "?", "do", "let's", "x"),
      ),
      { maxLength: 8 },
    )
    .map((parts) => parts.join(""));
  const messageArb = fc.oneof(ackishMessageArb, fc.string(), fc.string({ unit: "binary" }));
  const argsArb = fc.record(
    {
      message: messageArb,
      signalKinds: fc.array(kindArb, { maxLength: 8 }),
      contextWindowPressure: fc.boolean(),
      driftRisk: fc.boolean(),
      summaryChanged: fc.boolean(),
    },
    { requiredKeys: ["message"] },
  );
  const RUNS = { numRuns: 2_000 };

  it("decisions are deterministic: the same arguments give the same result", () => {
    fc.assert(
      fc.property(argsArb, (args) => {
        const copy = { ...args, signalKinds: args.signalKinds && [...args.signalKinds] };
        const first = decideBreakpointAction(args);
        expect(decideBreakpointAction(args)).toBe(first);
        expect(decideBreakpointAction(copy)).toBe(first);
      }),
      RUNS,
    );
  });

  it("a MUST signal or summaryChanged always yields must, whatever else is passed", () => {
    fc.assert(
      fc.property(argsArb, fc.constantFrom(...MUST_KINDS), fc.nat(), (args, mustKind, at) => {
        const kinds = [...(args.signalKinds ?? [])];
        kinds.splice(at % (kinds.length + 1), 0, mustKind);
        expect(decideBreakpointAction({ ...args, signalKinds: kinds })).toBe("must");
        expect(decideBreakpointAction({ ...args, summaryChanged: true })).toBe("must");
      }),
      RUNS,
    );
  });

  it("must only when summaryChanged or a MUST signal: pressure and drift never produce must", () => {
    fc.assert(
      fc.property(argsArb, (args) => {
        const decision = decideBreakpointAction(args);
        const cause = args.summaryChanged || (args.signalKinds ?? []).some((k) => MUST_SIGNAL_KINDS.has(k));
        expect(decision === "must").toBe(Boolean(cause));
        if (args.contextWindowPressure || args.driftRisk) expect(decision).not.toBe("skip");
      }),
      RUNS,
    );
  });

  it("skip exactly when no MUST/SHOULD signal, no pressure/drift, and (ack_only signal or ack message)", () => {
    fc.assert(
      fc.property(argsArb, (args) => {
        const kinds = args.signalKinds ?? [];
        const expectedSkip =
          !args.summaryChanged &&
          !kinds.some((k) => MUST_SIGNAL_KINDS.has(k) || SHOULD_SIGNAL_KINDS.has(k)) &&
          !args.contextWindowPressure &&
          !args.driftRisk &&
          (kinds.includes("ack_only") || isAckOnlyMessage(args.message));
        expect(decideBreakpointAction(args) === "skip").toBe(expectedSkip);
      }),
      RUNS,
    );
  });

  it("the guardrail never freezes a must", () => {
    fc.assert(
      fc.property(fc.constantFrom(...PHASES), fc.constantFrom(...INTENSITIES), (phase, intensityBucket) => {
        expect(shouldFreezeSummaryAtPeak({ phase, intensityBucket, decision: "must" })).toBe(false);
      }),
    );
    fc.assert(
      fc.property(argsArb, fc.constantFrom(...PHASES), fc.constantFrom(...INTENSITIES), (args, phase, intensity) => {
        const decision = decideBreakpointAction(args);
        if (decision === "must") {
          expect(shouldFreezeSummaryAtPeak({ phase, intensityBucket: intensity, decision })).toBe(false);
        }
      }),
      RUNS,
    );
  });

  it("isAckOnlyMessage never throws and agrees with the seed's algorithm on arbitrary strings", () => {
    const anyUtf16 = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) });
    fc.assert(
      fc.property(fc.oneof(ackishMessageArb, fc.string(), fc.string({ unit: "binary" }), anyUtf16), (message) => {
        expect(isAckOnlyMessage(message)).toBe(referenceIsAck(message));
      }),
      { numRuns: 5_000 },
    );
  });

  it("the generated ack-ish messages do reach both outcomes", () => {
    const samples = fc.sample(ackishMessageArb, { numRuns: 500, seed: 42 });
    expect(samples.some(isAckOnlyMessage)).toBe(true);
    expect(samples.some((m) => !isAckOnlyMessage(m))).toBe(true);
  });
});
