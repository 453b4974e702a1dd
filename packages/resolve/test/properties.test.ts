// Property tests (fast-check): scores stay in [0, 1], grow with tag and entity overlap, ignore
// candidate order; decide() is deterministic, order-independent and follows the band table;
// fingerprints and query terms hold their guarantees on arbitrary text.
import {
  type TResolveCandidate,
  type TResolveProposal,
  type TScoredCandidate,
  ZResolveOutcome,
  ZScoredCandidate,
} from "@solserver/contracts";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { proposalFingerprint } from "../../control-plane/src/proposals/fingerprint";
import {
  BANDS,
  bm25Norm,
  buildCandidateQuery,
  decide,
  entityOverlap,
  fingerprint,
  normalizeText,
  round4,
  STOPWORDS,
  scoreCandidates,
  tagOverlap,
  titleSimilarity,
  tokenize,
  WEIGHTS,
} from "../src/index";

const WORDS = ["reset", "Postgres", "password", "the", "API", "billing", "Crème", "rotate", "keys", "and", "NEAR"];
const LABELS = ["db", "DB ", "ops", " Ops", "billing", "Stripe", "stripe  api", "PostgreSQL", "k8s", "Ünïcode"];

const title = fc.array(fc.constantFrom(...WORDS), { maxLength: 6 }).map((ws) => ws.join(" "));
const labels = fc.uniqueArray(fc.constantFrom(...LABELS), { maxLength: 6 });
const decisionKind = fc.constantFrom("update", "review", "create", "merge" as const);

const proposalArb: fc.Arbitrary<TResolveProposal> = fc.record({
  title,
  delta_summary: fc.string({ maxLength: 80 }),
  tags: labels,
  entities: labels,
  domain: fc.constant("ops"),
});

const candidateArb = (cfb_id: string): fc.Arbitrary<TResolveCandidate> =>
  fc.record({
    cfb_id: fc.constant(cfb_id),
    title,
    summary: fc.string({ maxLength: 40 }),
    tags: labels,
    entities: labels,
    bm25: fc.oneof(fc.double({ min: -5, max: 60, noNaN: true }), fc.constantFrom(0, Number.NaN)),
    bm25_reference: fc.oneof(fc.double({ min: 0, max: 40, noNaN: true }), fc.constantFrom(0, -1, Number.NaN)),
  });

const candidatesArb = fc
  .integer({ min: 0, max: 14 })
  .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => candidateArb(`CFB-${String(i).padStart(4, "0")}`))));

/** A permutation of `xs` driven by fast-check (so failures shrink and replay). */
const shuffled = <T>(xs: readonly T[]) =>
  fc.array(fc.nat(), { minLength: xs.length, maxLength: xs.length }).map((keys) =>
    xs
      .map((x, i) => ({ x, k: keys[i] as number }))
      .sort((a, b) => a.k - b.k)
      .map(({ x }) => x),
  );

const scoredArb: fc.Arbitrary<TScoredCandidate[]> = fc
  .uniqueArray(fc.integer({ min: 0, max: 30 }), { maxLength: 14 })
  .chain((ids) =>
    fc.tuple(
      ...ids.map((id) =>
        fc.record({
          cfb_id: fc.constant(`CFB-${id}`),
          // mostly around the band edges, where mistakes would be
          score: fc.oneof(
            fc.integer({ min: 0, max: 10_000 }).map((u) => u / 10_000),
            fc.constantFrom(0.4999, 0.5, 0.5499, 0.55, 0.75, 0.7501, 0.8, 0.8001, 0.81, 0.76, 0.82),
          ),
          components: fc.record({
            bm25_norm: fc.double({ min: 0, max: 1, noNaN: true }),
            tag_overlap: fc.double({ min: 0, max: 1, noNaN: true }),
            entity_overlap: fc.double({ min: 0, max: 1, noNaN: true }),
            title_similarity: fc.double({ min: 0, max: 1, noNaN: true }),
          }),
        }),
      ),
    ),
  );

