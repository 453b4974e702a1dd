// The in-memory inverted index behind the candidate index (candidates/term-index.ts): pure, so no
// database here. What resolve and retrieval rely on: a document's terms are replaced, not added
// to; a removed document is never found; the ranking is the exact sum of the query weights a
// document holds (times the boost), ties broken by the id's number; and the shortcuts the search
// takes (a heap, a floor under the boosted score) never change the answer. The last test compares
// the whole ranking with a brute-force one over 20,000 random documents.
import { describe, expect, it } from "vitest";
import { TermIndex } from "../src/candidates/term-index";
import type { TIndexHit, TWeightedTerm } from "../src/candidates/term-index-types";
import { prng } from "../src/testing";

const q = (...terms: (string | [string, number])[]): TWeightedTerm[] =>
  terms.map((t) => (typeof t === "string" ? { term: t, weight: 1 } : { term: t[0], weight: t[1] }));
const idsOf = (hits: TIndexHit[]) => hits.map((h) => h.id);

describe("documents", () => {
  it("upsert replaces a document's terms and remove forgets it; documentFrequency follows", () => {
    const index = new TermIndex();
    index.upsert({ id: "CFB-0001", domain: "ops", terms: ["backup", "nightly", "postgresql"] });
    index.upsert({ id: "CFB-0002", domain: "ops", terms: ["backup", "weekly"] });
    expect(index.size).toBe(2);
    expect(index.documentFrequency("backup")).toBe(2);
    expect(index.documentFrequency("nightly")).toBe(1);

    // Same id again: the old terms go, the new ones count, still one document.
    index.upsert({ id: "CFB-0001", domain: "security", terms: ["rotation", "backup"] });
    expect(index.size).toBe(2);
    expect(index.documentFrequency("nightly")).toBe(0);
    expect(index.documentFrequency("postgresql")).toBe(0);
    expect(index.documentFrequency("rotation")).toBe(1);
    expect(index.documentFrequency("backup")).toBe(2);
    expect(index.search(q("nightly"), { limit: 10 })).toEqual([]);
    expect(index.search(q("rotation"), { limit: 10 })).toEqual([
      { id: "CFB-0001", domain: "security", score: 1, shared: 1 },
    ]);

    index.remove("CFB-0001");
    expect(index.has("CFB-0001")).toBe(false);
    expect(index.size).toBe(1);
    expect(index.documentFrequency("rotation")).toBe(0);
    expect(index.documentFrequency("backup")).toBe(1);
    expect(index.search(q("rotation", "backup"), { limit: 10 }).map((h) => h.id)).toEqual(["CFB-0002"]);
    // Removing what is not there changes nothing.
    index.remove("CFB-0001");
    index.remove("CFB-4242");
    expect(index.size).toBe(1);

    // A freed slot is reused by the next document, which must not inherit anything of the old one.
    index.upsert({ id: "CFB-0003", domain: "data", terms: ["export"] });
    expect(idsOf(index.search(q("rotation", "export", "nightly"), { limit: 10 }))).toEqual(["CFB-0003"]);
    expect(index.search(q("export"), { limit: 10 })[0]).toMatchObject({ domain: "data", shared: 1 });
  });

  it("counts a term once per document, however often it is given", () => {
    const index = new TermIndex();
    index.upsert({ id: "CFB-0001", domain: "ops", terms: ["disk", "disk", "disk"] });
    expect(index.documentFrequency("disk")).toBe(1);
    expect(index.search(q("disk"), { limit: 5 })).toEqual([{ id: "CFB-0001", domain: "ops", score: 1, shared: 1 }]);
    index.remove("CFB-0001");
    expect(index.documentFrequency("disk")).toBe(0);
  });
});

