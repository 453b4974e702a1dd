// Property tests (fast-check): scores stay in [0, 1], equal the weighted mean of their components
// and grow with each component; neither scoring nor deciding depends on the order of the
// candidates; decide() follows the band table, and its flags only ever turn a decision into a
// review; fingerprints and query terms hold their guarantees on arbitrary text.

import { createHash } from "node:crypto";
import {
  CANDIDATE_FLAGS,
  type TResolveCandidate,
  type TResolveProposal,
  type TScoreComponents,
  type TScoredCandidate,
  ZResolveOutcome,
  ZScoredCandidate,
} from "@solserver/contracts";
import { analysisLanguage, analyzeTerms, tokens as tokenize } from "@solserver/text";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { fingerprintMaterial } from "../src/fingerprint";
import {
  BANDS,
  buildCandidateQuery,
  compositeScore,
  decide,
  fingerprint,
  labelOverlap,
  MAX_QUERY_TERMS,
  matchText,
  OUTCOME_SCORES,
  resolveOutcome,
  round4,
  scoreCandidates,
  semanticComponent,
  type TDecideOptions,
  textProfile,
  titleSimilarity,
} from "../src/index";

vi.mock("../src/decision-rule", async () => ({ DECISION_RULE: (await import("./seed-rule")).SEED_RULE }));

const WORDS = [
  "reset",
  "Postgres",
  "password",
  "the",
  "API",
  "billing",
  "Crème",
  "rotate",
  "keys",
  "and",
  "NEAR",
  "90",
  "days",
  "no",
  "longer",
  "replaced",
  "die",
  "und",
  "Frankfurt",
];
const LABELS = ["db", "DB ", "ops", " Ops", "billing", "Stripe", "stripe  api", "PostgreSQL", "k8s", "Ünïcode"];

const title = fc.array(fc.constantFrom(...WORDS), { maxLength: 6 }).map((ws) => ws.join(" "));
/** Sentences of the words above, so bodies share terms, numbers, names and change language. */
const body = fc
  .array(fc.tuple(title, fc.constantFrom(". ", "; ", " ", "! ")), { maxLength: 4 })
  .map((parts) => parts.map(([t, end]) => t + end).join(""));
const labels = fc.uniqueArray(fc.constantFrom(...LABELS), { maxLength: 6 });
const decisionKind = fc.constantFrom("update", "review", "create", "merge" as const);
const cosine = fc.option(fc.double({ min: -1, max: 1, noNaN: true }), { nil: null });

const proposalArb: fc.Arbitrary<TResolveProposal> = fc.record({
  title,
  delta_summary: fc.oneof(body, fc.string({ maxLength: 80 })),
  tags: labels,
  entities: labels,
  domain: fc.constant("ops"),
});

