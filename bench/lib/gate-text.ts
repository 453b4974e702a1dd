// What the gate benchmarks feed it: answer-like prose (words of support and ops answers, with the
// ticket numbers, prices, dates, versions and ids answers carry) from a seeded generator, and the
// adversarial 100 KB shapes that would make a backtracking scanner quadratic. bench/gate.ts and
// bench/gate-vs-original.ts share them, so both measure the same kind of text.

import { prng, randomTools } from "./random";

export const WORDS = (
  "the account billing export invoice customer support ticket password reset login error retry " +
  "deploy queue cache token region server latency timeout request response model answer summary " +
  "please check your inbox update settings within hours days team review issue follow steps order " +
  "shipping refund balance payment plan upgrade version release notes incident report status"
).split(" ");

export const pad2 = (n: number) => String(n).padStart(2, "0");

/** A seeded generator of answer-like sentences, with its random source and pick for the caller's own parts. */
export function gateProse(seed: number) {
  const random = prng(seed);
  const { pick } = randomTools(random);
  const numbers = [
    () => `#${Math.floor(random() * 1e6)}`, // ticket / order number
    () => `$${(random() * 500).toFixed(2)}`, // price
    () => `2025-${pad2(1 + Math.floor(random() * 12))}-${pad2(1 + Math.floor(random() * 28))}`,
    () => `v${Math.floor(random() * 5)}.${Math.floor(random() * 20)}.${Math.floor(random() * 9)}`,
    () => `${Math.floor(random() * 100)}%`,
    () => `${Math.floor(random() * 1e9)}`, // an id
    () => `${Math.floor(random() * 60)} minutes`,
  ];
  const sentence = (): string => {
    const words: string[] = [];
    const n = 6 + Math.floor(random() * 14);
    for (let i = 0; i < n; i++) words.push(random() < 0.12 ? pick(numbers)() : pick(WORDS));
    const text = words.join(" ");
    return `${text.charAt(0).toUpperCase()}${text.slice(1)}${random() < 0.85 ? "." : "?"}`;
  };
  return { random, pick, sentence };
}

/** The adversarial inputs' size, in characters. */
export const ADVERSARIAL_SIZE = 100_000;

const fill = (unit: string, prefix = "", suffix = "") =>
  prefix + unit.repeat(Math.ceil((ADVERSARIAL_SIZE - prefix.length - suffix.length) / unit.length)) + suffix;

/** Long almost-emails, separator chains, digit runs, deep JSON: each 100 KB. */
export const ADVERSARIAL: Record<string, string> = {
  "a*N + @": fill("a", "", "@"),
  "a@ + a.*N": fill("a.", "a@"),
  "(a*64 + @)*N": fill(`${"a".repeat(64)}@`),
  "(x@ + 252 domain chars)*N": fill(`x@${"ab.".repeat(84)}`),
  "@*N": fill("@"),
  "1-*N": fill("1-"),
  "1 *N": fill("1 "),
  "4*N": fill("4"),
  "4111 *N": fill("4111 "),
  "(415) *N": fill("(415) "),
  "1-415-555-121*N": fill("1-415-555-121"),
  "valid cards *N": fill("4111111111111111 "),
  "emails *N": fill("john.doe@example.com "),
  "[*N ]*N (JSON depth)": `${"[".repeat(ADVERSARIAL_SIZE / 2)}${"]".repeat(ADVERSARIAL_SIZE / 2)}`,
};
