import { describe, expect, it } from "vitest";
import {
  DEFAULT_PRICING,
  evaluate,
  evaluateCostPolicy,
  evaluateLatencyPolicy,
  parseGateConfig,
  resolveCost,
} from "../src/index";
import { rec } from "./fixtures";

const cfg = parseGateConfig({}).cost;
const cost = (base: number, cand: number, config = cfg) =>
  evaluateCostPolicy(rec("a", { cost_usd: base }), rec("a", { cost_usd: cand }), config);

describe("cost thresholds (20% WARN, 40% BLOCK)", () => {
  it("a real difference is never rounded up to the threshold: +39.9999999% WARNs, it does not BLOCK", () => {
    const r = cost(1.0, 1.399999999);
    expect(r.status).toBe("WARN");
    expect(r.codes).toEqual(["COST_WARN_INCREASE"]);
    expect(cost(1.0, 1.1999999).status).toBe("ALLOW");
  });

  it("floating point: 1.0 -> 1.4 is exactly 40% and BLOCKs (raw IEEE arithmetic gives 39.99999999999999)", () => {
    expect(((1.4 - 1.0) / 1.0) * 100).toBeLessThan(40); // why the policy rounds before comparing
    const r = cost(1.0, 1.4);
    expect(r.status).toBe("BLOCK");
    expect(r.codes).toEqual(["COST_BLOCK_INCREASE"]);
    expect(r.reasons).toEqual(["Cost increased by 40.0% (>=40%)."]);
    expect(r.title).toBe("Cost: Delta +40.00%.");
    expect(r.details.metrics).toEqual({
      cost_delta_pct: 40,
      cost_delta_usd: 0.4,
      baseline_cost_usd: 1,
      candidate_cost_usd: 1.4,
    });
  });

  it("1.0 -> 1.2 is exactly 20%: WARN", () => {
    const r = cost(1.0, 1.2);
    expect(r.status).toBe("WARN");
    expect(r.codes).toEqual(["COST_WARN_INCREASE"]);
    expect(r.reasons).toEqual(["Cost increased by 20.0% (>=20%)."]);
  });

  it("just under each threshold stays below it", () => {
    expect(cost(1.0, 1.1999).status).toBe("ALLOW");
    expect(cost(1.0, 1.3999).status).toBe("WARN");
  });

  it("other bases hit the boundaries exactly too", () => {
    expect(cost(0.1, 0.12).status).toBe("WARN");
    expect(cost(0.1, 0.14).status).toBe("BLOCK");
    expect(cost(3, 3.6).status).toBe("WARN");
    expect(cost(0.7, 0.98).status).toBe("BLOCK");
  });

  it("a cheaper candidate is ALLOW with a negative delta", () => {
    const r = cost(2, 1.5);
    expect(r.status).toBe("ALLOW");
    expect(r.title).toBe("Cost: Delta -25.00%.");
    expect(r.details.metrics).toMatchObject({ cost_delta_pct: -25, cost_delta_usd: -0.5 });
  });

  it("formats non-integral thresholds as written", () => {
    const r = cost(1, 1.3, { ...cfg, warn_increase_pct: 12.5 });
    expect(r.reasons).toEqual(["Cost increased by 30.0% (>=12.5%)."]);
  });
});

describe("zero baseline cost", () => {
  it("both 0 is no change: ALLOW", () => {
    const r = cost(0, 0);
    expect(r.status).toBe("ALLOW");
    expect(r.details.metrics).toMatchObject({ cost_delta_pct: 0 });
  });

  it("0 -> anything counts as an unbounded (+infinity%) increase: BLOCK, without a cost_delta_pct metric", () => {
    const r = cost(0, 0.001);
    expect(r.status).toBe("BLOCK");
    expect(r.codes).toEqual(["COST_BLOCK_INCREASE"]);
    expect(r.title).toBe("Cost: Delta +inf%.");
    expect(r.reasons[0]).toContain("unbounded increase");
    expect(r.details.metrics).not.toHaveProperty("cost_delta_pct");
    expect(r.details.metrics).toMatchObject({ cost_delta_usd: 0.001 });
  });
});

