// PII is judged on what people read: for every PII sample and EVERY character that can stand
// before or after it (all of U+0000-U+007F, the C1 controls, every Unicode format character,
// lone surrogates, full-width digits and '@'), the scanner finds the value, and a JSON envelope
// carrying it in any string, at any depth, is BLOCKed by the PII policy. (Issue 17: a control
// character before a number became "\u0001" in the JSON text the gate scanned, and its hex
// digits glued to the number.) The only characters left out are the few that make the text
// another token by the scanner's documented rules (gluesToSample in src/testing.ts).
//
// The turn pipeline's gate and stream guard are proven against the same grid in
// packages/control-plane/test/turn-gate-pii.test.ts and turn-stream.test.ts.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { evaluate, scanPii } from "../src/index";
import { gluesToSample, NOT_PII_LABELS, PII_SAMPLES, piiNeighbours, type TPiiSample } from "../src/testing";

const NEIGHBOURS = piiNeighbours();
const CODE = {
  EMAIL: "PII_BLOCK_EMAIL",
  PHONE: "PII_BLOCK_PHONE",
  CREDIT_CARD: "PII_BLOCK_CREDIT_CARD",
  SSN: "PII_BLOCK_SSN",
} as const;

/** `prefix + sample + suffix`, and whether the scanner reports a value of its type overlapping it. */
function foundIn(sample: TPiiSample, prefix: string, suffix: string): boolean {
  const text = prefix + sample.value + suffix;
  const from = prefix.length;
  const to = from + sample.value.length;
  return scanPii(text).some((m) => m.type === sample.type && m.source.start < to && m.source.end > from);
}

/** Every (sample, neighbour, side) the grid covers, with the text around it. */
function* grid() {
  for (const sample of PII_SAMPLES) {
    for (const { char, name } of NEIGHBOURS) {
      for (const side of ["before", "after"] as const) {
        if (gluesToSample(sample, char, side)) continue;
        yield { sample, char, name, side };
      }
    }
  }
}

/** The words around the value: letters on both sides, the hardest case for a word boundary. */
const around = (char: string, side: "before" | "after") =>
  side === "before"
    ? { prefix: `Call the owner at${char}`, suffix: " today." }
    : { prefix: "Call ", suffix: `${char}today` };

describe("the scanner finds every sample next to every character", () => {
  it("covers the whole grid (the neighbours the issue names, minus the documented exclusions)", () => {
    expect(NEIGHBOURS.length).toBeGreaterThan(128 + 32 + 150 + 2 + 11);
    const cases = [...grid()];
    // What is excluded: ASCII and full-width word characters glued to phones and cards, '+'
    // before a phone, a digit after the email. Nothing else.
    const excluded = PII_SAMPLES.length * NEIGHBOURS.length * 2 - cases.length;
    const phones = PII_SAMPLES.filter((s) => s.type === "PHONE").length;
    const numbers = PII_SAMPLES.filter((s) => s.type !== "EMAIL").length;
    expect(excluded).toBe(numbers * (63 + 10) * 2 + phones + (10 + 10));
  });

  it("before or after, with letters around it", () => {
    const missed: string[] = [];
    for (const { sample, char, name, side } of grid()) {
      const { prefix, suffix } = around(char, side);
      if (!foundIn(sample, prefix, suffix)) missed.push(`${sample.value} ${side} ${name}`);
    }
    expect(missed).toEqual([]);
  });

  it("in JSON text, decoded as the PII policy reads it: the issue's measured answer is blocked", () => {
    const text = "Call the owner at\u0001415-555-1212 or charge card\u00014111111111111111 today.";
    const candidate = { output: JSON.stringify({ assistant_text: text, meta: {} }) };
    const decision = evaluate({ baseline: candidate, candidate });
    const pii = decision.policies.find((p) => p.policy === "pii");
    expect(pii?.status).toBe("BLOCK");
    expect(pii?.codes).toEqual(["PII_BLOCK_PHONE", "PII_BLOCK_CREDIT_CARD"]);
  });

  it("in full-width form", () => {
    const wide = (s: string) => s.replace(/[0-9@]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
    for (const sample of PII_SAMPLES) {
      const found = scanPii(`Call ${wide(sample.value)} today.`);
      expect(
        found.map((m) => [m.type, m.value]),
        sample.value,
      ).toEqual([[sample.type, sample.value]]);
    }
  });
});

// ---- the same grid through evaluate(), the sample anywhere in a JSON envelope ----------------

// Any words but the few that name a non-personal number ("sn 415-555-1212" is a serial number).
const word = fc.stringMatching(/^[a-z]{1,8}$/).filter((w) => !NOT_PII_LABELS.has(w));
const words = fc.array(word, { minLength: 0, maxLength: 6 }).map((ws) => ws.join(" "));
/**
 * A meta object of random shape: strings, numbers and booleans in nested arrays and objects. (The
 * numbers stay short: 13-19 digits that pass Luhn read as a card number, in JSON too, even the
 * digits after a decimal point.)
 */
const meta = fc.dictionary(
  word,
  fc.oneof(
    words,
    fc.integer({ min: 0, max: 100 }).map((n) => n / 100),
    fc.integer({ min: -9999, max: 9999 }),
    fc.boolean(),
    fc.array(words, { maxLength: 3 }),
  ),
  { maxKeys: 5 },
);

/** Puts `text` at a random place: assistant_text, a meta value, a list item, a proposal's summary. */
function placed(text: string, where: number, base: Record<string, unknown>, answer: string) {
  const suggestion = (summary: string) => ({
    op: "create",
    title: "Owner contact",
    delta_summary: summary,
    confidence: 0.8,
  });
  switch (where % 5) {
    case 0:
      return { assistant_text: `${answer} ${text}`, meta: base };
    case 1:
      return { assistant_text: answer, meta: { ...base, cfb_suggestions: [suggestion(text)] } };
    case 2:
      return { assistant_text: answer, meta: { ...base, unknowns: [{ id: "u1", text }] } };
    case 3:
      return { assistant_text: answer, meta: { ...base, deep: { list: [answer, { note: text }] } } };
    default:
      return { assistant_text: answer, meta: { [text]: true, ...base } }; // even a key
  }
}

describe("evaluate() BLOCKs an envelope carrying a sample next to any character, anywhere in it", () => {
  const cases = [...grid()];

  it("property: random envelope, random place, random words around", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...cases),
        fc.nat(),
        meta,
        words,
        words,
        ({ sample, char, side }, where, base, answer, next) => {
          const text = side === "before" ? `at${char}${sample.value} ${next}` : `${sample.value}${char}${next}`;
          const envelope = placed(text, where, base, answer);
          const candidate = { output: JSON.stringify(envelope) };
          const pii = evaluate({ baseline: candidate, candidate }).policies.find((p) => p.policy === "pii");
          return pii?.status === "BLOCK" && pii.codes.includes(CODE[sample.type]);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("property: the same envelopes without the sample are not blocked for PII", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...NEIGHBOURS),
        fc.nat(),
        meta,
        words,
        words,
        ({ char }, where, base, answer, next) => {
          const envelope = placed(`at${char} ${next}`, where, base, answer);
          const candidate = { output: JSON.stringify(envelope) };
          return (
            evaluate({ baseline: candidate, candidate }).policies.find((p) => p.policy === "pii")?.status === "ALLOW"
          );
        },
      ),
      { numRuns: 1000 },
    );
  });
});