describe("search", () => {
  const index = new TermIndex();
  index.upsert({ id: "CFB-0001", domain: "ops", terms: ["backup", "nightly", "postgresql", "retention"] });
  index.upsert({ id: "CFB-0002", domain: "security", terms: ["backup", "encryption"] });
  index.upsert({ id: "CFB-0003", domain: "data", terms: ["retention", "gdpr"] });
  index.upsert({ id: "CFB-0004", domain: "ops", terms: ["deploy", "kubernetes"] });

  it("sums the weights of the query terms each document holds and counts them", () => {
    const hits = index.search(q(["backup", 2], ["nightly", 0.5], ["retention", 1.25], ["unknown", 9]), { limit: 10 });
    expect(hits).toEqual([
      { id: "CFB-0001", domain: "ops", score: 3.75, shared: 3 },
      { id: "CFB-0002", domain: "security", score: 2, shared: 1 },
      { id: "CFB-0003", domain: "data", score: 1.25, shared: 1 },
    ]);
  });

  it("never returns a document sharing no term, nor counts a term without weight or given twice", () => {
    expect(index.search(q("unknown", "words"), { limit: 10 })).toEqual([]);
    expect(idsOf(index.search(q("deploy"), { limit: 10 }))).toEqual(["CFB-0004"]);
    // Weight 0 (or below) is no query term at all: not in the score, not in `shared`.
    expect(index.search(q(["gdpr", 0], ["retention", -1]), { limit: 10 })).toEqual([]);
    expect(index.search(q(["retention", 1], ["gdpr", 0]), { limit: 10 })).toEqual([
      { id: "CFB-0001", domain: "ops", score: 1, shared: 1 },
      { id: "CFB-0003", domain: "data", score: 1, shared: 1 },
    ]);
    // A repeated term counts once, with its first positive weight.
    expect(index.search(q(["gdpr", 3], ["gdpr", 5]), { limit: 10 })).toEqual([
      { id: "CFB-0003", domain: "data", score: 3, shared: 1 },
    ]);
  });

  it("respects the limit (the best ones) and the domains filter", () => {
    const query = q("backup", "nightly", "retention", "gdpr", "encryption");
    expect(idsOf(index.search(query, { limit: 10 }))).toEqual(["CFB-0001", "CFB-0002", "CFB-0003"]);
    expect(idsOf(index.search(query, { limit: 1 }))).toEqual(["CFB-0001"]);
    expect(index.search(query, { limit: 0 })).toEqual([]);
    expect(idsOf(index.search(query, { limit: 10, domains: new Set(["security", "data"]) }))).toEqual([
      "CFB-0002",
      "CFB-0003",
    ]);
    expect(idsOf(index.search(query, { limit: 1, domains: new Set(["data"]) }))).toEqual(["CFB-0003"]);
    expect(index.search(query, { limit: 10, domains: new Set(["nowhere"]) })).toEqual([]);
  });

  it("lets a boosted document overtake, with or without a stated maximum boost", () => {
    const query = q("backup", "nightly", "retention", "gdpr", "encryption");
    // Unboosted: CFB-0001 (3) > CFB-0002 (2) = CFB-0003 (2).
    const boost = (domain: string) => (domain === "data" ? 2 : domain === "security" ? 0.5 : 1);
    const expected = [
      { id: "CFB-0003", domain: "data", score: 4, shared: 2 },
      { id: "CFB-0001", domain: "ops", score: 3, shared: 3 },
      { id: "CFB-0002", domain: "security", score: 1, shared: 2 },
    ];
    expect(index.search(query, { limit: 10, boost })).toEqual(expected);
    expect(index.search(query, { limit: 10, boost, maxBoost: 2 })).toEqual(expected);
    // Limit 1: the boosted one must enter a full heap whose floor (3) is above its raw score (2).
    expect(index.search(query, { limit: 1, boost, maxBoost: 2 })).toEqual(expected.slice(0, 1));
    expect(index.search(query, { limit: 1, boost })).toEqual(expected.slice(0, 1));
  });
});

