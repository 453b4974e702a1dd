// Property tests (fast-check): Luhn, the scanner's invariants, aggregation order independence,
// and evaluate()'s determinism and contract conformance.
import { GATE_POLICIES, type TPolicyResult, ZGateDecision } from "@solserver/contracts";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { aggregate, evaluate, luhnCheckDigit, luhnValid, scanPii } from "../src/index";

const digitString = (min: number, max: number) =>
  fc.array(fc.integer({ min: 0, max: 9 }), { minLength: min, maxLength: max }).map((ds) => ds.join(""));

describe("Luhn", () => {
  it("a payload plus its check digit is valid", () => {
    fc.assert(fc.property(digitString(1, 30), (payload) => luhnValid(payload + luhnCheckDigit(payload))));
  });

  it("changing any one digit of a valid number makes it invalid", () => {
    fc.assert(
      fc.property(digitString(12, 18), fc.nat(), fc.integer({ min: 1, max: 9 }), (payload, pos, bump) => {
        const valid = payload + luhnCheckDigit(payload);
        const i = pos % valid.length;
        const changed = String((Number(valid[i]) + bump) % 10);
        const broken = valid.slice(0, i) + changed + valid.slice(i + 1);
        return !luhnValid(broken);
      }),
    );
  });

  it("rejects non-digits and the empty string", () => {
    expect(luhnValid("")).toBe(false);
    expect(luhnValid("4111 1111 1111 1111")).toBe(false);
    expect(luhnValid("4111111111111111")).toBe(true);
  });

  it("a generated card number embedded in prose is found", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 9 }),
        digitString(14, 14),
        fc.constantFrom(" ", "-", ""),
        (first, rest, sep) => {
          const payload = `${first}${rest}`;
          const card = payload + luhnCheckDigit(payload); // 16 digits
          const shown = sep === "" ? card : (card.match(/.{4}/g) ?? []).join(sep);
          const found = scanPii(`Your card ${shown} was charged.`, { types: ["CREDIT_CARD"] });
          return found.length === 1 && found[0]?.value === shown;
        },
      ),
    );
  });
});

describe("scanner invariants", () => {
  const alphabet = fc.constantFrom(..."ab1479@.-+() _xX\n".split(""), "example.com", "415", "4111");
  const text = fc.array(alphabet, { maxLength: 200 }).map((parts) => parts.join(""));

  it("matches are in order, non-overlapping, and are the text at their index", () => {
    fc.assert(
      fc.property(fc.oneof(text, fc.string({ maxLength: 200 })), (t) => {
        let end = 0;
        for (const m of scanPii(t)) {
          if (m.index < end) return false;
          if (t.slice(m.index, m.index + m.value.length) !== m.value) return false;
          end = m.index + m.value.length;
        }
        return true;
      }),
    );
  });
});

describe("aggregate", () => {
  const statusArb = fc.constantFrom("ALLOW", "WARN", "BLOCK") as fc.Arbitrary<TPolicyResult["status"]>;
  const resultArb = (policy: TPolicyResult["policy"]) =>
    fc.record({
      policy: fc.constant(policy),
      status: statusArb,
      title: fc.string(),
      reasons: fc.array(fc.string(), { maxLength: 2 }),
      codes: fc.array(fc.string(), { maxLength: 2 }),
      details: fc.constant({}),
    });
  const anyResult = fc.constantFrom(...GATE_POLICIES).chain(resultArb);

  it("status never depends on the order of the results", () => {
    fc.assert(
      fc.property(fc.array(anyResult, { maxLength: 8 }), fc.boolean(), fc.nat(), (results, strict, seed) => {
        const shuffled = [...results].sort(
          (a, b) => ((a.title.length * 31 + seed) % 7) - ((b.title.length * 31 + seed) % 7),
        );
        return aggregate(results, strict).status === aggregate(shuffled.reverse(), strict).status;
      }),
    );
  });

  it("with one result per policy, the whole aggregate is order-independent", () => {
    const onePerPolicy = fc.tuple(...GATE_POLICIES.map(resultArb));
    fc.assert(
      fc.property(onePerPolicy, fc.boolean(), (results, strict) => {
        expect(aggregate([...results].reverse(), strict)).toEqual(aggregate(results, strict));
      }),
    );
  });

  it("follows the seed's rules", () => {
    fc.assert(
      fc.property(fc.array(anyResult, { maxLength: 8 }), fc.boolean(), (results, strict) => {
        const statuses = results.map((r) => r.status);
        const expected = statuses.includes("BLOCK")
          ? "BLOCK"
          : statuses.includes("WARN")
            ? strict
              ? "BLOCK"
              : "WARN"
            : "ALLOW";
        const agg = aggregate(results, strict);
        return agg.status === expected && agg.reasons.length === results.reduce((n, r) => n + r.reasons.length, 0);
      }),
    );
  });

  it("no results is ALLOW", () => {
    expect(aggregate([], true)).toEqual({ status: "ALLOW", reasons: [], reason_codes: [] });
  });
});

describe("evaluate", () => {
  const record = fc.record(
    {
      output: fc.oneof(fc.string({ maxLength: 300 }), fc.constantFrom("", "a@example.com", "415-555-1212", '{"a":1}')),
      cost_usd: fc.double({ min: 0, max: 10, noNaN: true }),
      tokens_in: fc.nat({ max: 100_000 }),
      tokens_out: fc.nat({ max: 100_000 }),
      latency_ms: fc.double({ min: 0, max: 10_000, noNaN: true }),
      model: fc.constantFrom("gpt-4.1", "gpt-4o-mini", "unknown"),
    },
    { requiredKeys: ["output"] },
  );

  it("is deterministic, JSON-safe, and conforms to ZGateDecision", () => {
    fc.assert(
      fc.property(
        record,
        record,
        fc.constantFrom("lite", "full") as fc.Arbitrary<"lite" | "full">,
        fc.boolean(),
        (baseline, candidate, mode, strict) => {
          const config = { output_contract: { types: { a: "number" as const } } };
          const first = evaluate({ baseline, candidate, mode, strict, config });
          const second = evaluate({ baseline, candidate, mode, strict, config });
          expect(second).toEqual(first);
          expect(JSON.parse(JSON.stringify(first))).toEqual(first);
          expect(ZGateDecision.safeParse(first).success).toBe(true);
        },
      ),
    );
  });
});