describe("cost resolution", () => {
  const pricing = { ...DEFAULT_PRICING, m: { input_per_1k: 0.001, output_per_1k: 0.003 } };

  it("prefers cost_usd", () => {
    expect(resolveCost(rec("x", { cost_usd: 0.5, tokens_in: 1000, model: "m" }), pricing)).toBe(0.5);
  });

  it("prices tokens_in / tokens_out with the model's per-1k prices", () => {
    expect(resolveCost(rec("x", { tokens_in: 2000, tokens_out: 1000, model: "m" }), pricing)).toBeCloseTo(0.005, 12);
    expect(resolveCost(rec("x", { tokens_in: 1000, model: "m" }), pricing)).toBeCloseTo(0.001, 12); // missing out = 0
  });

  it("prices tokens_total with per_1k, defaulting to the mean of input and output", () => {
    expect(resolveCost(rec("x", { tokens_total: 1000, model: "m" }), pricing)).toBeCloseTo(0.002, 12);
    const withPer1k = { m: { input_per_1k: 0.001, output_per_1k: 0.003, per_1k: 0.0025 } };
    expect(resolveCost(rec("x", { tokens_total: 2000, model: "m" }), withPer1k)).toBeCloseTo(0.005, 12);
  });

  it("is null without cost data, without a model, or for an unknown model", () => {
    expect(resolveCost(rec("x"), pricing)).toBeNull();
    expect(resolveCost(rec("x", { tokens_in: 10 }), pricing)).toBeNull();
    expect(resolveCost(rec("x", { tokens_in: 10, model: "unknown-model" }), pricing)).toBeNull();
    expect(resolveCost(rec("x", { model: "m" }), pricing)).toBeNull();
    // Object.prototype members are not prices.
    expect(resolveCost(rec("x", { tokens_in: 10, model: "constructor" }), pricing)).toBeNull();
    expect(resolveCost(rec("x", { tokens_in: 10, model: "__proto__" }), pricing)).toBeNull();
  });

  it("finds built-in models case-insensitively and without a snapshot date", () => {
    const a = resolveCost(rec("x", { tokens_in: 1000, tokens_out: 1000, model: "gpt-4.1-mini" }), DEFAULT_PRICING);
    expect(a).toBeCloseTo(0.0004 + 0.0016, 12);
    expect(resolveCost(rec("x", { tokens_in: 1000, tokens_out: 1000, model: "GPT-4.1-mini" }), DEFAULT_PRICING)).toBe(
      a,
    );
    expect(
      resolveCost(rec("x", { tokens_in: 1000, tokens_out: 1000, model: "gpt-4.1-mini-2025-04-14" }), DEFAULT_PRICING),
    ).toBe(a);
  });

  it("built-in table covers the common OpenAI models", () => {
    for (const model of ["gpt-4.1", "gpt-4.1-mini", "gpt-4.1-nano", "gpt-4o", "gpt-4o-mini", "o3-mini"]) {
      expect(DEFAULT_PRICING[model]?.input_per_1k).toBeGreaterThan(0);
    }
    expect(Object.isFrozen(DEFAULT_PRICING)).toBe(true);
  });
});

