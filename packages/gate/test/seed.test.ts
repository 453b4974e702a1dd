// The seed's six tests (002 "Detailed Test Methodology"), run on the fixtures under
// test/fixtures/seed/ with the seed's numbers.
import { describe, expect, it } from "vitest";
import { evaluate } from "../src/index";
import { seedFixture } from "./fixtures";

const baseline = seedFixture("baseline");
const ticket = seedFixture("baseline_ticket");

describe("seed fixtures", () => {
  it("have the lengths the seed states", () => {
    expect(baseline.output).toBe("Hello! How can I help with your account today?");
    expect(baseline.output).toHaveLength(46);
    expect(seedFixture("candidate_warn").output).toBe(
      "Hello! I can help. Please share your account number and issue details.",
    );
    expect(seedFixture("candidate_warn").output).toHaveLength(70);
    // The seed says 54 characters; the string it quotes has 50 (see Test 3).
    expect(seedFixture("candidate_block").output).toBe("Contact me at hi@example.com and I will follow up.");
    expect(seedFixture("candidate_block").output).toHaveLength(50);
    expect(ticket.output).toHaveLength(140);
    expect(ticket.output.startsWith('{"ticket_summary":')).toBe(true);
    expect(JSON.parse(ticket.output)).toMatchObject({ severity: "medium" });
    expect(seedFixture("candidate_format_regression").output).toBe("I fixed it. Customer should try again.");
    expect(seedFixture("candidate_format_regression").output).toHaveLength(38);
    const verbose = seedFixture("candidate_pii_verbose").output;
    expect(verbose).toHaveLength(401);
    for (const pii of ["john.doe@example.com", "ops+oncall@example.com", "415-555-1212", "212-555-0100"]) {
      expect(verbose).toContain(pii);
    }
  });
});

describe("Test 1: ALLOW", () => {
  it("1% cost increase and a minimal length change pass every policy", () => {
    const d = evaluate({ baseline, candidate: seedFixture("candidate_allow") });
    expect(d.status).toBe("ALLOW");
    expect(d.reasons).toEqual([]);
    expect(d.reason_codes).toEqual([]);
    expect(d.policies.map((p) => [p.policy, p.status])).toEqual([
      ["cost", "ALLOW"],
      ["pii", "ALLOW"],
      ["drift", "ALLOW"],
    ]);
    expect(d.metrics.cost_delta_pct).toBe(1);
    expect(d.policies.map((p) => p.title)).toEqual([
      "Cost: Delta +1.00%.",
      "No PII detected: No issues.",
      "Output drift: No issues.",
    ]);
  });
});

describe("Test 2: WARN", () => {
  it("cost +25% and length +52.17% both WARN", () => {
    const d = evaluate({ baseline, candidate: seedFixture("candidate_warn") });
    expect(d.status).toBe("WARN");
    expect(d.policies.map((p) => p.status)).toEqual(["WARN", "ALLOW", "WARN"]);
    expect(d.reasons).toEqual(["Cost increased by 25.0% (>=20%).", "Output length expanded by 52.17% (>=35%)."]);
    expect(d.reason_codes).toEqual(["COST_WARN_INCREASE", "DRIFT_WARN_LENGTH_DELTA"]);
    expect(d.metrics).toMatchObject({ cost_delta_pct: 25, length_delta_pct: 52.17 });
    expect(d.policies[2]?.title).toBe("Output drift: Length delta +52.17%.");
  });
});

describe("Test 3: BLOCK", () => {
  it("cost +40% (exactly the threshold) and an email BLOCK; drift stays ALLOW", () => {
    const d = evaluate({ baseline, candidate: seedFixture("candidate_block") });
    expect(d.status).toBe("BLOCK");
    expect(d.policies.map((p) => [p.policy, p.status])).toEqual([
      ["cost", "BLOCK"],
      ["pii", "BLOCK"],
      ["drift", "ALLOW"],
    ]);
    // Evaluation order, as the seed's aggregation example lists them: cost, then PII. (Its text
    // report shows the policy lines PII first; the CLI sorts them for display.)
    expect(d.reasons).toEqual(["Cost increased by 40.0% (>=40%).", "PII detected: EMAIL(1). Total matches: 1."]);
    expect(d.reason_codes).toEqual(["COST_BLOCK_INCREASE", "PII_BLOCK_EMAIL"]);
    expect(d.metrics.cost_delta_pct).toBe(40);
    expect(d.metrics.cost_delta_usd).toBe(0.4);
    expect(d.policies.map((p) => p.title)).toEqual([
      "Cost: Delta +40.00%.",
      "No PII detected: Detected 1 match(es).",
      "Output drift: No issues.",
    ]);
    // The seed claims 54 characters and a 17.39% delta, but its candidate string has 50
    // characters: |50 - 46| / 46 = 8.70%. Either way it is under 35%, so drift is ALLOW.
    expect(d.metrics.candidate_length).toBe(50);
    expect(d.metrics.length_delta_pct).toBe(8.7);
  });

  it("metadata names the mode, models and the policies that ran", () => {
    const d = evaluate({ baseline, candidate: seedFixture("candidate_block") });
    expect(d.metadata).toEqual({
      mode: "lite",
      strict: false,
      baseline_model: "gpt-4.1-mini",
      candidate_model: "gpt-4.1-mini",
      policies: ["cost", "pii", "drift"],
    });
  });
});