describe("scoreCandidates properties", () => {
  it("every score and component is in [0, 1] and the output is a valid ZScoredCandidate list", () => {
    fc.assert(
      fc.property(proposalArb, candidatesArb, (p, cs) => {
        for (const s of scoreCandidates(p, cs)) {
          expect(ZScoredCandidate.parse(s)).toEqual(s);
          expect(s.score).toBe(round4(s.score));
        }
      }),
    );
  });

  it("keeps components equal to their recomputation, and the score their rounded weighted sum", () => {
    fc.assert(
      fc.property(proposalArb, candidatesArb, (p, cs) => {
        for (const s of scoreCandidates(p, cs)) {
          const c = cs.find((x) => x.cfb_id === s.cfb_id) as TResolveCandidate;
          const components = {
            bm25_norm: bm25Norm(c.bm25, c.bm25_reference),
            tag_overlap: tagOverlap(p.tags, c.tags),
            entity_overlap: entityOverlap(p.entities, c.entities),
            title_similarity: titleSimilarity(p.title, c.title),
          };
          expect(s.components).toEqual(components);
          const sum =
            WEIGHTS.bm25 * components.bm25_norm +
            WEIGHTS.tag * components.tag_overlap +
            WEIGHTS.entity * components.entity_overlap +
            WEIGHTS.title * components.title_similarity;
          expect(s.score).toBe(Math.min(1, round4(sum)));
        }
      }),
    );
  });

  it("does not depend on the order of the candidates", () => {
    fc.assert(
      fc.property(
        proposalArb,
        candidatesArb.chain((cs) => fc.tuple(fc.constant(cs), shuffled(cs))),
        (p, [cs, mixed]) => {
          expect(scoreCandidates(p, mixed)).toEqual(scoreCandidates(p, cs));
        },
      ),
    );
  });

  const sharedLabelAdded = (field: "tags" | "entities", overlap: typeof tagOverlap) =>
    fc.property(proposalArb, candidateArb("CFB-0001"), fc.nat(), (p, c, pick) => {
      const have = new Set(c[field].map(normalizeText));
      const missing = p[field].filter((t) => normalizeText(t) !== "" && !have.has(normalizeText(t)));
      fc.pre(missing.length > 0);
      const more = { ...c, [field]: [...c[field], missing[pick % missing.length] as string] };
      expect(overlap(p[field], more[field])).toBeGreaterThan(overlap(p[field], c[field]));
      const [before] = scoreCandidates(p, [c]);
      const [after] = scoreCandidates(p, [more]);
      expect(after?.score).toBeGreaterThanOrEqual(before?.score as number);
    });

  it("never lowers the score when tag overlap grows (one more shared tag, all else fixed)", () => {
    fc.assert(sharedLabelAdded("tags", tagOverlap));
  });

  it("never lowers the score when entity overlap grows (one more shared entity, all else fixed)", () => {
    fc.assert(sharedLabelAdded("entities", entityOverlap));
  });
});

/** The band table, restated on integer ten-thousandths as an independent oracle. */
function oracle(scores: readonly TScoredCandidate[], previous: string | null) {
  const units = scores.map((s) => Math.round(s.score * 10_000)).sort((a, b) => b - a);
  const [s1 = 0, s2 = 0] = units;
  if (scores.length >= 2 && s1 > 7500 && s2 > 7500 && s1 - s2 < 600) return { decision: "merge", held: false };
  if (previous === "create" && s1 > 7500 && s1 <= 8000) return { decision: "create", held: true };
  if (previous === "update" && s1 < 5500 && s1 >= 5000 && scores.length > 0) return { decision: "update", held: true };
  return { decision: s1 > 7500 ? "update" : s1 >= 5500 ? "review" : "create", held: false };
}

