// Adversarial input: 100 KB strings shaped to hurt backtracking matchers (long almost-matches,
// many anchors, nested separators, random digits / separators / pluses, label words over and
// over). Each is scanned and evaluated in full mode to its verdict, and the shapes that hold PII
// are found. No wall-clock bound here (a busy CI machine would fail it): every regex in the
// scanner is proved linear by test/linear-regexes.test.ts, the test's timeout bounds the rest, and
// `pnpm bench:gate` measures the time of each shape.
import { describe, expect, it } from "vitest";
import { evaluate, scanPii } from "../src/index";

const SIZE = 100_000;

const fill = (unit: string, prefix = "", suffix = "") =>
  prefix + unit.repeat(Math.ceil((SIZE - prefix.length - suffix.length) / unit.length)) + suffix;

/** SIZE characters drawn from `alphabet` by a seeded PRNG (the same text every run). */
function mix(alphabet: string, seed: number): string {
  let state = seed;
  let out = "";
  while (out.length < SIZE) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    out += alphabet[(state >>> 16) % alphabet.length]; // high bits: the low ones of an LCG cycle fast
  }
  return out;
}

const ADVERSARIAL: Record<string, string> = {
  "a*N + @": fill("a", "", "@"),
  "a@ + a.*N": fill("a.", "a@"),
  "1-*N": fill("1-"),
  "4*N": fill("4"),
  "@*N": fill("@"),
  "a@*N": fill("a@"),
  "a.*N + @x.com": fill("a.", "", "@x.com"),
  "(a*64 + @)*N": fill(`${"a".repeat(64)}@`),
  "@ + (label.)*N": fill(`${"a".repeat(62)}.`, "x@"),
  "x@ + a-*N": fill("a-", "x@"),
  "(x@ + 252 domain chars)*N": fill(`x@${"ab.".repeat(84)}`),
  "1 *N": fill("1 "),
  "4111 *N": fill("4111 "),
  "4111-*N": fill("4111-"),
  "(415) *N": fill("(415) "),
  "+1 *N": fill("+1 "),
  "415-555-*N": fill("415-555-"),
  "1-415-555-121*N": fill("1-415-555-121"),
  "digit groups 4-6-5 *N": fill("3782 822463 1000 "),
  "valid cards glued *N": fill("4111111111111111 "),
  "emails *N": fill("john.doe@example.com "),
  "phones *N": fill("415-555-1212 "),
  "mixed separators": fill("1.2-3 4(5)6+7@8."),
  // What the scanner reads first (pii-read.ts): invisible runs read two ways, NFKC segments.
  "4 + zero-width space *N": fill("4\u200b"),
  "a + zero-width space *N": fill("a\u200b"),
  "415-<ZWSP>555-<ZWSP>1212 *N": fill("415-\u200b555-\u200b1212 "),
  "controls *N": fill("\u0001"),
  "full-width digits *N": fill("４"),
  "full-width card + space *N": fill("４１１１１１１１１１１１１１１１ "),
  "lone surrogates *N": fill("\ud800"),
  // International phones, extensions, labels (pii-phone.ts, pii-label.ts), SSNs (pii-ssn.ts).
  "+*N": fill("+"),
  "+4*N": fill("+4"),
  "+44 *N": fill("+44 "),
  "+44 (0)*N": fill("+44 (0)"),
  "(0)*N": fill("(0)"),
  "+44 1 2 3 4 5 6 7 8 9 *N": fill("+44 1 2 3 4 5 6 7 8 9 "),
  "digits, separators, pluses, parens (random)": mix("0123456789 -.+()", 1),
  "digits and pluses (random)": mix("0123456789+", 2),
  "digits and spaces (random)": mix("0123456789 ", 3),
  "415-555-1212x*N": fill("415-555-1212x"),
  "415-555-1212-1*N": fill("415-555-1212-1"),
  "Tel:415555121 *N": fill("Tel:415555121 "),
  "social security number is *N": fill("social security number is "),
  "SSN 12345678 *N": fill("SSN 12345678 "),
  "123-45-678*N": fill("123-45-678"),
  "123 45 6789 *N": fill("123 45 6789 "),
  "IMEI 4111111111111111 *N": fill("IMEI 4111111111111111 "),
  "4111-1111 *N": fill("4111-1111 "),
  "DE89 *N": fill("DE89 "),
  "a@b.co: + a*N": fill("a", "a@b.co:"),
  "git@github.com:*N": fill("git@github.com:"),
  "intl phones *N": fill("+44 20 7946 0958 "),
  "labelled phones *N": fill("Tel:4155551212 "),
  "SSNs *N": fill("SSN 123-45-6789 "),
  "13-digit cards *N": fill("4222 2222 2222 2 "),
};

describe("adversarial 100 KB inputs", () => {
  for (const [name, text] of Object.entries(ADVERSARIAL)) {
    it(`scanPii: ${name}`, () => {
      expect(text.length).toBeGreaterThanOrEqual(SIZE);
      expect(Array.isArray(scanPii(text))).toBe(true);
    });
  }

  it("evaluate (full mode, with a JSON contract) on each shape", () => {
    const config = { output_contract: { json: true, required_keys: ["a"] } };
    const baseline = { output: "A short, ordinary baseline answer.", cost_usd: 1, latency_ms: 100 };
    for (const [name, text] of Object.entries(ADVERSARIAL)) {
      const decision = evaluate({ baseline, candidate: { output: text }, mode: "full", config });
      // Not JSON: the contract blocks every shape, whatever else fires.
      expect(decision.status, name).toBe("BLOCK");
    }
  });

  it("finds what is there in the non-degenerate shapes", () => {
    expect(scanPii(ADVERSARIAL["emails *N"] as string).length).toBeGreaterThan(4000);
    expect(scanPii(ADVERSARIAL["phones *N"] as string).length).toBeGreaterThan(7000);
    expect(scanPii(ADVERSARIAL["valid cards glued *N"] as string).length).toBeGreaterThan(5000);
    expect(scanPii(ADVERSARIAL["intl phones *N"] as string).length).toBeGreaterThan(5000);
    expect(scanPii(ADVERSARIAL["labelled phones *N"] as string).length).toBeGreaterThan(6000);
    expect(scanPii(ADVERSARIAL["SSNs *N"] as string).length).toBeGreaterThan(6000);
    expect(scanPii(ADVERSARIAL["13-digit cards *N"] as string).length).toBeGreaterThan(5000);
    expect(scanPii(ADVERSARIAL["4*N"] as string)).toEqual([]);
    expect(scanPii(ADVERSARIAL["IMEI 4111111111111111 *N"] as string)).toEqual([]);
    expect(scanPii(ADVERSARIAL["a@ + a.*N"] as string)).toEqual([]);
  });
});