describe("ties by the id's number", () => {
  it("ranks CFB-9 before CFB-10 and CFB-9999 before CFB-10000, whatever the insertion order", () => {
    const index = new TermIndex();
    // Inserted in the order text comparison would rank them ("CFB-10" < "CFB-9").
    for (const id of ["CFB-10000", "CFB-10", "CFB-9999", "CFB-9"]) index.upsert({ id, domain: "ops", terms: ["same"] });
    expect(idsOf(index.search(q("same"), { limit: 10 }))).toEqual(["CFB-9", "CFB-10", "CFB-9999", "CFB-10000"]);
    // Through the heap alone (the worst kept is replaced), not only the final sort.
    expect(idsOf(index.search(q("same"), { limit: 1 }))).toEqual(["CFB-9"]);
    index.remove("CFB-9");
    index.remove("CFB-10");
    expect(idsOf(index.search(q("same"), { limit: 1 }))).toEqual(["CFB-9999"]);
    // Zero padding does not matter: CFB-0042 is 42.
    index.upsert({ id: "CFB-0042", domain: "ops", terms: ["same"] });
    index.upsert({ id: "CFB-100", domain: "ops", terms: ["same"] });
    expect(idsOf(index.search(q("same"), { limit: 2 }))).toEqual(["CFB-0042", "CFB-100"]);
  });

  it("only after the score: a higher score wins over a lower number", () => {
    const index = new TermIndex();
    index.upsert({ id: "CFB-1", domain: "ops", terms: ["a1"] });
    index.upsert({ id: "CFB-20000", domain: "ops", terms: ["a1", "b2"] });
    expect(idsOf(index.search(q("a1", "b2"), { limit: 1 }))).toEqual(["CFB-20000"]);
  });
});

describe("deferred common terms", () => {
  it("still walks the two rarest terms, and adds a deferred term's weight to the shortlist", () => {
    const index = new TermIndex();
    // 1,200 documents (deferring starts at 1,000), every one holding "common1" and "common2".
    for (let i = 1; i <= 1200; i++)
      index.upsert({ id: `CFB-${i}`, domain: "ops", terms: ["common1", "common2", ...(i % 3 === 0 ? ["third"] : [])] });
    // Both terms are above the share, but they are the two rarest: walked, so documents are found.
    const onlyCommon = index.search(q("common1", "common2"), { limit: 3, deferShare: 0.1 });
    expect(onlyCommon).toEqual([
      { id: "CFB-1", domain: "ops", score: 2, shared: 2 },
      { id: "CFB-2", domain: "ops", score: 2, shared: 2 },
      { id: "CFB-3", domain: "ops", score: 2, shared: 2 },
    ]);
    // "third" (400 documents) and "common1" (1,200) are walked, "common2" is deferred (3rd rarest):
    // the shortlisted documents still get its weight.
    const hits = index.search(q(["third", 1], ["common1", 1], ["common2", 4]), { limit: 2, deferShare: 0.5 });
    expect(hits).toEqual([
      { id: "CFB-3", domain: "ops", score: 6, shared: 3 },
      { id: "CFB-6", domain: "ops", score: 6, shared: 3 },
    ]);
  });
});