describe("decide properties", () => {
  const previousArb = fc.option(decisionKind, { nil: null });

  it("follows the band table and returns a valid outcome", () => {
    expect(BANDS.high).toBe(0.75);
    fc.assert(
      fc.property(scoredArb, previousArb, (scores, previous) => {
        const outcome = decide(scores, previous ? { decision: previous } : null);
        expect(ZResolveOutcome.parse(outcome)).toEqual(outcome);
        const expected = oracle(scores, previous);
        expect(outcome.decision).toBe(expected.decision);
        expect(outcome.hysteresis_applied).toBe(expected.held);
        expect(outcome.scores.length).toBe(Math.min(10, scores.length));
        expect(outcome.target_cfb_id).toBe(outcome.decision === "create" ? null : outcome.scores[0]?.cfb_id);
        expect(outcome.merge_cfb_ids).toEqual(
          outcome.decision === "merge" ? outcome.scores.slice(0, 2).map((s) => s.cfb_id) : [],
        );
      }),
    );
  });

  it("does not depend on the order of the scores", () => {
    fc.assert(
      fc.property(
        scoredArb.chain((s) => fc.tuple(fc.constant(s), shuffled(s))),
        previousArb,
        ([scores, mixed], previous) => {
          const prev = previous ? { decision: previous } : null;
          expect(decide(mixed, prev)).toEqual(decide(scores, prev));
        },
      ),
    );
  });

  it("is deterministic", () => {
    fc.assert(
      fc.property(scoredArb, previousArb, (scores, previous) => {
        const prev = previous ? { decision: previous } : null;
        expect(decide(structuredClone(scores), prev)).toEqual(decide(scores, prev));
      }),
    );
  });

  it("end to end: scoring candidates in any order gives the same decision", () => {
    fc.assert(
      fc.property(
        proposalArb,
        candidatesArb.chain((cs) => fc.tuple(fc.constant(cs), shuffled(cs))),
        (p, [cs, mixed]) => {
          expect(decide(scoreCandidates(p, mixed))).toEqual(decide(scoreCandidates(p, cs)));
        },
      ),
    );
  });
});

describe("fingerprint and query properties", () => {
  const text = fc.string({ unit: "binary", maxLength: 60 });

  it("fingerprint equals the control plane's on arbitrary text", () => {
    fc.assert(
      fc.property(
        text,
        fc.array(text, { maxLength: 4 }),
        fc.string({ unit: "binary", maxLength: 400 }),
        (t, tags, s) => {
          const p = { title: t, tags, delta_summary: s };
          expect(fingerprint(p)).toBe(proposalFingerprint(p));
        },
      ),
    );
  });

  it("fingerprint ignores case, spacing and tag order", () => {
    const spaced = (s: string) => fc.constantFrom(s, `  ${s.toUpperCase()} `, s.replace(/ /g, " \t\n "));
    fc.assert(
      fc.property(title, labels, title, (t, tags, summary) => {
        const base = fingerprint({ title: t, tags, delta_summary: summary });
        fc.assert(
          fc.property(spaced(t), shuffled(tags), spaced(summary), (t2, tags2, s2) => {
            expect(fingerprint({ title: t2, tags: tags2, delta_summary: s2 })).toBe(base);
          }),
          { numRuns: 5 },
        );
      }),
      { numRuns: 40 },
    );
  });

  it("query terms are unique plain tokens, never stopwords, at most maxTerms", () => {
    fc.assert(
      fc.property(
        text,
        fc.array(text, { maxLength: 4 }),
        fc.array(text, { maxLength: 4 }),
        text,
        fc.nat(30),
        (t, tags, entities, s, max) => {
          const { terms } = buildCandidateQuery({ title: t, tags, entities, delta_summary: s, domain: "x" }, max);
          expect(terms.length).toBeLessThanOrEqual(max);
          expect(new Set(terms).size).toBe(terms.length);
          for (const term of terms) {
            expect(tokenize(term)).toEqual([term]);
            expect(STOPWORDS.has(term)).toBe(false);
            expect(term).not.toMatch(/["'()*:^{}+\-\s]/);
          }
        },
      ),
    );
  });
});