const candidateArb = (cfb_id: string): fc.Arbitrary<TResolveCandidate> =>
  fc.record({
    cfb_id: fc.constant(cfb_id),
    title,
    summary: fc.oneof(body, fc.string({ maxLength: 40 })),
    tags: labels,
    entities: labels,
    semantic_similarity: cosine,
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

const unit = fc.double({ min: 0, max: 1, noNaN: true });
const componentsArb: fc.Arbitrary<TScoreComponents> = fc.record({
  text_similarity: fc.option(unit, { nil: null }),
  tag_overlap: fc.option(unit, { nil: null }),
  entity_overlap: fc.option(unit, { nil: null }),
  title_similarity: unit,
  semantic_similarity: cosine,
  new_share: unit,
});

const scoredArb = (flags: fc.Arbitrary<TScoredCandidate["flags"]>): fc.Arbitrary<TScoredCandidate[]> =>
  fc.uniqueArray(fc.integer({ min: 0, max: 30 }), { maxLength: 14 }).chain((ids) =>
    fc.tuple(
      ...ids.map((id) =>
        fc.record({
          cfb_id: fc.constant(`CFB-${String(id).padStart(4, "0")}`),
          // mostly around the band edges, where mistakes would be
          score: fc.oneof(
            fc.integer({ min: 0, max: 10_000 }).map((u) => u / 10_000),
            fc.constantFrom(0.4499, 0.45, 0.4999, 0.5, 0.5499, 0.55, 0.75, 0.7501, 0.8, 0.8001, 0.81, 0.76, 0.82),
          ),
          components: componentsArb,
          flags,
        }),
      ),
    ),
  );
const noFlags = scoredArb(fc.constant([]));
const anyFlags = scoredArb(fc.subarray([...CANDIDATE_FLAGS]));

/** decide() options from fast-check: a symmetric same-facts relation and a specifics share per id. */
const optionsArb: fc.Arbitrary<TDecideOptions> = fc
  .record({ same: fc.nat(), specifics: fc.array(fc.constantFrom(0, 0.25, 0.5, 1), { minLength: 31, maxLength: 31 }) })
  .map(({ same, specifics }) => {
    const idOf = (id: string) => Number(id.slice(4));
    return {
      sameFacts: (a: string, b: string) => ((same >> ((idOf(a) + idOf(b)) % 30)) & 1) === 1,
      specifics: (id: string) => specifics[idOf(id)] ?? 0,
    };
  });

describe("scoreCandidates properties", () => {
  it("every score and component is in range and the output is a valid ZScoredCandidate list", () => {
    fc.assert(
      fc.property(proposalArb, candidatesArb, (p, cs) => {
        for (const s of scoreCandidates(p, cs)) {
          expect(ZScoredCandidate.parse(s)).toEqual(s);
          expect(s.score).toBe(round4(s.score));
          expect(s.score).toBeGreaterThanOrEqual(0);
          expect(s.score).toBeLessThanOrEqual(1);
        }
      }),
    );
  });

  it("keeps components equal to their recomputation, and the score their composite", () => {
    fc.assert(
      fc.property(proposalArb, candidatesArb, (p, cs) => {
        const pText = textProfile(p.title, p.delta_summary);
        for (const s of scoreCandidates(p, cs)) {
          const c = cs.find((x) => x.cfb_id === s.cfb_id) as TResolveCandidate;
          const lexical = matchText(pText, textProfile(c.title, c.summary)).text;
          const semantic = semanticComponent(c.semantic_similarity);
          expect(s.components.text_similarity).toBe(semantic === null ? lexical : Math.max(lexical ?? 0, semantic));
          expect(s.components.tag_overlap).toBe(labelOverlap(p.tags, c.tags));
          expect(s.components.entity_overlap).toBe(labelOverlap(p.entities, c.entities));
          expect(s.components.title_similarity).toBe(titleSimilarity(p.title, c.title));
          expect(s.components.semantic_similarity).toBe(c.semantic_similarity ?? null);
          expect(s.score).toBe(compositeScore(s.components));
          expect(s.flags.includes("SEMANTIC_MATCH")).toBe(semantic !== null && semantic > (lexical ?? 0));
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

  it("carries new_share and the change flags for the first OUTCOME_SCORES candidates only", () => {
    fc.assert(
      fc.property(proposalArb, candidatesArb, (p, cs) => {
        scoreCandidates(p, cs).forEach((s, i) => {
          if (i < OUTCOME_SCORES) return;
          expect(s.components.new_share).toBe(0);
          expect(s.flags.filter((f) => f === "NEW_FACTS" || f === "CONTRADICTS")).toEqual([]);
        });
      }),
    );
  });

  it("never lowers the score when a label overlap grows (one more label, all else fixed)", () => {
    for (const field of ["tags", "entities"] as const) {
      const component = field === "tags" ? "tag_overlap" : "entity_overlap";
      fc.assert(
        fc.property(proposalArb, candidateArb("CFB-0001"), fc.constantFrom(...LABELS), (p, c, label) => {
          const more = { ...c, [field]: [...c[field], label] };
          const [before] = scoreCandidates(p, [c]);
          const [after] = scoreCandidates(p, [more]);
          const b = before?.components[component] ?? null;
          const a = after?.components[component] ?? null;
          // A missing side leaves the component out (the weights change): only compare two present values.
          if (a === null || b === null || a <= b) return;
          expect(after?.score).toBeGreaterThanOrEqual(before?.score as number);
        }),
      );
    }
  });
});

describe("compositeScore properties", () => {
  it("is in [0, 1], rounded to 4 decimals", () => {
    fc.assert(
      fc.property(componentsArb, (c) => {
        const s = compositeScore(c);
        expect(s).toBeGreaterThanOrEqual(0);
        expect(s).toBeLessThanOrEqual(1);
        expect(s).toBe(round4(s));
      }),
    );
  });

  const KEYS = ["text_similarity", "tag_overlap", "entity_overlap", "title_similarity"] as const;

  it("never falls when one component grows (the others, and which are present, fixed)", () => {
    fc.assert(
      fc.property(componentsArb, fc.constantFrom(...KEYS), unit, unit, (c, key, x, y) => {
        if (c[key] === null) return; // a missing component stays missing
        const [lo, hi] = x <= y ? [x, y] : [y, x];
        expect(compositeScore({ ...c, [key]: hi })).toBeGreaterThanOrEqual(compositeScore({ ...c, [key]: lo }));
      }),
    );
  });

  it("does not read semantic_similarity or new_share", () => {
    fc.assert(
      fc.property(componentsArb, cosine, unit, (c, semantic, share) => {
        expect(compositeScore({ ...c, semantic_similarity: semantic, new_share: share })).toBe(compositeScore(c));
      }),
    );
  });
});

/** The band table, restated on integer ten-thousandths as an independent oracle (no flags, every pair the same facts). */
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
  const prev = (p: (typeof decisionKind extends fc.Arbitrary<infer T> ? T : never) | null) =>
    p ? { decision: p } : null;

  it("follows the band table and returns a valid outcome", () => {
    expect(BANDS.high).toBe(0.75);
    fc.assert(
      fc.property(noFlags, previousArb, (scores, previous) => {
        const outcome = decide(scores, prev(previous), { sameFacts: () => true });
        expect(ZResolveOutcome.parse(outcome)).toEqual(outcome);
        const expected = oracle(scores, previous);
        expect(outcome.decision).toBe(expected.decision);
        expect(outcome.hysteresis_applied).toBe(expected.held);
        expect(outcome.scores.length).toBe(Math.min(OUTCOME_SCORES, scores.length));
        expect(outcome.target_cfb_id).toBe(outcome.decision === "create" ? null : outcome.scores[0]?.cfb_id);
        expect(outcome.merge_cfb_ids).toEqual(
          outcome.decision === "merge" ? outcome.scores.slice(0, 2).map((s) => s.cfb_id) : [],
        );
      }),
    );
  });

  it("turns a decision into a review or leaves it, whatever the flags", () => {
    fc.assert(
      fc.property(anyFlags, previousArb, optionsArb, (scores, previous, opts) => {
        // SUBJECT_DIFFERS takes a candidate out of the decision altogether (tested in decide.test.ts).
        const kept = scores.map((s) => ({ ...s, flags: s.flags.filter((f) => f !== "SUBJECT_DIFFERS") }));
        const plain = decide(
          kept.map((s) => ({ ...s, flags: [] })),
          prev(previous),
          opts,
        );
        const flagged = decide(kept, prev(previous), opts);
        expect([plain.decision, "review"]).toContain(flagged.decision);
        // SEMANTIC_MATCH says which signal carried the text; it never changes a decision.
        const semanticOnly = decide(
          scores.map((s) => ({ ...s, flags: s.flags.filter((f) => f === "SEMANTIC_MATCH") })),
          prev(previous),
          opts,
        );
        expect(semanticOnly.decision).toBe(plain.decision);
        expect(semanticOnly.target_cfb_id).toBe(plain.target_cfb_id);
      }),
    );
  });

  it("names a candidate it scored, and merges only two distinct ones", () => {
    fc.assert(
      fc.property(anyFlags, previousArb, optionsArb, (scores, previous, opts) => {
        const outcome = decide(scores, prev(previous), opts);
        expect(ZResolveOutcome.parse(outcome)).toEqual(outcome);
        const ids = scores.map((s) => s.cfb_id);
        if (outcome.decision === "create") expect(outcome.target_cfb_id).toBeNull();
        else expect(ids).toContain(outcome.target_cfb_id);
        if (outcome.decision === "merge") {
          expect(outcome.merge_cfb_ids).toHaveLength(2);
          expect(new Set(outcome.merge_cfb_ids).size).toBe(2);
          expect(outcome.merge_cfb_ids[0]).toBe(outcome.target_cfb_id);
        } else expect(outcome.merge_cfb_ids).toEqual([]);
      }),
    );
  });

  it("does not depend on the order of the scores", () => {
    fc.assert(
      fc.property(
        anyFlags.chain((s) => fc.tuple(fc.constant(s), shuffled(s))),
        previousArb,
        optionsArb,
        ([scores, mixed], previous, opts) => {
          expect(decide(mixed, prev(previous), opts)).toEqual(decide(scores, prev(previous), opts));
        },
      ),
    );
  });

  it("is deterministic", () => {
    fc.assert(
      fc.property(anyFlags, previousArb, (scores, previous) => {
        expect(decide(structuredClone(scores), prev(previous))).toEqual(decide(scores, prev(previous)));
      }),
    );
  });

  it("end to end: resolving candidates in any order gives the same outcome", () => {
    fc.assert(
      fc.property(
        proposalArb,
        candidatesArb.chain((cs) => fc.tuple(fc.constant(cs), shuffled(cs))),
        previousArb,
        (p, [cs, mixed], previous) => {
          expect(resolveOutcome(p, mixed, prev(previous))).toEqual(resolveOutcome(p, cs, prev(previous)));
        },
      ),
    );
  });
});

describe("fingerprint and query properties", () => {
  const text = fc.string({ unit: "binary", maxLength: 60 });

  // The stored fingerprints were hashed by node:crypto: @noble/hashes must encode and hash the
  // material exactly as it did on any text, lone surrogates included.
  it("fingerprint is node:crypto's sha256 of its material on arbitrary text", () => {
    fc.assert(
      fc.property(
        text,
        fc.array(text, { maxLength: 4 }),
        fc.string({ unit: "binary", maxLength: 400 }),
        (t, tags, s) => {
          const p = { title: t, tags, delta_summary: s };
          expect(fingerprint(p)).toBe(createHash("sha256").update(fingerprintMaterial(p)).digest("hex"));
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

  it("query terms are unique analysed terms of the proposal, at most maxTerms", () => {
    fc.assert(
      fc.property(
        fc.oneof(text, title),
        fc.array(fc.oneof(text, fc.constantFrom(...LABELS)), { maxLength: 4 }),
        fc.array(text, { maxLength: 4 }),
        fc.oneof(text, body),
        fc.option(fc.nat(30), { nil: undefined }),
        (t, tags, entities, s, max) => {
          const p = { title: t, tags, entities, delta_summary: s, domain: "x" };
          const { terms } = buildCandidateQuery(p, max);
          expect(terms.length).toBeLessThanOrEqual(max ?? MAX_QUERY_TERMS);
          expect(new Set(terms).size).toBe(terms.length);
          const language = analysisLanguage(`${t}\n${s}`);
          const analysed = new Set([t, ...tags, ...entities, s].flatMap((x) => analyzeTerms(x, { language })));
          for (const term of terms) {
            expect(analysed.has(term)).toBe(true);
            expect(tokenize(term)).toEqual([term]);
          }
        },
      ),
    );
  });

  it("a long proposal never gives more than MAX_QUERY_TERMS terms", () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z]{3,8}$/), { minLength: 60, maxLength: 200 }), (words) => {
        const p = {
          title: words.slice(0, 10).join(" "),
          tags: [],
          entities: [],
          delta_summary: words.join(" "),
          domain: "x",
        };
        expect(buildCandidateQuery(p).terms.length).toBeLessThanOrEqual(MAX_QUERY_TERMS);
      }),
      { numRuns: 30 },
    );
  });
});
