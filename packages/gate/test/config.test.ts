// Config parsing and input validation: every error is a GateInputError naming the field.
import { describe, expect, it } from "vitest";
import { evaluate, GateInputError, parseGateConfig } from "../src/index";
import { rec } from "./fixtures";

function inputError(fn: () => unknown): GateInputError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(GateInputError);
    expect((error as Error).name).toBe("GateInputError");
    return error as GateInputError;
  }
  throw new Error("expected a GateInputError");
}

describe("parseGateConfig", () => {
  it("fills every default from contracts (the seed's thresholds)", () => {
    const c = parseGateConfig({});
    expect(c.cost).toMatchObject({ enforce: "block", warn_increase_pct: 20, block_increase_pct: 40, pricing: {} });
    expect(c.pii).toMatchObject({ enforce: "block", types: ["EMAIL", "PHONE", "CREDIT_CARD", "SSN"], allowlist: [] });
    expect(c.drift).toMatchObject({
      warn_length_delta_pct: 35,
      block_length_delta_pct: 70,
      warn_short_ratio: 0.35,
      warn_similarity: 0.15,
      similarity: "token_jaccard",
      ngram: 3,
    });
    expect(c.latency).toMatchObject({ warn_increase_pct: 50, block_increase_pct: 100 });
    expect(c.output_contract).toMatchObject({ json: false, required_keys: [], types: {} });
    expect(parseGateConfig(undefined)).toEqual(c);
  });

  it("is idempotent (a parsed config parses to itself)", () => {
    const c = parseGateConfig({ cost: { warn_increase_pct: 10 } });
    expect(parseGateConfig(c)).toEqual(c);
  });

  it("names the path of a bad value with zod's message", () => {
    const e = inputError(() => parseGateConfig({ cost: { warn_increase_pct: -1 } }));
    expect(e.field).toBe("config.cost.warn_increase_pct");
    expect(e.message.startsWith("config.cost.warn_increase_pct: ")).toBe(true);
    expect(inputError(() => parseGateConfig({ drift: { warn_short_ratio: 2 } })).field).toBe(
      "config.drift.warn_short_ratio",
    );
    expect(inputError(() => parseGateConfig({ pii: { types: ["EMAIL", "IBAN"] } })).field).toBe("config.pii.types.1");
    expect(inputError(() => parseGateConfig({ pii: { allowlist: [""] } })).field).toBe("config.pii.allowlist.0");
    expect(inputError(() => parseGateConfig({ latency: { enforce: "sometimes" } })).field).toBe(
      "config.latency.enforce",
    );
    expect(
      inputError(() => parseGateConfig({ cost: { pricing: { m: { input_per_1k: "cheap", output_per_1k: 1 } } } }))
        .field,
    ).toBe("config.cost.pricing.m.input_per_1k");
  });

  it("rejects unknown keys (typos must not silently fall back to defaults)", () => {
    const e = inputError(() => parseGateConfig({ cost: { warn_pct: 10 } }));
    expect(e.field).toBe("config.cost");
    expect(e.message).toContain("warn_pct");
    expect(inputError(() => parseGateConfig({ costs: {} })).field).toBe("config");
    expect(inputError(() => parseGateConfig("yaml?")).field).toBe("config");
  });
});

describe("evaluate() input validation", () => {
  const ok = rec("hello");

  it("requires output strings on both records", () => {
    const e = inputError(() => evaluate({ baseline: ok, candidate: { cost_usd: 1 } }));
    expect(e.field).toBe("candidate.output");
    expect(e.message).toBe("candidate.output: output must be a string (the model's text output)");
    expect(inputError(() => evaluate({ baseline: { output: 5 }, candidate: ok })).field).toBe("baseline.output");
  });

  it("rejects records that are not objects", () => {
    expect(inputError(() => evaluate({ baseline: "hello", candidate: ok })).field).toBe("baseline");
    expect(inputError(() => evaluate({ baseline: ok, candidate: null })).field).toBe("candidate");
    expect(inputError(() => evaluate({ baseline: [], candidate: ok })).field).toBe("baseline");
  });

  it("checks the optional numeric fields", () => {
    expect(inputError(() => evaluate({ baseline: ok, candidate: { output: "x", cost_usd: -1 } })).field).toBe(
      "candidate.cost_usd",
    );
    expect(inputError(() => evaluate({ baseline: { output: "x", tokens_in: 1.5 }, candidate: ok })).field).toBe(
      "baseline.tokens_in",
    );
    expect(inputError(() => evaluate({ baseline: { output: "x", latency_ms: "fast" }, candidate: ok })).field).toBe(
      "baseline.latency_ms",
    );
  });

  it("keeps unknown record fields (teams store metadata next to the output)", () => {
    expect(evaluate({ baseline: { output: "x", run_id: "r1" }, candidate: ok }).status).toBeDefined();
  });

  it("checks mode, strict and config", () => {
    expect(inputError(() => evaluate({ baseline: ok, candidate: ok, mode: "turbo" as never })).field).toBe("mode");
    expect(inputError(() => evaluate({ baseline: ok, candidate: ok, strict: "yes" as never })).field).toBe("strict");
    expect(inputError(() => evaluate({ baseline: ok, candidate: ok, config: { drift: { ngram: 0 } } })).field).toBe(
      "config.drift.ngram",
    );
    expect(inputError(() => evaluate(null as never)).field).toBe("input");
  });

  it("model metadata is null when absent", () => {
    expect(evaluate({ baseline: ok, candidate: rec("hi", { model: "gpt-4o" }) }).metadata).toMatchObject({
      baseline_model: null,
      candidate_model: "gpt-4o",
    });
  });
});
