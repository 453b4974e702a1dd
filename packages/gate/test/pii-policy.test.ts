import { describe, expect, it } from "vitest";
import { evaluate, evaluatePiiPolicy, parseGateConfig } from "../src/index";
import { rec } from "./fixtures";

const cfg = parseGateConfig({}).pii;
const pii = (output: string, config = cfg) => evaluatePiiPolicy(rec("baseline"), rec(output), config);

describe("PII policy", () => {
  it("clean output: ALLOW with the seed's title and a zero metric", () => {
    const r = pii("Nothing personal here. Order 12345 ships on 2024-11-22.");
    expect(r).toEqual({
      policy: "pii",
      status: "ALLOW",
      title: "No PII detected: No issues.",
      reasons: [],
      codes: [],
      details: { counts: {}, matches: [], metrics: { pii_matches: 0 } },
    });
  });

  it("codes follow the fixed type order EMAIL, PHONE, CREDIT_CARD, not the order of appearance", () => {
    const r = pii("card 4111 1111 1111 1111, phone 415-555-1212, mail a@example.com");
    expect(r.status).toBe("BLOCK");
    expect(r.codes).toEqual(["PII_BLOCK_EMAIL", "PII_BLOCK_PHONE", "PII_BLOCK_CREDIT_CARD"]);
    expect(r.reasons).toEqual(["PII detected: EMAIL(1), PHONE(1), CREDIT_CARD(1). Total matches: 3."]);
    expect(r.title).toBe("No PII detected: Detected 3 match(es).");
    expect(r.details.matches).toEqual([
      { type: "CREDIT_CARD", index: 5, start: 5, end: 24, masked: "****-****-****-1111" },
      { type: "PHONE", index: 32, start: 32, end: 44, masked: "***-***-1212" },
      { type: "EMAIL", index: 51, start: 51, end: 64, masked: "a***@example.com" },
    ]);
  });

  it("start/end locate each match in the output as given, full-width digits and invisible characters too", () => {
    const text = "call ４１５-５５５-１２１２ or 415\u200b-555-1212 now";
    const matches = pii(text).details.matches as { start: number; end: number }[];
    expect(matches.map((m) => text.slice(m.start, m.end))).toEqual(["４１５-５５５-１２１２", "415\u200b-555-1212"]);
  });

  it("details never hold a full value", () => {
    const text = "john.doe@example.com 4111111111111111 (415) 555-1212";
    const details = JSON.stringify(pii(text).details);
    expect(details).not.toContain("john.doe");
    expect(details).not.toContain("4111111111111111");
    expect(details).not.toContain("555-1212");
  });

  it("config.pii.types limits what is looked for", () => {
    const r = pii("a@example.com 415-555-1212", { ...cfg, types: ["PHONE"] });
    expect(r.codes).toEqual(["PII_BLOCK_PHONE"]);
  });

  it("config.pii.allowlist through evaluate()", () => {
    const d = evaluate({
      baseline: rec("Contact support."),
      candidate: rec("Contact support@example.com or call 1-800-555-0199."),
      config: { pii: { allowlist: ["*@example.com", "800-555-0199"] } },
    });
    expect(d.policies[0]?.status).toBe("ALLOW");
    expect(d.metrics.pii_matches).toBe(0);
  });

  it("scans the candidate only", () => {
    expect(evaluatePiiPolicy(rec("a@example.com"), rec("clean"), cfg).status).toBe("ALLOW");
  });
});
