// Waivers: an accepted finding stops counting until its expiry, is listed as applied, and comes
// back (listed as expired) after. Table tests over the codes of every policy.
import { describe, expect, it } from "vitest";
import { evaluate, GateInputError, parseGateConfig, waiverEnd } from "../src/index";
import { rec } from "./fixtures";

// The seed's Test 3: cost +40% (BLOCK) and an email (BLOCK).
const baseline = rec("Hello! How can I help with your account today?", { cost_usd: 1.0 });
const candidate = rec("Contact me at hi@example.com and I will follow up.", { cost_usd: 1.4 });

const waiver = (codes: string[], expires_at: string, extra: Record<string, string> = {}) => ({
  codes,
  reason: "accepted while the fix ships",
  owner: "ana@example.com",
  expires_at,
  ...extra,
});

const run = (waivers: ReturnType<typeof waiver>[], now: string, strict = false) =>
  evaluate({ baseline, candidate, strict, config: { waivers }, now });

describe("waivers", () => {
  it("without waivers the decision has no waivers field and needs no time", () => {
    const d = evaluate({ baseline, candidate });
    expect(d.status).toBe("BLOCK");
    expect(d.waivers).toBeUndefined();
  });

  it.each([
    // codes waived, expected status, expected remaining codes
    [["COST_BLOCK_INCREASE"], "BLOCK", ["PII_BLOCK_EMAIL"]],
    [["PII_BLOCK_EMAIL"], "BLOCK", ["COST_BLOCK_INCREASE"]],
    [["COST_BLOCK_INCREASE", "PII_BLOCK_EMAIL"], "ALLOW", []],
    [["LATENCY_BLOCK_INCREASE"], "BLOCK", ["COST_BLOCK_INCREASE", "PII_BLOCK_EMAIL"]],
  ])("waiving %j leaves %s with %j", (codes, status, remaining) => {
    const d = run([waiver(codes, "2026-12-31")], "2026-11-27T12:00:00Z");
    expect(d.status).toBe(status);
    expect(d.reason_codes).toEqual(remaining);
    const matched = codes.filter((c) => c !== "LATENCY_BLOCK_INCREASE");
    expect(d.waivers?.applied.map((w) => w.matched)).toEqual(matched.length > 0 ? [matched] : []);
    expect(d.waivers?.expired).toEqual([]);
  });

  it("a waived policy reads ALLOW, loses its reasons and says what was waived", () => {
    const d = run([waiver(["COST_BLOCK_INCREASE"], "2026-12-31", { ticket: "OPS-12" })], "2026-11-27T00:00:00Z");
    const cost = d.policies.find((p) => p.policy === "cost");
    expect(cost).toMatchObject({ status: "ALLOW", reasons: [], codes: [] });
    expect(cost?.details.waived).toEqual(["COST_BLOCK_INCREASE"]);
    expect(d.reasons).toEqual(["PII detected: EMAIL(1). Total matches: 1."]);
    expect(d.waivers?.applied[0]).toEqual({
      codes: ["COST_BLOCK_INCREASE"],
      reason: "accepted while the fix ships",
      owner: "ana@example.com",
      expires_at: "2026-12-31",
      ticket: "OPS-12",
      matched: ["COST_BLOCK_INCREASE"],
    });
    // The figures are still reported: a waiver changes the verdict, not the measurement.
    expect(d.metrics.cost_delta_pct).toBe(40);
  });

  it("a date-only expiry lasts to the end of that day (UTC); after it the finding counts again", () => {
    const w = [waiver(["COST_BLOCK_INCREASE", "PII_BLOCK_EMAIL"], "2026-11-27")];
    expect(run(w, "2026-11-27T23:59:59.999Z").status).toBe("ALLOW");
    const after = run(w, "2026-11-28T00:00:00Z");
    expect(after.status).toBe("BLOCK");
    expect(after.reason_codes).toEqual(["COST_BLOCK_INCREASE", "PII_BLOCK_EMAIL"]);
    expect(after.waivers?.applied).toEqual([]);
    expect(after.waivers?.expired.map((x) => x.matched)).toEqual([["COST_BLOCK_INCREASE", "PII_BLOCK_EMAIL"]]);
    expect(waiverEnd("2026-11-27")).toBe(Date.parse("2026-11-27T23:59:59.999Z"));
  });

  it("a date-time expiry with a zone is exact to the millisecond", () => {
    const w = [waiver(["PII_BLOCK_EMAIL", "COST_BLOCK_INCREASE"], "2026-11-27T18:00:00+02:00")];
    expect(run(w, "2026-11-27T16:00:00Z").status).toBe("ALLOW");
    expect(run(w, "2026-11-27T16:00:00.001Z").status).toBe("BLOCK");
  });

  it("an expired waiver that matches nothing is still listed, so the config gets cleaned up", () => {
    const d = run([waiver(["LATENCY_WARN_INCREASE"], "2020-01-01")], "2026-11-27T00:00:00Z");
    expect(d.waivers?.expired).toMatchObject([{ codes: ["LATENCY_WARN_INCREASE"], matched: [] }]);
  });

  it("waiving a BLOCK code leaves the policy's WARN findings standing (drift: length BLOCK + short WARN)", () => {
    const d = evaluate({
      baseline: rec("x".repeat(100)),
      candidate: rec("x".repeat(20)),
      config: { waivers: [waiver(["DRIFT_BLOCK_LENGTH_DELTA"], "2099-01-01")] },
      now: "2026-11-27T00:00:00Z",
    });
    const drift = d.policies.find((p) => p.policy === "drift");
    expect(drift?.status).toBe("WARN");
    expect(drift?.codes).toEqual(["DRIFT_WARN_SHORT_OUTPUT"]);
    expect(drift?.reasons).toHaveLength(1);
    expect(drift?.reasons[0]).toMatch(/much shorter/);
  });

  it("a policy capped to WARN stays WARN when one of its codes is waived", () => {
    const d = evaluate({
      baseline,
      candidate: rec("Mail hi@example.com or call 415-555-1212.", { cost_usd: 1 }),
      config: { pii: { enforce: "warn" }, waivers: [waiver(["PII_BLOCK_EMAIL"], "2099-01-01")] },
      now: "2026-11-27T00:00:00Z",
    });
    const pii = d.policies.find((p) => p.policy === "pii");
    expect(pii?.status).toBe("WARN");
    expect(pii?.codes).toEqual(["PII_BLOCK_PHONE"]);
  });

  it("strict mode judges what is left after the waivers", () => {
    const w = [waiver(["PII_BLOCK_EMAIL", "COST_BLOCK_INCREASE"], "2099-01-01")];
    const d = evaluate({
      baseline: rec("x".repeat(100), { cost_usd: 1 }),
      candidate: rec("y".repeat(140), { cost_usd: 1 }),
      strict: true,
      config: { waivers: [...w, waiver(["DRIFT_WARN_LENGTH_DELTA"], "2099-01-01")] },
      now: "2026-11-27T00:00:00Z",
    });
    expect(d.status).toBe("ALLOW");
  });

  it("is deterministic: the same input and time give the same decision", () => {
    const w = [waiver(["COST_BLOCK_INCREASE"], "2026-12-31")];
    expect(run(w, "2026-11-27T00:00:00Z")).toEqual(run(w, "2026-11-27T00:00:00Z"));
  });
});

