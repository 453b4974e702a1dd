// The vitest matcher registered the way a project would (expect.extend), run on the seed's
// fixtures: its pass/fail follows the decision and failOn, and a failure says why.
import { describe, expect, it } from "vitest";
import { gateMatchers, toPassGate } from "../src/vitest-matcher";
import { seedFixture } from "./fixtures";

expect.extend(gateMatchers);

const baseline = seedFixture("baseline");
const allow = seedFixture("candidate_allow");
const warn = seedFixture("candidate_warn");
const block = seedFixture("candidate_block");

/** The message of the assertion error `run` throws (fails the test if it does not throw). */
function failure(run: () => void): string {
  try {
    run();
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
  throw new Error("expected the assertion to fail");
}

describe("toPassGate", () => {
  it("passes an ALLOW candidate", () => {
    expect(allow).toPassGate(baseline);
    expect(allow).toPassGate(baseline, { mode: "full" });
  });

  it("fails a BLOCK candidate with the status, each reason and its reason code", () => {
    const message = failure(() => expect(block).toPassGate(baseline));
    expect(message).toContain('expected the candidate to pass the BreakPoint gate (failOn "warn"');
    expect(message).toContain("but it was BLOCK:");
    expect(message).toContain("  - cost BLOCK: Cost increased by 40.0% (>=40%). [COST_BLOCK_INCREASE]");
    expect(message).toContain("  - pii BLOCK: PII detected: EMAIL(1). Total matches: 1. [PII_BLOCK_EMAIL]");
    // Only the policies that did not pass are listed.
    expect(message).not.toContain("drift");
  });

  it("fails a WARN by default, and lets it through with failOn block", () => {
    const message = failure(() => expect(warn).toPassGate(baseline));
    expect(message).toContain("but it was WARN:");
    expect(message).toContain("  - cost WARN: Cost increased by 25.0% (>=20%). [COST_WARN_INCREASE]");
    expect(message).toContain("[DRIFT_WARN_LENGTH_DELTA]");

    expect(warn).toPassGate(baseline, { failOn: "block" });
    // failOn block still fails a BLOCK.
    expect(failure(() => expect(block).toPassGate(baseline, { failOn: "block" }))).toContain(
      'failOn "block": only BLOCK fails',
    );
  });

  it("strict turns the WARN into a failing BLOCK even with failOn block, and says so", () => {
    const message = failure(() => expect(warn).toPassGate(baseline, { strict: true, failOn: "block" }));
    expect(message).toContain("but it was BLOCK:");
    expect(message).toContain("  - cost WARN: Cost increased by 25.0% (>=20%). [COST_WARN_INCREASE]");
    expect(message).toContain("  - strict: WARN promoted to BLOCK");
  });

  it(".not.toPassGate passes a BLOCK and fails an ALLOW, naming the status", () => {
    expect(block).not.toPassGate(baseline);
    expect(warn).not.toPassGate(baseline);
    const message = failure(() => expect(allow).not.toPassGate(baseline));
    expect(message).toContain("expected the candidate not to pass the BreakPoint gate");
    expect(message).toContain("but it did: ALLOW (all policies passed)");
    // A WARN let through by failOn block still lists why it was a WARN.
    const warned = failure(() => expect(warn).not.toPassGate(baseline, { failOn: "block" }));
    expect(warned).toContain("but it did: WARN:");
    expect(warned).toContain("[COST_WARN_INCREASE]");
  });

  it("takes plain strings for either side (a string is { output })", () => {
    expect("Hello! How can I help you with your account today?").toPassGate(baseline.output);
    expect("Hello! How can I help you with your account today?").toPassGate(baseline);
    const message = failure(() =>
      expect("Contact me at hi@example.com and I will follow up.").toPassGate(baseline.output),
    );
    expect(message).toContain("  - pii BLOCK: PII detected: EMAIL(1). Total matches: 1. [PII_BLOCK_EMAIL]");
  });

  it("passes preset and config through to the gate", () => {
    // The WARN candidate's cost rise (25%) and length change (52%) are within the chatbot
    // preset's WARN lines (30%, 120%).
    expect(warn).not.toPassGate(baseline);
    expect(warn).toPassGate(baseline, { preset: "chatbot" });
    expect(allow).not.toPassGate(baseline, { config: { cost: { warn_increase_pct: 0.5, block_increase_pct: 50 } } });
  });
});

describe("toPassGate on bad input", () => {
  it("throws naming the config field, with or without .not", () => {
    const config = { cost: { warn_increase_pct: -1 } };
    expect(() => expect(allow).toPassGate(baseline, { config })).toThrow(
      /^toPassGate: invalid input \(field config\.cost\.warn_increase_pct\): /,
    );
    // Bad input is never a "did not pass": .not must not turn it into a green test.
    expect(() => expect(allow).not.toPassGate(baseline, { config })).toThrow(/field config\.cost\.warn_increase_pct/);
  });

  it("throws naming the record field", () => {
    expect(() => expect({ text: "hi" }).toPassGate(baseline)).toThrow(
      "toPassGate: invalid input (field candidate.output): output must be a string (the model's text output)",
    );
    expect(() => expect(allow).toPassGate(42 as unknown as string)).toThrow(/\(field baseline\)/);
  });

  it("throws on an unknown option or a bad failOn instead of ignoring it", () => {
    expect(() => expect(block).toPassGate(baseline, { failon: "block" } as never)).toThrow(
      'toPassGate: unknown option "failon" (allowed: mode, strict, config, preset, now, failOn)',
    );
    // @ts-expect-error failOn is "warn" | "block"
    expect(() => expect(block).toPassGate(baseline, { failOn: "never" })).toThrow(
      'toPassGate: options.failOn must be "warn" or "block", got "never"',
    );
  });
});

describe("toPassGate called directly (no vitest state)", () => {
  it("returns pass and a message", () => {
    const passed = toPassGate.call({ isNot: false }, allow, baseline);
    expect(passed.pass).toBe(true);
    const blocked = toPassGate.call(undefined, block, baseline);
    expect(blocked.pass).toBe(false);
    expect(blocked.message()).toContain("[PII_BLOCK_EMAIL]");
  });
});

describe("toPassGate as an asymmetric matcher", () => {
  it("matches inside toEqual, and expect.not.toPassGate the other way round", () => {
    expect({ reply: allow, turn: 1 }).toEqual({ reply: expect.toPassGate(baseline), turn: 1 });
    expect({ reply: block }).toEqual({ reply: expect.not.toPassGate(baseline) });
    expect(() => expect({ reply: block }).toEqual({ reply: expect.toPassGate(baseline) })).toThrow();
  });
});
