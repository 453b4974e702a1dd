// Parity with the original library (cholmess/breakpoint-ai) on its own PII examples: wherever the
// original decides right (by the seed's rules), the PII policy decides the same; where it decides
// wrong, the fixture says why and we decide right. test/fixtures/pii-original-cases.json holds
// the original's decisions (its default patterns run on each text) and the right ones.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { evaluatePiiPolicy, parseGateConfig } from "../src/index";
import { rec } from "./fixtures";

type TCase = {
  id: string;
  sources: string[];
  text: string;
  original: Record<string, number>;
  expected: Record<string, number>;
  why?: string;
};

const { cases } = JSON.parse(readFileSync(new URL("./fixtures/pii-original-cases.json", import.meta.url), "utf8")) as {
  cases: TCase[];
};
const cfg = parseGateConfig({}).pii;

/** Our decision as the original reports it: types and counts (none when ALLOW). */
function decide(text: string): Record<string, number> {
  const r = evaluatePiiPolicy(rec("baseline"), rec(text), cfg);
  const counts = (r.details as { counts: Record<string, number> }).counts;
  expect(r.status).toBe(Object.keys(counts).length > 0 ? "BLOCK" : "ALLOW");
  return counts;
}

const sameDecision = (a: Record<string, number>, b: Record<string, number>) =>
  JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());

describe("parity with the original library on its PII cases", () => {
  const right = cases.filter((c) => sameDecision(c.original, c.expected));
  const wrong = cases.filter((c) => !sameDecision(c.original, c.expected));

  it("covers the original's own examples and tests, and both decisions", () => {
    const fromRepo = cases.filter((c) => !c.sources.includes("probe"));
    expect(fromRepo.length).toBeGreaterThanOrEqual(30);
    expect(fromRepo.some((c) => c.sources.some((s) => s.startsWith("tests/")))).toBe(true);
    expect(fromRepo.some((c) => c.sources.some((s) => s.startsWith("examples/")))).toBe(true);
    // Every type the original blocks on its own examples is covered, blocked and allowed cases both.
    const blocked = new Set(fromRepo.flatMap((c) => Object.keys(c.original)));
    expect([...blocked].sort()).toEqual(["CREDIT_CARD", "EMAIL", "PHONE"]);
    expect(fromRepo.some((c) => Object.keys(c.original).length === 0)).toBe(true);
    // On its own examples the original is always right; the differences are all in the probes.
    expect(fromRepo.every((c) => sameDecision(c.original, c.expected))).toBe(true);
  });

  it.each(right.map((c) => [c.id, c] as const))("%s: where the original is right, so are we", (_id, c) => {
    expect(decide(c.text), c.text).toEqual(c.expected);
  });

  it.each(wrong.map((c) => [c.id, c] as const))("%s: where the original is wrong, we decide right", (_id, c) => {
    expect(c.why?.length ?? 0, `${c.id} must say why the decisions differ`).toBeGreaterThan(20);
    expect(decide(c.text), c.text).toEqual(c.expected);
  });

  it("the documented differences are the ones issue 24 names", () => {
    expect(wrong.map((c) => c.text)).toEqual(
      expect.arrayContaining([
        "created_at 1705314645", // a timestamp the original reads as a phone
        "SSN 000-12-3456 is a placeholder.",
        "London: +44 20 7946 0958",
        "IMEI: 490154203237518",
      ]),
    );
  });
});