describe("waiver validation names the field", () => {
  const fieldOf = (fn: () => unknown) => {
    try {
      fn();
    } catch (e) {
      expect(e).toBeInstanceOf(GateInputError);
      return (e as GateInputError).field;
    }
    throw new Error("expected a GateInputError");
  };

  it.each([
    [{ codes: [], reason: "r", owner: "o", expires_at: "2026-12-31" }, "config.waivers.0.codes"],
    [{ codes: ["COST_BLOCK_INCREASE"], reason: " ", owner: "o", expires_at: "2026-12-31" }, "config.waivers.0.reason"],
    [{ codes: ["COST_BLOCK_INCREASE"], reason: "r", expires_at: "2026-12-31" }, "config.waivers.0.owner"],
    [
      { codes: ["COST_BLOCK_INCREASE"], reason: "r", owner: "o", expires_at: "next friday" },
      "config.waivers.0.expires_at",
    ],
    // A local time without a zone would end at a different moment on every runner.
    [
      { codes: ["COST_BLOCK_INCREASE"], reason: "r", owner: "o", expires_at: "2026-12-31T10:00:00" },
      "config.waivers.0.expires_at",
    ],
    [
      { codes: ["COST_BLOCK_INCREASE", "COST_BLOK"], reason: "r", owner: "o", expires_at: "2026-12-31" },
      "config.waivers.0.codes.1",
    ],
    [
      { codes: ["COST_BLOCK_INCREASE"], reason: "r", owner: "o", expires_at: "2026-12-31", until: "x" },
      "config.waivers.0",
    ],
  ])("%j -> %s", (w, field) => {
    expect(fieldOf(() => parseGateConfig({ waivers: [w] }))).toBe(field);
  });

  it("an unknown code lists the known ones", () => {
    expect(() =>
      parseGateConfig({ waivers: [{ codes: ["COST_BLOK"], reason: "r", owner: "o", expires_at: "2026-12-31" }] }),
    ).toThrow(/unknown reason code "COST_BLOK" \(known: COST_WARN_INCREASE, COST_BLOCK_INCREASE/);
  });

  it("waivers need the evaluation time; a bad time names `now`", () => {
    const config = { waivers: [waiver(["COST_BLOCK_INCREASE"], "2026-12-31")] };
    expect(fieldOf(() => evaluate({ baseline, candidate, config }))).toBe("now");
    expect(fieldOf(() => evaluate({ baseline, candidate, config, now: "Nov 27" }))).toBe("now");
    expect(fieldOf(() => evaluate({ baseline, candidate, config, now: new Date(Number.NaN) }))).toBe("now");
    expect(evaluate({ baseline, candidate, config, now: new Date("2026-11-27T00:00:00Z") }).status).toBe("BLOCK");
  });
});
