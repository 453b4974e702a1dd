// SSN detection (src/pii-ssn.ts): the written forms, the never-issued ranges, the label rule for
// nine bare digits, and the policy's code and mask.
import { describe, expect, it } from "vitest";
import { evaluatePiiPolicy, jsonStrings, parseGateConfig, scanPii } from "../src/index";
import { rec } from "./fixtures";

const ssns = (text: string | readonly string[]) =>
  scanPii(text)
    .filter((m) => m.type === "SSN")
    .map((m) => m.value);

describe("SSN: written forms", () => {
  it.each(["123-45-6789", "123 45 6789", "078-05-1120", "899-01-4432", "665-01-2345", "667-34-0091"])(
    "finds %s",
    (ssn) => {
      expect(scanPii(`SSN on file: ${ssn}.`)).toEqual([
        { type: "SSN", value: ssn, index: 13, source: { start: 13, end: 13 + ssn.length } },
      ]);
      expect(ssns(`${ssn}`)).toEqual([ssn]); // no label needed with separators
    },
  );

  it("finds several, and in full-width digits", () => {
    expect(ssns("Both spouses: 318-44-2075 and 318-44-2076.")).toEqual(["318-44-2075", "318-44-2076"]);
    expect(ssns("SSN＃５１２－３３－８８１０")).toEqual(["512-33-8810"]);
  });

  it("needs the same separator twice, and no dots", () => {
    for (const text of ["123-45 6789", "123 45-6789", "123.45.6789", "123--45-6789", "12-345-6789", "1234-5-6789"]) {
      expect(ssns(text), text).toEqual([]);
    }
  });

  it("does not match inside longer numbers or rows of numbers", () => {
    for (const text of [
      "Part 123-45-6789-01",
      "12-123-45-6789",
      "123-45-67890",
      "9123-45-6789",
      "x123-45-6789",
      "123-45-6789x",
      "Counts: 123 45 6789 12",
      "rows 1 123 45 6789",
      "v1.123-45-6789",
    ]) {
      expect(ssns(text), text).toEqual([]);
    }
    // A dashed SSN may follow a number and a space ("employee 4471 123-45-6789" reads as two values).
    expect(ssns("employee 4471 532-90-6618")).toEqual(["532-90-6618"]);
  });
});

describe("SSN: ranges the SSA never issues are not SSNs", () => {
  it.each([
    ["area 000", "000-12-3456"],
    ["area 666", "666-12-3456"],
    ["area 900", "900-12-3456"],
    ["area 987 (the advertising block)", "987-65-4321"],
    ["area 999", "999-12-3456"],
    ["group 00", "123-00-4567"],
    ["serial 0000", "123-45-0000"],
  ])("%s", (_label, ssn) => {
    expect(ssns(`SSN ${ssn}`)).toEqual([]);
    expect(ssns(`SSN ${ssn.replaceAll("-", "")}`)).toEqual([]); // labelled bare digits too
  });

  it("the edges of each range are issuable", () => {
    for (const ssn of ["001-01-0001", "665-99-9999", "667-01-0001", "899-99-9999", "123-01-0001", "123-99-9999"]) {
      expect(ssns(ssn), ssn).toEqual([ssn]);
    }
  });
});

describe("SSN: nine bare digits only when labelled", () => {
  it.each([
    ["SSN 523456789", "523456789"],
    ["ssn:665012345", "665012345"],
    ["SSN#: 740221984", "740221984"],
    ["My social security number is 482910337 and my zip is 30301.", "482910337"],
    ["The borrower's Social Security No. 611450923", "611450923"],
    ["Social security: 127384401", "127384401"],
    ['"ssn": "734112908"', "734112908"],
  ])("%s", (text, ssn) => {
    expect(ssns(text)).toEqual([ssn]);
  });

  it("a JSON key labels its value (read as the policy reads JSON)", () => {
    const json = '{"customer": {"first": "Ray", "ssn": "734112908", "id": "523456789"}}';
    expect(ssns(jsonStrings(json) ?? json)).toEqual(["734112908"]);
  });

  it("not without a label, nor with another one", () => {
    for (const text of [
      "523456789",
      "Employee ID 523456789",
      "Bank routing number 021000021",
      "Ticket #482913375",
      "security 523456789", // "security" alone, not "social security"
      "SSNs 523456789",
      "xSSN 523456789",
      "SSN 5234567890", // ten digits
      "SSN 52345678",
      "SSN: 523-456-789",
    ]) {
      expect(ssns(text), text).toEqual([]);
    }
  });

  it("the label must stand right before the number (a few filler words at most)", () => {
    expect(ssns("SSN number is 523456789")).toEqual(["523456789"]);
    expect(ssns("SSN, and the invoice is 523456789")).toEqual([]);
    expect(ssns(`SSN ${"x ".repeat(40)}523456789`)).toEqual([]);
  });

  it("a part or serial number shaped like an SSN is not one", () => {
    expect(ssns("Part 123-45-6789 is backordered")).toEqual([]);
    expect(ssns("S/N 123-45-6789")).toEqual([]);
    expect(ssns("Serial no. 123 45 6789")).toEqual([]);
    // Only right before it (naming words aside): "the part at" or a far label does not count.
    expect(ssns("I sent the part at 123-45-6789")).toEqual(["123-45-6789"]);
    expect(ssns("Lot 7, employee 123-45-6789")).toEqual(["123-45-6789"]);
  });
});

describe("SSN in the PII policy", () => {
  const cfg = parseGateConfig({}).pii;

  it("BLOCKs with PII_BLOCK_SSN, after the other types, and masks the number", () => {
    const r = evaluatePiiPolicy(rec("b"), rec("SSN 123-45-6789, mail a@example.com"), cfg);
    expect(r.status).toBe("BLOCK");
    expect(r.codes).toEqual(["PII_BLOCK_EMAIL", "PII_BLOCK_SSN"]);
    expect(r.reasons).toEqual(["PII detected: EMAIL(1), SSN(1). Total matches: 2."]);
    expect(r.details.matches).toEqual([
      { type: "SSN", index: 4, start: 4, end: 15, masked: "***-**-6789" },
      { type: "EMAIL", index: 22, start: 22, end: 35, masked: "a***@example.com" },
    ]);
    expect(JSON.stringify(r.details)).not.toContain("123-45");
  });

  it("is on by default and can be turned off or allowlisted by digits", () => {
    expect(cfg.types).toContain("SSN");
    const text = "SSN 123 45 6789";
    expect(evaluatePiiPolicy(rec("b"), rec(text), { ...cfg, types: ["EMAIL"] }).status).toBe("ALLOW");
    expect(evaluatePiiPolicy(rec("b"), rec(text), { ...cfg, allowlist: ["123-45-6789"] }).status).toBe("ALLOW");
    expect(evaluatePiiPolicy(rec("b"), rec(text), { ...cfg, allowlist: ["*6789"] }).status).toBe("ALLOW");
    expect(evaluatePiiPolicy(rec("b"), rec(text), { ...cfg, allowlist: ["123-45-6780"] }).status).toBe("BLOCK");
  });
});