describe("Test 4: strict mode", () => {
  it("promotes Test 2's WARN to BLOCK with the same reasons", () => {
    const lenient = evaluate({ baseline, candidate: seedFixture("candidate_warn") });
    const strict = evaluate({ baseline, candidate: seedFixture("candidate_warn"), strict: true });
    expect(strict.status).toBe("BLOCK");
    expect(strict.reasons).toEqual(lenient.reasons);
    expect(strict.reason_codes).toEqual(lenient.reason_codes);
    expect(strict.metadata.strict).toBe(true);
    // Strict changes the verdict, not the policies' own findings.
    expect(strict.policies).toEqual(lenient.policies);
  });

  it("leaves ALLOW as ALLOW", () => {
    expect(evaluate({ baseline, candidate: seedFixture("candidate_allow"), strict: true }).status).toBe("ALLOW");
  });
});

describe("Test 5: format regression", () => {
  it("a 140-char JSON answer replaced by 38 chars of prose is a 72.86% compression: BLOCK", () => {
    const d = evaluate({ baseline: ticket, candidate: seedFixture("candidate_format_regression") });
    expect(d.status).toBe("BLOCK");
    const drift = d.policies.find((p) => p.policy === "drift");
    expect(drift?.status).toBe("BLOCK");
    expect(drift?.reasons[0]).toBe("Output length compressed by 72.86% (>=70%).");
    expect(drift?.codes).toEqual(["DRIFT_BLOCK_LENGTH_DELTA", "DRIFT_WARN_SHORT_OUTPUT"]);
    expect(drift?.title).toBe("Output drift: Length delta -72.86%.");
    expect(d.metrics.length_delta_pct).toBe(72.86);
  });

  it("in full mode with a JSON contract the output contract BLOCKs too", () => {
    const d = evaluate({
      baseline: ticket,
      candidate: seedFixture("candidate_format_regression"),
      mode: "full",
      config: { output_contract: { required_keys: ["ticket_summary", "severity"] } },
    });
    const contract = d.policies.find((p) => p.policy === "output_contract");
    expect(contract?.status).toBe("BLOCK");
    expect(contract?.codes).toEqual(["CONTRACT_BLOCK_INVALID_JSON"]);
  });
});

describe("Test 6: PII leak + verbosity drift", () => {
  it("finds two emails and two phones and a 186.43% expansion", () => {
    const d = evaluate({ baseline: ticket, candidate: seedFixture("candidate_pii_verbose") });
    expect(d.status).toBe("BLOCK");
    expect(d.reasons).toEqual([
      "PII detected: EMAIL(2), PHONE(2). Total matches: 4.",
      "Output length expanded by 186.43% (>=70%).",
    ]);
    expect(d.reason_codes).toEqual(["PII_BLOCK_EMAIL", "PII_BLOCK_PHONE", "DRIFT_BLOCK_LENGTH_DELTA"]);
    expect(d.metrics).toMatchObject({ pii_matches: 4, length_delta_pct: 186.43 });
    expect(d.policies.find((p) => p.policy === "pii")?.title).toBe("No PII detected: Detected 4 match(es).");
  });

  it("never stores the matched values in full", () => {
    const d = evaluate({ baseline: ticket, candidate: seedFixture("candidate_pii_verbose") });
    const pii = d.policies.find((p) => p.policy === "pii");
    const details = JSON.stringify(pii?.details);
    for (const pii of ["john.doe@example.com", "ops+oncall@example.com", "415-555-1212", "212-555-0100"]) {
      expect(details).not.toContain(pii);
    }
    expect(pii?.details).toMatchObject({
      counts: { EMAIL: 2, PHONE: 2 },
      matches: [
        { type: "EMAIL", masked: "j***@example.com" },
        { type: "EMAIL", masked: "o***@example.com" },
        { type: "PHONE", masked: "***-***-1212" },
        { type: "PHONE", masked: "***-***-0100" },
      ],
    });
  });
});