describe("private documents (issue 19)", () => {
  const index = new TermIndex();
  index.upsert({ id: "CFB-0001", domain: "ops", terms: ["backup"] });
  // Alice's and Bob's hold more of the query: they would outrank the shared one for anybody.
  index.upsert({ id: "CFB-0002", domain: "ops", terms: ["backup", "nightly"], owner: "alice" });
  index.upsert({ id: "CFB-0003", domain: "ops", terms: ["backup", "nightly"], owner: "bob" });
  const query = q("backup", "nightly");

  it("are found by their owner's searches only; shared ones by everyone's", () => {
    expect(idsOf(index.search(query, { limit: 10 }))).toEqual(["CFB-0001"]);
    expect(idsOf(index.search(query, { limit: 10, visibleTo: null }))).toEqual(["CFB-0001"]);
    expect(idsOf(index.search(query, { limit: 10, visibleTo: "carol" }))).toEqual(["CFB-0001"]);
    expect(idsOf(index.search(query, { limit: 10, visibleTo: "alice" }))).toEqual(["CFB-0002", "CFB-0001"]);
    expect(idsOf(index.search(query, { limit: 10, visibleTo: "bob" }))).toEqual(["CFB-0003", "CFB-0001"]);
    // Skipped before the top `limit` are taken: a crowd of others' private documents hides nothing.
    expect(idsOf(index.search(query, { limit: 1, visibleTo: "bob" }))).toEqual(["CFB-0003"]);
    expect(idsOf(index.search(query, { limit: 1, visibleTo: "alice", domains: new Set(["ops"]) }))).toEqual([
      "CFB-0002",
    ]);
    expect(idsOf(index.search(query, { limit: 1 }))).toEqual(["CFB-0001"]);
  });

  it("an upsert without an owner (an endorse) shares it; the document frequency counts every document", () => {
    expect(index.documentFrequency("nightly")).toBe(2);
    index.upsert({ id: "CFB-0002", domain: "ops", terms: ["backup", "nightly"] });
    expect(idsOf(index.search(query, { limit: 10, visibleTo: "bob" }))).toEqual(["CFB-0002", "CFB-0003", "CFB-0001"]);
    expect(idsOf(index.search(query, { limit: 10 }))).toEqual(["CFB-0002", "CFB-0001"]);
    expect(index.documentFrequency("nightly")).toBe(2);
  });

  it("are skipped on the deferred path too (common terms added to a shortlist of visible documents)", () => {
    const big = new TermIndex();
    for (let n = 1; n <= 1200; n++)
      big.upsert({
        id: `CFB-${n}`,
        domain: "ops",
        terms: n <= 20 ? ["common", "mid", "rare"] : n <= 200 ? ["common", "mid"] : ["common"],
        owner: n <= 10 ? "alice" : null,
      });
    // "common" (every document) is the third rarest term: deferred, then added to the shortlist.
    const hits = big.search(q("common", "mid", "rare"), { limit: 5, deferShare: 0.1, visibleTo: "bob" });
    expect(idsOf(hits)).toEqual(["CFB-11", "CFB-12", "CFB-13", "CFB-14", "CFB-15"]);
    expect(hits[0]).toMatchObject({ score: 3, shared: 3 });
    expect(idsOf(big.search(q("common", "mid", "rare"), { limit: 2, deferShare: 0.1, visibleTo: "alice" }))).toEqual([
      "CFB-1",
      "CFB-2",
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// Property: the index's ranking equals a brute-force one over 20,000 random documents.

type TRefDoc = { id: string; n: number; domain: string; terms: Set<string> };

/** The ranking by definition: every document, the sum of the distinct positive query weights it holds. */
function bruteForce(
  docs: Iterable<TRefDoc>,
  query: readonly TWeightedTerm[],
  opts: { limit: number; domains?: ReadonlySet<string>; boost?: (d: string) => number },
): TIndexHit[] {
  const weights = new Map<string, number>();
  for (const { term, weight } of query) if (!weights.has(term) && weight > 0) weights.set(term, weight);
  const hits: (TIndexHit & { n: number })[] = [];
  for (const doc of docs) {
    let score = 0;
    let shared = 0;
    for (const [term, weight] of weights)
      if (doc.terms.has(term)) {
        score += weight;
        shared += 1;
      }
    if (shared === 0) continue;
    if (opts.domains && !opts.domains.has(doc.domain)) continue;
    if (opts.boost) score *= opts.boost(doc.domain);
    hits.push({ id: doc.id, domain: doc.domain, score, shared, n: doc.n });
  }
  hits.sort((a, b) => b.score - a.score || a.n - b.n);
  return hits.slice(0, opts.limit).map(({ n: _n, ...hit }) => hit);
}

describe("against a brute-force ranking", () => {
  it("equals it over 20,000 random documents, with limits, domains, boosts and edits", () => {
    const random = prng(20261125);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const DOMAINS = ["ops", "security", "data", "product", "solserver"];
    const VOCABULARY = 2500;
    // Skewed: low term numbers are common (thousands of documents), high ones rare.
    const randomTerm = () => `t${Math.floor(VOCABULARY * random() ** 2.5)}`;
    const randomDoc = (n: number): TRefDoc => {
      const terms = new Set<string>();
      const count = 2 + Math.floor(random() * 18);
      while (terms.size < count) terms.add(randomTerm());
      return { id: `CFB-${String(n).padStart(4, "0")}`, n, domain: pick(DOMAINS), terms };
    };

    const index = new TermIndex();
    const reference = new Map<string, TRefDoc>();
    // Inserted in a shuffled order, so slot order says nothing about id order (ties).
    const numbers = Array.from({ length: 20_000 }, (_, i) => i + 1);
    for (let i = numbers.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [numbers[i], numbers[j]] = [numbers[j] as number, numbers[i] as number];
    }
    for (const n of numbers) {
      const doc = randomDoc(n);
      index.upsert(doc);
      reference.set(doc.id, doc);
    }
    // Edits: removals, replacements and new documents reusing freed slots.
    for (let i = 0; i < 1500; i++) {
      const n = 1 + Math.floor(random() * 20_500);
      const id = `CFB-${String(n).padStart(4, "0")}`;
      if (random() < 0.4) {
        index.remove(id);
        reference.delete(id);
      } else {
        const doc = randomDoc(n);
        index.upsert(doc);
        reference.set(id, doc);
      }
    }
    expect(index.size).toBe(reference.size);
    for (const term of ["t0", "t1", "t50", `t${VOCABULARY - 1}`]) {
      const df = [...reference.values()].filter((d) => d.terms.has(term)).length;
      expect(index.documentFrequency(term), term).toBe(df);
    }

    // Weights are multiples of 1/4 and boosts powers of two times small integers: every sum and
    // product is exact, so equal scores are equal and the order of summation does not matter.
    const WEIGHTS = [0, 0.25, 0.5, 1, 1, 1.5, 2, 3.75];
    const BOOSTS: Record<string, number> = { ops: 1, security: 1.5, data: 0.5, product: 2, solserver: 1.25 };
    let nonEmpty = 0;
    let boostReordered = 0;
    for (let round = 0; round < 80; round++) {
      const query: TWeightedTerm[] = [];
      const size = 1 + Math.floor(random() * 14);
      for (let i = 0; i < size; i++)
        query.push({ term: random() < 0.05 ? "absent" : randomTerm(), weight: pick(WEIGHTS) });
      if (random() < 0.2 && query[0]) query.push({ term: query[0].term, weight: 3 }); // a repeated term
      const limit = pick([1, 2, 5, 20, 100, 500]);
      const domains = random() < 0.3 ? new Set(DOMAINS.filter(() => random() < 0.5)) : undefined;
      const boost = random() < 0.5 ? (domain: string) => BOOSTS[domain] ?? 1 : undefined;
      const expected = bruteForce(reference.values(), query, { limit, domains, boost });
      const context = JSON.stringify({ round, query, limit, domains: domains && [...domains], boosted: !!boost });
      expect(index.search(query, { limit, domains, boost }), context).toEqual(expected);
      if (boost) {
        // The floor under the boosted score must not drop anything that would have made the top.
        expect(index.search(query, { limit, domains, boost, maxBoost: 2 }), context).toEqual(expected);
        const unboosted = bruteForce(reference.values(), query, { limit, domains });
        if (JSON.stringify(idsOf(unboosted)) !== JSON.stringify(idsOf(expected))) boostReordered += 1;
      }
      if (expected.length > 0) nonEmpty += 1;
    }
    // The comparison meant something: most queries found documents, and boosts did reorder.
    expect(nonEmpty).toBeGreaterThan(60);
    expect(boostReordered).toBeGreaterThan(5);
  });
});
