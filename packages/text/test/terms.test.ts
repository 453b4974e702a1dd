import { describe, expect, it } from "vitest";
import { analyzeTerms, clauses, fold, quantities, quantityKey, Spellings, termSet, tokens } from "../src";

describe("fold and tokens", () => {
  it("folds width, case and Latin accents alike", () => {
    expect(fold("ＲＶ　ＦＵＲＮＡＣＥ")).toBe("rv furnace");
    expect(fold("STRASSE")).toBe(fold("Straße"));
    expect(fold("pompe à eau")).toBe("pompe a eau");
    expect(fold("Kühlschrank")).toBe("kuhlschrank");
  });

  it("cuts words, possessives, contractions, decimals, times and units", () => {
    expect(tokens("The RV's pump doesn't prime")).toEqual(["the", "rv", "pump", "doesnt", "prime"]);
    expect(tokens("15A at 12,6v, 02:00")).toEqual(["15", "a", "at", "12.6", "v", "02:00"]);
    expect(tokens("k8s sha256 2fa")).toEqual(["k8s", "sha256", "2fa"]);
    // a decimal typed without its zero; a full stop before a number stays one
    expect(tokens("sail sw reads .2")).toEqual(["sail", "sw", "reads", "0.2"]);
    expect(clauses("fuse ok. 12 at the pump").map((c) => c.tokens)).toEqual([
      ["fuse", "ok"],
      ["12", "at", "the", "pump"],
    ]);
    expect(tokens("房车")).toEqual(["房", "车"]);
  });

  it("groups clauses and marks questions, ¿ included", () => {
    expect(clauses("pump hums, no water? - wait")).toEqual([
      { tokens: ["pump", "hums"], question: false },
      { tokens: ["no", "water"], question: true },
      { tokens: ["wait"], question: false },
    ]);
    expect(clauses("¿la bomba funciona")[0]?.question).toBe(true);
  });

  it("ends a clause at a slash beside a space, not inside a rating or a word pair", () => {
    expect(clauses("power gd / tstat calling /fan runs").map((c) => c.tokens)).toEqual([
      ["power", "gd"],
      ["tstat", "calling"],
      ["fan", "runs"],
    ]);
    expect(clauses("cap 32/45, in/out, w/ leads").map((c) => c.tokens)).toEqual([
      ["cap", "32", "45"],
      ["in", "out"],
      ["w", "leads"],
    ]);
  });

  it("is linear on hostile input", () => {
    const long = `${"a1.".repeat(50_000)}${"'s".repeat(50_000)}`;
    expect(tokens(long).length).toBeGreaterThan(0);
  });
});

describe("analyzeTerms", () => {
  it("stems in the text's language and drops its function words", () => {
    expect(termSet("rotated rotation rotates")).toEqual(new Set(["rotat"]));
    expect(analyzeTerms("Die Pumpen müssen geprüft werden")).toContain("pump");
    expect(analyzeTerms("Die Pumpe")).toEqual(analyzeTerms("die Pumpen"));
    expect(analyzeTerms("las bombas de agua")).toEqual(analyzeTerms("la bomba de agua"));
  });

  it("reads team abbreviations as their words", () => {
    expect(termSet("k8s prod db")).toEqual(termSet("Kubernetes production database"));
  });

  it("keeps numbers and drops lone letters", () => {
    expect(analyzeTerms("a 90 day x")).toEqual(["90", "day"]);
  });
});

describe("quantities", () => {
  it("reads numbers with their units however they are written", () => {
    const keys = (t: string) => quantities(t).map(quantityKey);
    expect(keys("a 15A breaker")).toEqual(["15 A"]);
    expect(keys("a 15 amp breaker")).toEqual(["15 A"]);
    // A one-letter unit apart from its number counts in capitals only: else it is an article.
    expect(keys("a 15 A breaker")).toEqual(["15 A"]);
    expect(keys("$300 a seat, 2 a day")).toEqual(["300 USD", "2"]);
    expect(keys("kept 30 days, then 14 Tage")).toEqual(["30 day", "14 day"]);
    expect(keys("costs $12.50 per seat")).toEqual(["12.50 USD"]);
    expect(keys("at 02:00 UTC")).toEqual(["02:00 UTC"]);
    expect(keys("sha256 k8s 2fa")).toEqual([]);
    expect(keys("room 090")).toEqual(["90"]);
  });
});

describe("Spellings", () => {
  it("finds vocabulary words one edit away, not short ones", () => {
    const s = new Spellings(["furnace", "pump", "retrieval"]);
    expect(s.near("furnance")).toEqual(["furnace"]);
    expect(s.near("retreival")).toEqual(["retrieval"]);
    expect(s.near("pimp")).toEqual([]);
  });
});
