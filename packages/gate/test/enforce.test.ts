// enforce: "block" (default) | "warn" (BLOCK reported as WARN) | "off" (policy does not run).
import { describe, expect, it } from "vitest";
import { evaluate } from "../src/index";
import { rec, seedFixture } from "./fixtures";

const baseline = seedFixture("baseline");
const block = seedFixture("candidate_block");

describe("enforce", () => {
  it("warn caps cost's BLOCK to WARN with the WARN code variant and details.capped", () => {
    const d = evaluate({ baseline, candidate: block, config: { cost: { enforce: "warn" }, pii: { enforce: "off" } } });
    const cost = d.policies.find((p) => p.policy === "cost");
    expect(cost?.status).toBe("WARN");
    expect(cost?.codes).toEqual(["COST_WARN_INCREASE"]);
    expect(cost?.reasons).toEqual(["Cost increased by 40.0% (>=40%)."]);
    expect(cost?.details.capped).toBe(true);
    expect(d.status).toBe("WARN");
  });

  it("warn keeps codes without a WARN twin (PII) and still softens the verdict", () => {
    const d = evaluate({ baseline, candidate: block, config: { pii: { enforce: "warn" }, cost: { enforce: "off" } } });
    expect(d.policies.map((p) => p.policy)).toEqual(["pii", "drift"]);
    expect(d.policies[0]).toMatchObject({ status: "WARN", codes: ["PII_BLOCK_EMAIL"], details: { capped: true } });
    expect(d.status).toBe("WARN");
    expect(d.reason_codes).toEqual(["PII_BLOCK_EMAIL"]);
  });

  it("warn on drift maps DRIFT_BLOCK_LENGTH_DELTA and leaves a WARN untouched", () => {
    const d = evaluate({
      baseline: seedFixture("baseline_ticket"),
      candidate: seedFixture("candidate_format_regression"),
      config: { drift: { enforce: "warn" } },
    });
    const drift = d.policies.find((p) => p.policy === "drift");
    expect(drift?.status).toBe("WARN");
    expect(drift?.codes).toEqual(["DRIFT_WARN_LENGTH_DELTA", "DRIFT_WARN_SHORT_OUTPUT"]);
    const warnOnly = evaluate({
      baseline,
      candidate: seedFixture("candidate_warn"),
      config: { drift: { enforce: "warn" } },
    });
    expect(warnOnly.policies.find((p) => p.policy === "drift")?.details).not.toHaveProperty("capped");
  });

  it("warn still lets strict promote to BLOCK", () => {
    const d = evaluate({
      baseline,
      candidate: block,
      strict: true,
      config: { cost: { enforce: "warn" }, pii: { enforce: "warn" } },
    });
    expect(d.status).toBe("BLOCK");
  });

  it("off removes the policy from policies[], metadata, reasons and metrics", () => {
    const d = evaluate({ baseline, candidate: block, config: { pii: { enforce: "off" }, cost: { enforce: "off" } } });
    expect(d.metadata.policies).toEqual(["drift"]);
    expect(d.status).toBe("ALLOW");
    expect(d.metrics).not.toHaveProperty("pii_matches");
    expect(d.metrics).not.toHaveProperty("cost_delta_pct");
  });

  it("full-mode policies honour enforce too", () => {
    const b = rec("x", { latency_ms: 100 });
    const c = rec("x", { latency_ms: 300 });
    const warned = evaluate({ baseline: b, candidate: c, mode: "full", config: { latency: { enforce: "warn" } } });
    expect(warned.policies.find((p) => p.policy === "latency")).toMatchObject({
      status: "WARN",
      codes: ["LATENCY_WARN_INCREASE"],
    });
    const off = evaluate({
      baseline: b,
      candidate: c,
      mode: "full",
      config: { latency: { enforce: "off" }, output_contract: { enforce: "off" } },
    });
    expect(off.metadata.policies).toEqual(["cost", "pii", "drift"]);
  });
});
