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

describe("SSN", () => {
  const area = fc.integer({ min: 1, max: 899 }).filter((a) => a !== 666);
  const group = fc.integer({ min: 1, max: 99 });
  const serial = fc.integer({ min: 1, max: 9999 });
  const pad = (n: number, width: number) => String(n).padStart(width, "0");

  it("an issuable SSN with separators, in prose, is found as written", () => {
    fc.assert(
      fc.property(area, group, serial, fc.constantFrom("-", " "), (a, g, s, sep) => {
        const ssn = `${pad(a, 3)}${sep}${pad(g, 2)}${sep}${pad(s, 4)}`;
        const found = scanPii(`Employee record: ${ssn}, verified.`, { types: ["SSN"] });
        return found.length === 1 && found[0]?.value === ssn;
      }),
    );
  });

  it("a never-issued one is never found, labelled or not, with or without separators", () => {
    const badArea = fc.oneof(fc.constant(0), fc.constant(666), fc.integer({ min: 900, max: 999 }));
    const invalid = fc.oneof(
      fc.tuple(badArea, group, serial),
      fc.tuple(area, fc.constant(0), serial),
      fc.tuple(area, group, fc.constant(0)),
    );
    fc.assert(
      fc.property(invalid, fc.constantFrom("-", " ", ""), ([a, g, s], sep) => {
        const ssn = `${pad(a, 3)}${sep}${pad(g, 2)}${sep}${pad(s, 4)}`;
        return scanPii(`SSN: ${ssn}`, { types: ["SSN"] }).length === 0;
      }),
    );
  });

  it("nine bare digits are an SSN only after an SSN label", () => {
    fc.assert(
      fc.property(
        area,
        group,
        serial,
        fc.constantFrom("Employee ID", "Order", "Ticket #", "routing", "ref:"),
        (a, g, s, w) => {
          const digits = `${pad(a, 3)}${pad(g, 2)}${pad(s, 4)}`;
          const unlabelled = scanPii(`${w} ${digits}`, { types: ["SSN"] }).length === 0;
          const labelled = scanPii(`SSN: ${digits}`, { types: ["SSN"] })[0]?.value === digits;
          return unlabelled && labelled;
        },
      ),
    );
  });
});

describe("international phones", () => {
  // Country codes with 1, 2 and 3 digits; national numbers of 7-11 digits in groups of 1-4.
  const code = fc.constantFrom("7", "20", "27", "33", "44", "49", "61", "81", "86", "91", "353", "852", "971");
  const groups = fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 2, maxLength: 5 });

  it("'+', a country code and grouped national digits are one phone, as written", () => {
    fc.assert(
      fc.property(code, groups, fc.constantFrom(" ", "-"), fc.nat(), (cc, sizes, sep, seed) => {
        const national = sizes.map((n, i) => String((seed + i * 7919) % 10 ** n).padStart(n, "0"));
        const digits = cc.length + national.join("").length;
        const phone = `+${cc}${sep}${national.join(sep)}`;
        const found = scanPii(`Call ${phone} today.`, { types: ["PHONE"] });
        const valid = national.join("").length >= 6 && digits >= 9 && digits <= 15;
        return valid ? found.length === 1 && found[0]?.value === phone : found.every((m) => m.value !== phone);
      }),
    );
  });
});

describe("scanner invariants", () => {
  const alphabet = fc.constantFrom(
    ..."ab1479@.-+() _xX\n".split(""),
    "example.com",
    "415",
    "4111",
    "SSN ",
    "Tel:",
    "+44 ",
    "(0)",
    "ext ",
    "IMEI ",
  );
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
