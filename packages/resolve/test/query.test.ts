// buildCandidateQuery: which terms the candidate index looks for. Every term is an analysed term
// (index tokens, function words out, aliases resolved, stemmed), the same the index holds for each
// CFB, so it is plain data whatever the proposal's text; the priority order decides what a cap cuts.

import { termSet, tokens as tokenize } from "@solserver/text";
import { describe, expect, it } from "vitest";
import { buildCandidateQuery, MAX_QUERY_TERMS, summaryKeyTerms } from "../src/index";
import { proposal } from "./fixtures";

const bare = (text: string) => proposal({ title: text, delta_summary: text, tags: [text], entities: [text] });

/** A plain token: letters and digits only (no quotes, operators, `*`, `^`, `:`, `-`, spaces). */
const PLAIN = /^[\p{L}\p{N}\p{Co}\p{Cn}]+$/u;

describe("buildCandidateQuery", () => {
  it.each([
    ['"AND (OR', []],
    ["NEAR(", ["near"]],
    ["title:foo*", ["titl", "foo"]],
    ["^x", []],
    ["a-b", []],
    ['"', []],
    ["", []],
    ["NOT x OR y AND z", []],
    ['"quoted phrase" {col1 col2}: +plus -minus', ["quot", "phrase", "col1", "col2", "plus", "minus"]],
    ["NEAR(alpha beta, 5) * ^gamma", ["near", "alpha", "beta", "5", "gamma"]],
  ])("turns query syntax %j into plain analysed terms %j", (text, terms) => {
    const q = buildCandidateQuery(bare(text));
    expect(q.terms).toEqual(terms);
    for (const t of q.terms) {
      expect(t).toMatch(PLAIN);
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
      // title
      "rotat",
      "sign",
      "key",
      // entities ("signing" already in)
      "vault",
      "servic",
      // tags ("keys" already in)
      "secur",
      // summary: repeated / capitalised first ("rotation" = "rotate", Vault already in), then the
      // rest; "needs" is a function word
      "happen",
      "month",
      "cluster",
      "store",
      "restart",
    ]);
  });

  it("gives the terms the analyser gives, so the index and the score count the same words", () => {
    const p = proposal({
      title: "Prod DB backups",
      entities: ["k8s"],
      tags: ["2FA"],
      delta_summary: "The production database in Kubernetes is backed up nightly.",
    });
    const q = buildCandidateQuery(p);
    // title, entity, tag, then the summary's new words: "Kubernetes" (already in), "backed" → "back"
    expect(q.terms).toEqual(["product", "databas", "backup", "kubernet", "mfa", "back", "night"]);
    expect(new Set(q.terms)).toEqual(termSet(p.title, ...p.entities, ...p.tags, p.delta_summary));
  });

  it("caps at MAX_QUERY_TERMS (64 by default), keeping the higher-priority terms", () => {
    expect(MAX_QUERY_TERMS).toBe(64);
    const words = Array.from({ length: 80 }, (_, i) => `word${i}`);
    const p = proposal({ title: "alpha beta", entities: [], tags: ["gamma"], delta_summary: words.join(" ") });
    const q = buildCandidateQuery(p);
    expect(q.terms).toHaveLength(MAX_QUERY_TERMS);
    expect(q.terms.slice(0, 4)).toEqual(["alpha", "beta", "gamma", "word0"]);
    expect(q.terms.at(-1)).toBe("word60");
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
    ).toEqual(["crem", "brule"]);
  });

  it("drops lone letters everywhere and summary words under three characters", () => {
    const q = buildCandidateQuery(
      proposal({ title: "x y zz", entities: ["Q"], tags: ["k8s", "v"], delta_summary: "go to db ok then deploy" }),
    );
    // "db" and "ok" are too short in the summary; "zz" and "k8s" (an alias) count in the title and tags.
    expect(q.terms).toEqual(["zz", "kubernet", "deploy"]);
  });

  it("keeps digits: a number is often what a proposal changes", () => {
    const q = buildCandidateQuery(
      proposal({ title: "Rotate keys every 90 days", entities: [], tags: [], delta_summary: "Down from 180." }),
    );
    expect(q.terms).toEqual(["rotat", "key", "90", "day", "180"]);
  });

  it("takes every term from the proposal's own analysed terms", () => {
    const p = proposal();
    const all = termSet(p.title, ...p.entities, ...p.tags, p.delta_summary);
    const q = buildCandidateQuery(p);
    expect(q.terms.length).toBeGreaterThan(0);
    for (const t of q.terms) expect(all.has(t), t).toBe(true);
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
    expect(summaryKeyTerms("and or not the ... !!!")).toEqual([]);
  });
});
