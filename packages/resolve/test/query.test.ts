// buildCandidateQuery: which words the full-text search looks for. Every term is a plain index
// token, so no proposal text can become FTS5 syntax, and the priority order decides what a cap
// cuts.
import { describe, expect, it } from "vitest";
import { buildCandidateQuery, STOPWORDS, summaryKeyTerms, tokenize } from "../src/index";
import { proposal } from "./fixtures";

const bare = (text: string) => proposal({ title: text, delta_summary: text, tags: [text], entities: [text] });

/** A plain token: letters and digits only (no quotes, operators, `*`, `^`, `:`, `-`, spaces). */
const PLAIN = /^[\p{L}\p{N}\p{Co}\p{Cn}]+$/u;

describe("buildCandidateQuery", () => {
  it.each([
    ['"AND (OR', []],
    ["NEAR(", []],
    ["title:foo*", ["title", "foo"]],
    ["^x", []],
    ["a-b", []],
    ['"', []],
    ["", []],
    ["NOT x OR y AND z", []],
    ['"quoted phrase" {col1 col2}: +plus -minus', ["quoted", "phrase", "col1", "col2", "plus", "minus"]],
    ["NEAR(alpha beta, 5) * ^gamma", ["alpha", "beta", "gamma"]],
  ])("turns FTS syntax %j into plain words %j", (text, terms) => {
    const q = buildCandidateQuery(bare(text));
    expect(q.terms).toEqual(terms);
    for (const t of q.terms) {
      expect(t).toMatch(PLAIN);
      expect(STOPWORDS.has(t)).toBe(false);
      expect(tokenize(t)).toEqual([t]);
    }
  });

  it("orders title > entities > tags > summary, each term once", () => {
    const q = buildCandidateQuery(
      proposal({
        title: "Rotate signing keys",
        entities: ["Vault", "signing service"],
        tags: ["security", "keys"],
        delta_summary: "Rotation happens monthly. The Vault cluster stores keys; rotation needs a restart.",
      }),
    );
    expect(q.terms).toEqual([
      "rotate",
      "signing",
      "keys",
      "vault",
      "service",
      "security",
      // summary: repeated / capitalised first ("rotation" twice; Vault already in), then the rest
      "rotation",
      "happens",
      "monthly",
      "cluster",
      "stores",
      "needs",
      "restart",
    ]);
  });

  it("caps at maxTerms (24 by default), keeping the higher-priority terms", () => {
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`);
    const p = proposal({ title: "alpha beta", entities: [], tags: ["gamma"], delta_summary: words.join(" ") });
    const q = buildCandidateQuery(p);
    expect(q.terms).toHaveLength(24);
    expect(q.terms.slice(0, 3)).toEqual(["alpha", "beta", "gamma"]);
    expect(buildCandidateQuery(p, 2).terms).toEqual(["alpha", "beta"]);
    expect(buildCandidateQuery(p, 0).terms).toEqual([]);
  });

  it("rejects a maxTerms that is not a non-negative integer", () => {
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])
      expect(() => buildCandidateQuery(proposal(), bad)).toThrow(RangeError);
  });

  it("folds case and diacritics the way the index does", () => {
    expect(
      buildCandidateQuery(proposal({ title: "Crème BRÛLÉE", entities: [], tags: [], delta_summary: "" })).terms,
    ).toEqual(["creme", "brulee"]);
  });

  it("drops one-character name words and summary words under three characters", () => {
    const q = buildCandidateQuery(
      proposal({ title: "x y zz", entities: ["Q"], tags: ["k8s", "v"], delta_summary: "go to db ok then deploy" }),
    );
    expect(q.terms).toEqual(["zz", "k8s", "deploy"]);
  });
});

describe("summaryKeyTerms", () => {
  it("puts repeated and capitalised words first, a sentence's first word is not capitalised", () => {
    expect(summaryKeyTerms("Deploy the service. Then call Stripe; the service retries with gRPC.")).toEqual([
      "service",
      "stripe",
      "grpc",
      "deploy",
      "call",
      "retries",
    ]);
  });

  it("is empty for stopwords and punctuation only", () => {
    expect(summaryKeyTerms("and or not near the ... !!!")).toEqual([]);
  });
});