describe("token-priced cost through evaluate()", () => {
  it("in/out tokens with the built-in table: 1000/500 -> 1000/800 tokens on gpt-4.1-mini", () => {
    // base: 1 * 0.0004 + 0.5 * 0.0016 = 0.0012; cand: 0.0004 + 0.8 * 0.0016 = 0.00168 -> +40%
    const d = evaluate({
      baseline: rec("same text", { tokens_in: 1000, tokens_out: 500, model: "gpt-4.1-mini" }),
      candidate: rec("same text", { tokens_in: 1000, tokens_out: 800, model: "gpt-4.1-mini" }),
    });
    const c = d.policies.find((p) => p.policy === "cost");
    expect(c?.status).toBe("BLOCK");
    expect(d.metrics).toMatchObject({ cost_delta_pct: 40, baseline_cost_usd: 0.0012, candidate_cost_usd: 0.00168 });
  });

  it("tokens_total with config pricing merged over the built-in table", () => {
    const d = evaluate({
      baseline: rec("same text", { tokens_total: 1000, model: "house-model" }),
      candidate: rec("same text", { tokens_total: 1250, model: "house-model" }),
      config: { cost: { pricing: { "house-model": { input_per_1k: 0.01, output_per_1k: 0.03 } } } },
    });
    expect(d.policies.find((p) => p.policy === "cost")?.status).toBe("WARN");
    expect(d.metrics).toMatchObject({ cost_delta_pct: 25, baseline_cost_usd: 0.02, candidate_cost_usd: 0.025 });
  });

  it("a config price overrides a built-in one", () => {
    const d = evaluate({
      baseline: rec("t", { tokens_in: 1000, model: "gpt-4o" }),
      candidate: rec("t", { cost_usd: 1 }),
      config: { cost: { pricing: { "gpt-4o": { input_per_1k: 1, output_per_1k: 1 } } } },
    });
    expect(d.metrics.baseline_cost_usd).toBe(1);
    expect(d.metrics.cost_delta_pct).toBe(0);
  });

  it("no cost data on either side: ALLOW, not evaluated, reason-free", () => {
    for (const [b, c] of [
      [rec("t"), rec("t", { cost_usd: 1 })],
      [rec("t", { cost_usd: 1 }), rec("t")],
      [rec("t", { tokens_in: 5, model: "nope" }), rec("t", { cost_usd: 1 })],
    ]) {
      const r = evaluate({ baseline: b, candidate: c }).policies.find((p) => p.policy === "cost");
      expect(r).toEqual({
        policy: "cost",
        status: "ALLOW",
        title: "Cost: not evaluated (no cost data).",
        reasons: [],
        codes: [],
        details: { skipped: "no cost data" },
      });
    }
  });
});

describe("absolute thresholds: dollars of cost, milliseconds of latency (issue 24)", () => {
  const usd = parseGateConfig({ cost: { warn_increase_usd: 0.01, block_increase_usd: 0.05 } }).cost;

  it("a small percentage that is many dollars WARNs or BLOCKs on the dollars", () => {
    // 10.00 -> 10.06: +0.6%, under every percentage, but $0.06 over the $0.05 block threshold.
    const r = cost(10, 10.06, usd);
    expect(r.status).toBe("BLOCK");
    expect(r.codes).toEqual(["COST_BLOCK_INCREASE"]);
    expect(r.reasons).toEqual(["Cost increased by $0.06 (>=$0.05)."]);
    expect(cost(10, 10.02, usd).reasons).toEqual(["Cost increased by $0.02 (>=$0.01)."]);
    expect(cost(10, 10.005, usd).status).toBe("ALLOW");
  });

  it("the percentage still decides when it is the worse band; none configured changes nothing", () => {
    expect(cost(1.0, 1.4, usd).reasons).toEqual(["Cost increased by 40.0% (>=40%)."]);
    expect(cost(10, 10.06).status).toBe("ALLOW");
  });

  it("latency: milliseconds over the threshold WARN whatever the percentage", () => {
    const cfgMs = parseGateConfig({ latency: { warn_increase_ms: 200 } }).latency;
    const r = evaluateLatencyPolicy(rec("a", { latency_ms: 2000 }), rec("a", { latency_ms: 2250 }), cfgMs);
    expect(r.status).toBe("WARN");
    expect(r.reasons).toEqual(["Latency increased by 250 ms (>=200 ms)."]);
    expect(evaluateLatencyPolicy(rec("a", { latency_ms: 2000 }), rec("a", { latency_ms: 2199 }), cfgMs).status).toBe(
      "ALLOW",
    );
  });

  it("a negative threshold is refused naming the field", () => {
    expect(() => parseGateConfig({ cost: { warn_increase_usd: -1 } })).toThrow(/warn_increase_usd/);
  });
});
