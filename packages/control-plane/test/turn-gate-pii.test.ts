// The chat turn's output gate judges what people read of an attempt's envelope: for every PII
// sample and every character that can stand before or after it (the grid of
// @solserver/gate/testing: all of U+0000-U+007F, C1 controls, every format character, lone
// surrogates, full-width digits and '@'), an envelope carrying it in assistant_text, or in any
// string of meta (a proposal's delta_summary, an unknown's text, a claim's text, a tag …), is
// BLOCKed by createAttemptGate exactly as the turn pipeline builds and runs it (pipeline config,
// full mode, first turn or against a previous answer), and the attempt is never delivered.
// Issue 17 measured the first case passing: the gate scanned JSON.stringify(envelope), where a
// control character becomes "\u0001" and its last hex digit glues to the number.

import { gluesToSample, PII_SAMPLES, piiNeighbours } from "@solserver/gate/testing";
import { describe, expect, it } from "vitest";
import { pipelineGateConfig } from "../src/gate/pipeline-config";
import type { TModelAttempt } from "../src/model/provider";
import { createAttemptGate } from "../src/services/turn/attempt-gate";

const SLOT = "\u0000SLOT\u0000";

/** A complete envelope: every string field of OutputEnvelope, one of them SLOT. */
function envelope(slot: number) {
  const fields = [
    "Check the fuse first, then the wiring.",
    "System",
    "rv_service",
    "CFB-0001",
    "CFB-0002",
    "a1",
    "The pump is the 12 V kind.",
    "u1",
    "Which model is the pump?",
    "pump wiring diagram",
    "CFB-0003",
    "Pump fuse location",
    "The fuse is behind the converter panel.",
    "pump",
    "converter",
    "Seen on two rigs.",
    "c1",
    "The fuse is behind the converter panel.",
  ];
  const f = (i: number) => (i === slot % fields.length ? SLOT : (fields[i] as string));
  return {
    assistant_text: f(0),
    meta: {
      modeLabel: f(1),
      domainHints: [f(2)],
      used_cfb_ids: [f(3)],
      ignored_cfb_ids: [f(4)],
      assumptions: [{ id: f(5), text: f(6), severity: "low" }],
      unknowns: [{ id: f(7), text: f(8), needs_user_input: true }],
      missing_cfb_queries: [f(9)],
      cfb_suggestions: [
        {
          op: "update",
          target_cfb_id: f(10),
          title: f(11),
          delta_summary: f(12),
          tags: [f(13)],
          entities: [f(14)],
          confidence: 0.8,
          rationale: f(15),
        },
      ],
      claim_map: [{ claim_id: f(16), span: { sentence: 0 }, text: f(17), support: { cfb_ids: ["CFB-0001"] } }],
    },
  };
}
const SLOTS = 18;

/** The envelope with SLOT replaced by `text` (in the object, not in JSON text). */
function carrying(slot: number, text: string): unknown {
  const put = (v: unknown): unknown => {
    if (v === SLOT) return text;
    if (Array.isArray(v)) return v.map(put);
    if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, put(x)]));
    return v;
  };
  return put(envelope(slot));
}

const attempt = (n: number): TModelAttempt => ({
  n,
  model: "hostile",
  tokensIn: 120,
  tokensOut: 40,
  latencyMs: 800,
  outcome: "ok",
  reason: null,
});

const PREVIOUS = {
  responseId: "RSP-1",
  message: "Where is the pump fuse?",
  assistantText: "Open the panel and look for the pump fuse.",
  meta: { modeLabel: "System" },
  model: "hostile",
  tokensIn: 100,
  tokensOut: 30,
  latencyMs: 700,
};

/** The turn the attempts answer. */
const TURN = { message: "Where is the pump fuse?" };

const cases = PII_SAMPLES.flatMap((sample) =>
  piiNeighbours().flatMap(({ char, name }) =>
    (["before", "after"] as const)
      .filter((side) => !gluesToSample(sample, char, side))
      .map((side) => ({
        sample,
        name,
        side,
        text: side === "before" ? `at${char}${sample.value} today` : `${sample.value}${char}today`,
      })),
  ),
);

describe("the chat turn's gate blocks PII next to any character, in any string of the envelope", () => {
  it("the clean envelope passes, so a block below is the PII's doing", () => {
    for (let slot = 0; slot < SLOTS; slot++) {
      const gate = createAttemptGate(pipelineGateConfig(), null, TURN);
      const verdict = gate.judge({
        output: { envelope: carrying(slot, "Nothing to see."), tokensIn: 1, tokensOut: 1 },
        attempt: attempt(1),
      });
      expect(verdict, `slot ${slot}`).toEqual({ deliver: true });
    }
  });

  it("in assistant_text and in every meta string, on a first turn and against a previous answer", () => {
    const gates = [
      createAttemptGate(pipelineGateConfig(), null, TURN),
      createAttemptGate(pipelineGateConfig(), PREVIOUS, TURN),
    ];
    const delivered: string[] = [];
    let n = 0;
    for (const [i, c] of cases.entries()) {
      // assistant_text every time; the meta strings round-robin, so each holds every sample often.
      for (const slot of [0, 1 + (i % (SLOTS - 1))]) {
        const gate = gates[i % 2] as (typeof gates)[number];
        const verdict = gate.judge({
          output: { envelope: carrying(slot, c.text), tokensIn: 120, tokensOut: 40 },
          attempt: attempt(++n),
        });
        const pii = gate.decisions.get(n)?.policies.find((p) => p.policy === "pii");
        if (verdict.deliver || pii?.status !== "BLOCK")
          delivered.push(`${c.sample.value} ${c.side} ${c.name} in slot ${slot}`);
      }
    }
    expect(cases.length).toBeGreaterThan(7000);
    expect(delivered).toEqual([]);
    // Over 14,000 full gate evaluations: about 6 s alone, several times that beside CI's other
    // suites on two cores. A guard against a hang, not a timing check.
  }, 180_000);

  it("the issue's measured answer and its owner's phone in a proposal's delta_summary", () => {
    const gate = createAttemptGate(pipelineGateConfig(), null, TURN);
    const measured = "Call the owner at\u0001415-555-1212 or charge card\u00014111111111111111 today.";
    const answer = gate.judge({
      output: { envelope: carrying(0, measured), tokensIn: 1, tokensOut: 1 },
      attempt: attempt(1),
    });
    expect(answer).toEqual({
      deliver: false,
      reason: expect.stringContaining("PII detected: PHONE(1), CREDIT_CARD(1). Total matches: 2."),
    });
    const proposal = gate.judge({
      output: {
        envelope: carrying(12, "Owner reachable at\u0001415-555-1212 after hours."),
        tokensIn: 1,
        tokensOut: 1,
      },
      attempt: attempt(2),
    });
    expect(proposal).toEqual({ deliver: false, reason: expect.stringContaining("PII detected: PHONE(1).") });
    // The stored decision keeps masks only.
    expect(JSON.stringify(gate.decisions.get(2))).not.toContain("555-1212");
  });
});
