// The composite score (seed 001 §6.2) and its components: the weighted mean of the components
// present, the label and title overlaps, the embeddings' scaling, and one candidate scored end to
// end with the flags that hold an update back (NEW_FACTS, CONTRADICTS, LANGUAGE_DIFFERS) or say
// which signal carried it (SEMANTIC_MATCH).
import { type TResolveCandidate, type TResolveProposal, ZScoredCandidate } from "@solserver/contracts";
import { describe, expect, it, vi } from "vitest";
import {
  compareScored,
  compositeScore,
  labelOverlap,
  NEW_FACTS_SHARE,
  round4,
  SEMANTIC_SCALE,
  scoreCandidate,
  scoreCandidates,
  scoreUnits,
  semanticComponent,
  textProfile,
  titleSimilarity,
  WEIGHTS,
} from "../src/index";
import { LABEL_GATE } from "../src/score";
import { candidate, components, proposal, scored } from "./fixtures";

vi.mock("../src/decision-rule", async () => ({ DECISION_RULE: (await import("./seed-rule")).SEED_RULE }));

describe("compositeScore", () => {
  it("weights the components 0.50 / 0.25 / 0.20 / 0.05", () => {
    expect(WEIGHTS).toEqual({ text: 0.5, tag: 0.25, entity: 0.2, title: 0.05 });
  });

  it.each([
    // text, tag, entity, title → score
    ["all present: the weighted sum", [0.75, 0.5, 0.5, 0.5], 0.625], // .375 + .125 + .1 + .025
    ["all 1", [1, 1, 1, 1], 1],
    ["all 0", [0, 0, 0, 0], 0],
    ["a third of text and tags", [1 / 3, 1 / 3, 0, 0], 0.2361], // .5/3 + .25/3 · (1/3 / .4), rounded once
    ["text 2/7 only, rounded to 4 decimals", [2 / 7, 0, 0, 0], 0.1429],
    ["no tags: the other weights scaled up", [0.75, null, 0.5, 0.5], 0.6667], // .5 / .75
    ["no labels: text and title alone", [1, null, null, 0], 0.9091], // .5 / .55
    ["no labels, perfect text and title", [1, null, null, 1], 1],
    ["no text (another language): labels and title alone", [null, 1, 1, 0], 0.9], // .45 / .5
    ["only the title", [null, null, null, 0.4], 0.4],
    ["no labels, no text, no title", [null, null, null, 0], 0],
  ] as const)("%s", (_, [text, tag, entity, title], expected) => {
    const c = components({ text_similarity: text, tag_overlap: tag, entity_overlap: entity, title_similarity: title });
    expect(compositeScore(c)).toBe(expected);
  });

  it.each([
    // text, tag, entity, title → score
    ["no text: labels count for nothing", [0, 1, 1, 1], 0.05], // only the title
    ["text 0.2 (half the gate): labels count half", [0.2, 1, 1, 0], 0.325], // .1 + .25·.5 + .2·.5
    ["text at the gate: labels in full", [0.4, 1, 1, 0], 0.65], // .2 + .25 + .2
    ["text above the gate: labels in full", [0.8, 0.5, 0.5, 0], 0.625], // .4 + .125 + .1
    ["no comparable text: labels in full", [null, 0.5, 1, 0], 0.65], // (.125 + .2 + 0) / .5
  ] as const)("gates the labels on the text below LABEL_GATE: %s", (_, [text, tag, entity, title], expected) => {
    expect(LABEL_GATE).toBe(0.4);
    const c = components({ text_similarity: text, tag_overlap: tag, entity_overlap: entity, title_similarity: title });
    expect(compositeScore(c)).toBe(expected);
  });

  it("ignores semantic_similarity and new_share (the text component already holds the semantic part)", () => {
    const base = components({ text_similarity: 0.6, tag_overlap: 0.5 });
    expect(compositeScore({ ...base, semantic_similarity: 0.99, new_share: 1 })).toBe(compositeScore(base));
  });

  it("leaves a null component out rather than counting it as 0", () => {
    // A proposal without tags is no evidence against a CFB with tags.
    const without = compositeScore(components({ text_similarity: 1, tag_overlap: null, entity_overlap: null }));
    const zero = compositeScore(components({ text_similarity: 1, tag_overlap: 0, entity_overlap: 0 }));
    expect(zero).toBe(0.5); // .5 / 1 (title 0 counts: every CFB has a title)
    expect(without).toBe(0.9091); // .5 / .55
  });
});

describe("round4 / scoreUnits", () => {
  it.each([
    [0.12345, 0.1235],
    [0.00005, 0.0001],
    [0.00004, 0],
    [0.99995, 1],
    [0.75004, 0.75],
    [0.1 + 0.2, 0.3],
    [0, 0],
    [1, 1],
  ])("round4(%d) is %d", (x, expected) => {
    expect(round4(x)).toBe(expected);
  });

  it.each([
    [0.75, 7500],
    [0.7501, 7501],
    [0.7500000000000001, 7500],
    [0.54999999, 5500],
    [0, 0],
    [1, 10_000],
    [Number.NaN, 0],
    [Number.POSITIVE_INFINITY, 10_000],
    [Number.NEGATIVE_INFINITY, 0],
  ])("scoreUnits(%d) is %d", (x, expected) => {
    expect(scoreUnits(x)).toBe(expected);
  });

  it("makes the merge gap exact where floats are not", () => {
    expect(0.82 - 0.76).toBeLessThan(0.06); // the float trap
    expect(scoreUnits(0.82) - scoreUnits(0.76)).toBe(600);
  });
});

describe("semanticComponent", () => {
  it("maps cosine similarity to [0, 1] between SEMANTIC_SCALE.none and .full", () => {
    expect(SEMANTIC_SCALE).toEqual({ none: 0.6, full: 0.9 });
    expect(semanticComponent(0.6)).toBe(0);
    expect(semanticComponent(0.9)).toBe(1);
    expect(semanticComponent(0.75)).toBeCloseTo(0.5, 12);
    expect(semanticComponent(0.84)).toBeCloseTo(0.8, 12);
  });

  it.each([0.5999, 0.3, 0, -0.5, -1])("is 0 at or below none: %d", (cosine) => {
    expect(semanticComponent(cosine)).toBe(0);
  });

  it.each([0.9001, 0.95, 1])("is 1 at or above full: %d", (cosine) => {
    expect(semanticComponent(cosine)).toBe(1);
  });

  it("takes a scale calibrated per embeddings model", () => {
    // A sentence model puts unrelated texts near 0.3; averaged word vectors near 0.9.
    expect(semanticComponent(0.3, { none: 0.3, full: 0.7 })).toBe(0);
    expect(semanticComponent(0.5, { none: 0.3, full: 0.7 })).toBeCloseTo(0.5, 12);
    expect(semanticComponent(0.7, { none: 0.3, full: 0.7 })).toBe(1);
    expect(semanticComponent(0.95, { none: 0.9, full: 0.99 })).toBeCloseTo(5 / 9, 12);
    expect(semanticComponent(0.85, { none: 0.9, full: 0.99 })).toBe(0);
  });

  it("is a step at full for a degenerate scale (full not above none), never NaN or Infinity", () => {
    expect(semanticComponent(0.8, { none: 0.8, full: 0.8 })).toBe(1);
    expect(semanticComponent(0.79, { none: 0.8, full: 0.8 })).toBe(0);
    expect(semanticComponent(0.75, { none: 0.9, full: 0.7 })).toBe(1);
    expect(semanticComponent(0.69, { none: 0.9, full: 0.7 })).toBe(0);
  });

  it.each([null, undefined, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])(
    "is null for %s (no embedding to compare)",
    (cosine) => {
      expect(semanticComponent(cosine)).toBeNull();
    },
  );
});

describe("labelOverlap", () => {
  it("is the Jaccard index of the labels", () => {
    expect(labelOverlap(["db", "ops"], ["db", "ops"])).toBe(1);
    expect(labelOverlap(["db", "ops"], ["db"])).toBe(0.5);
    expect(labelOverlap(["billing", "security", "network"], ["security", "network", "frontend"])).toBe(0.5);
    expect(labelOverlap(["billing"], ["security"])).toBe(0);
    expect(labelOverlap([" DB ", "Ops"], ["db", "ops", "ops"])).toBe(1);
  });

  it.each([
    [[], []],
    [["db"], []],
    [[], ["db"]],
    [["  ", ""], ["db"]],
    [["db"], ["\t"]],
  ])("is null when either side has no labels: %j / %j", (a, b) => {
    expect(labelOverlap(a, b)).toBeNull();
  });

  it.each([
    ["Pager Duty", "PagerDuty"], // equal once squashed
    ["Pager-Duty", "pagerduty"],
    ["Amazon EKS", "EKS"], // half the terms shared
    ["k8s", "kubernetes"], // an alias
    ["Upgrades", "upgrade"], // a stem
    ["on-call", "On call"],
    ["GH Actions", "GitHub Actions"],
    ["incident-management", "incidents"],
  ])("counts %j and %j as the same label", (a, b) => {
    expect(labelOverlap([a], [b])).toBe(1);
    expect(labelOverlap([b], [a])).toBe(1);
  });

  it.each([
    ["billing", "shipping"],
    ["Amazon EKS", "Amazon RDS Proxy"], // one term of four shared
    ["frontend", "backend"],
  ])("keeps %j and %j apart", (a, b) => {
    expect(labelOverlap([a], [b])).toBe(0);
  });

  it("matches each label at most once", () => {
    // "db" and "database" are one label; the second of them on one side has nothing left to meet.
    expect(labelOverlap(["db"], ["db", "database"])).toBe(0.5);
    expect(labelOverlap(["k8s", "kubernetes"], ["Kubernetes"])).toBe(0.5);
    expect(labelOverlap(["k8s", "kubernetes"], ["Kubernetes", "kube"])).toBe(1);
  });
});

describe("titleSimilarity", () => {
  it("compares analysed terms, ignoring order, case, diacritics, stopwords and inflection", () => {
    expect(titleSimilarity("Reset the password", "PASSWORD reset")).toBe(1);
    expect(titleSimilarity("Café opening hours", "cafe opening hours")).toBe(1);
    expect(titleSimilarity("Rotating keys", "Key rotation")).toBe(1);
    expect(titleSimilarity("Prod DB backups", "Production database backup")).toBe(1);
    expect(titleSimilarity("Reset the Postgres password", "Reset the MySQL password")).toBe(0.5);
    expect(titleSimilarity("Billing", "Shipping")).toBe(0);
  });

  it("is 0 for titles of stopwords only or empty titles", () => {
    expect(titleSimilarity("The and", "the AND")).toBe(0);
    expect(titleSimilarity("", "")).toBe(0);
  });
});

/** One candidate scored against the proposal, both texts profiled as resolve does. */
function scoreOne(p: TResolveProposal, c: TResolveCandidate, detail = true) {
  return scoreCandidate(p, textProfile(p.title, p.delta_summary), c, textProfile(c.title, c.summary), detail);
}

const BACKUPS = candidate("CFB-0001", {
  title: "Nightly backups",
  summary: "Backups of the production database run nightly at 02:00 UTC to the bucket in Frankfurt.",
  tags: ["backup"],
  entities: ["PostgreSQL"],
});
const about = (delta_summary: string, over: Partial<TResolveProposal> = {}) =>
  proposal({ title: "Nightly backups", delta_summary, tags: ["backup"], entities: ["PostgreSQL"], ...over });

describe("scoreCandidate", () => {
  it("scores every component and their weighted mean", () => {
    const summary = "Use ALTER ROLE to reset the password, then restart the API.";
    const s = scoreOne(
      proposal({ title: "Reset Postgres password", tags: ["db", "ops"], entities: ["PostgreSQL", "PgBouncer"] }),
      candidate("CFB-1", { title: "Reset MySQL password", summary, tags: ["db"], entities: ["PostgreSQL"] }),
    );
    // 0.5·1 + 0.25·0.5 + 0.2·0.5 + 0.05·0.5 = 0.75
    expect(s).toEqual({
      cfb_id: "CFB-1",
      score: 0.75,
      components: {
        text_similarity: 1,
        tag_overlap: 0.5,
        entity_overlap: 0.5,
        title_similarity: 0.5,
        semantic_similarity: null,
        new_share: 0,
      },
      flags: [],
      subject: { relation: "same", proposal: [], candidate: [] },
    });
    expect(ZScoredCandidate.parse(s)).toEqual(s);
  });

  it("flags NEW_FACTS when the proposal adds a sentence the CFB does not support", () => {
    const same = scoreOne(about("Backups of the production database run nightly at 02:00 UTC to Frankfurt."), BACKUPS);
    expect(same.components.new_share).toBe(0);
    expect(same.flags).toEqual([]);
    const more = scoreOne(
      about(
        "Backups of the production database run nightly at 02:00 UTC. Restores are rehearsed quarterly by the on-call engineer.",
      ),
      BACKUPS,
    );
    expect(more.components.new_share).toBeGreaterThanOrEqual(NEW_FACTS_SHARE);
    expect(more.flags).toEqual(["NEW_FACTS"]);
  });

  it("flags NEW_FACTS from a share of NEW_FACTS_SHARE = 0.2 of the proposal's terms", () => {
    expect(NEW_FACTS_SHARE).toBe(0.2);
    // 8 supported terms and 2 new ones ("restores", "tested"): exactly 0.2.
    const edge = scoreOne(
      about("Backups of the production database run nightly at 02:00 UTC. Restores tested."),
      BACKUPS,
    );
    expect(edge.components.new_share).toBe(0.2);
    expect(edge.flags).toContain("NEW_FACTS");
    // One supported term more ("Frankfurt"): 2 / 11.
    const under = scoreOne(
      about("Backups of the production database run nightly at 02:00 UTC in Frankfurt. Restores tested."),
      BACKUPS,
    );
    expect(under.components.new_share).toBeCloseTo(2 / 11, 12);
    expect(under.flags).not.toContain("NEW_FACTS");
  });

  it.each([
    "We no longer back up the production database nightly.",
    "Nightly backups were replaced by continuous archiving.",
    "Nightly backups are deprecated; we use continuous archiving instead of them.",
  ])("flags CONTRADICTS on change language: %j", (text) => {
    expect(scoreOne(about(text), BACKUPS).flags).toContain("CONTRADICTS");
  });

  it("does not flag CONTRADICTS when the CFB itself uses the same change language", () => {
    const cfb = candidate("CFB-0002", {
      title: "Nightly backups",
      summary: "Backups no longer go to tape; they run nightly at 02:00 UTC to the bucket in Frankfurt.",
    });
    const s = scoreOne(about("We no longer back up to tape: backups run nightly at 02:00 UTC to Frankfurt."), cfb);
    expect(s.flags).not.toContain("CONTRADICTS");
    // A plain "not" is no change language.
    expect(scoreOne(about("Backups do not run during the day; they run nightly."), BACKUPS).flags).not.toContain(
      "CONTRADICTS",
    );
  });

  it("flags LANGUAGE_DIFFERS for a German restatement, compared on its numbers and names", () => {
    const german = about(
      "Die Produktionsdatenbank wird jede Nacht um 02:00 UTC in den Bucket in Frankfurt gesichert.",
      { title: "Nächtliche Sicherungen" },
    );
    const s = scoreOne(german, BACKUPS);
    expect(s.flags).toEqual(["LANGUAGE_DIFFERS"]);
    expect(s.components.text_similarity).toBeGreaterThan(0.9); // 02, 00, UTC, Frankfurt shared
    expect(s.components.new_share).toBe(0); // word overlap across languages says nothing
  });

  it("compares a plainer restatement in another language through its cognates, labels gated on that", () => {
    // Few names or numbers, and the words are French: only character trigrams ("base", "donn…")
    // are left, so the text is weak and the labels count in proportion.
    const french = about("La base de données est sauvegardée chaque nuit.", { title: "Sauvegardes" });
    const s = scoreOne(french, BACKUPS);
    expect(s.flags).toEqual(["LANGUAGE_DIFFERS"]);
    const text = s.components.text_similarity as number;
    expect(text).toBeGreaterThan(0);
    expect(text).toBeLessThan(LABEL_GATE);
    // tags 1 and entities 1, each times text / 0.4; title 0
    expect(s.score).toBe(round4(0.5 * text + 0.45 * (text / LABEL_GATE)));
  });

  it("leaves the text out across languages when nothing can be compared, and counts the labels in full", () => {
    // French by its function words, and nothing else: no trigrams, no numbers or names.
    const s = scoreOne(about("Et de la le.", { title: "La" }), BACKUPS);
    expect(s.flags).toEqual(["LANGUAGE_DIFFERS"]);
    expect(s.components.text_similarity).toBeNull();
    // tags 1, entities 1, title 0: (0.25 + 0.2) / 0.5
    expect(s.score).toBe(0.9);
  });

  it("takes the embeddings' similarity when it beats the words, and flags SEMANTIC_MATCH", () => {
    const paraphrase = about("Each evening a snapshot of the main datastore is copied off-site.", { tags: [] });
    const lexical = scoreOne(paraphrase, BACKUPS);
    expect(lexical.components.text_similarity).toBeLessThan(0.5);
    const semantic = scoreOne(paraphrase, { ...BACKUPS, semantic_similarity: 0.87 });
    expect(semantic.components.text_similarity).toBeCloseTo(0.9, 12); // (0.87 − 0.6) / 0.3
    expect(semantic.components.semantic_similarity).toBe(0.87); // the cosine as given
    expect(semantic.flags).toContain("SEMANTIC_MATCH");
    expect(semantic.score).toBeGreaterThan(lexical.score);
    // Weaker than the words: the words count, no flag.
    const weak = scoreOne(paraphrase, { ...BACKUPS, semantic_similarity: 0.3 });
    expect(weak.components.text_similarity).toBe(lexical.components.text_similarity);
    expect(weak.flags).not.toContain("SEMANTIC_MATCH");
  });

  it("reads the cosine on the scale it is given", () => {
    const paraphrase = about("Each evening a snapshot of the main datastore is copied off-site.", { tags: [] });
    const c = { ...BACKUPS, semantic_similarity: 0.5 };
    const p = textProfile(paraphrase.title, paraphrase.delta_summary);
    const cText = textProfile(c.title, c.summary);
    // 0.5 is nothing on the default scale (none 0.6) and a restatement on a sentence model's.
    expect(scoreCandidate(paraphrase, p, c, cText).flags).not.toContain("SEMANTIC_MATCH");
    const calibrated = scoreCandidate(paraphrase, p, c, cText, true, { none: 0.2, full: 0.5 });
    expect(calibrated.components.text_similarity).toBe(1);
    expect(calibrated.flags).toContain("SEMANTIC_MATCH");
    expect(scoreCandidates(paraphrase, [c], new Map(), { none: 0.2, full: 0.5 })).toEqual([calibrated]);
  });

  it("does not flag SEMANTIC_MATCH when the embeddings only equal the words", () => {
    const restated = about("Backups of the production database run nightly at 02:00 UTC to the bucket in Frankfurt.");
    const s = scoreOne(restated, { ...BACKUPS, semantic_similarity: 0.95 });
    expect(s.components.text_similarity).toBe(1);
    expect(s.flags).toEqual([]);
  });

  it("takes the embeddings' text component across languages too, when it beats the trigrams", () => {
    const french = about("La base de données est sauvegardée chaque nuit.", { title: "Sauvegardes" });
    const s = scoreOne(french, { ...BACKUPS, semantic_similarity: 0.84 });
    expect(s.components.text_similarity).toBeCloseTo(0.8, 12);
    expect(s.flags).toEqual(["LANGUAGE_DIFFERS", "SEMANTIC_MATCH"]);
  });

  it("gives the same score without detail, but no new_share and no change flags", () => {
    const p = about("We no longer back up nightly. Restores are rehearsed quarterly by the on-call engineer.");
    const full = scoreOne(p, BACKUPS);
    const fast = scoreOne(p, BACKUPS, false);
    expect(full.flags).toEqual(["NEW_FACTS", "CONTRADICTS"]);
    expect(fast.score).toBe(full.score);
    expect(fast.components).toEqual({ ...full.components, new_share: 0 });
    expect(fast.flags).toEqual([]);
  });
});

describe("scoreCandidates", () => {
  it("sorts by score descending, then cfb_id in numeric order", () => {
    const p = proposal();
    const out = scoreCandidates(p, [
      candidate("CFB-10", { summary: "Unrelated text about lunch." }),
      candidate("CFB-2", { summary: p.delta_summary }),
      candidate("CFB-9", { summary: "Unrelated text about lunch." }),
    ]);
    expect(out.map((s) => s.cfb_id)).toEqual(["CFB-2", "CFB-9", "CFB-10"]);
    expect(out[0]?.score).toBeGreaterThan(out[1]?.score as number);
    expect(out[1]?.score).toBe(out[2]?.score);
  });

  it("counts a CFB returned twice once, with its best score", () => {
    // The lexical and the semantic search can both return a CFB: the copy with the higher score wins.
    const c = candidate("CFB-1", { summary: "Passwords are reset by the database team on request." });
    for (const input of [
      [c, { ...c, semantic_similarity: 0.9 }],
      [{ ...c, semantic_similarity: 0.9 }, c],
    ]) {
      const out = scoreCandidates(proposal(), input);
      expect(out).toHaveLength(1);
      expect(out[0]?.components.semantic_similarity).toBe(0.9);
      expect(out[0]?.flags).toContain("SEMANTIC_MATCH");
    }
  });

  it("is empty for no candidates and does not modify its input", () => {
    expect(scoreCandidates(proposal(), [])).toEqual([]);
    const input = Object.freeze([candidate("CFB-2"), candidate("CFB-1")]);
    scoreCandidates(proposal(), input);
    expect(input.map((c) => c.cfb_id)).toEqual(["CFB-2", "CFB-1"]);
  });

  it("scores a perfect match 1", () => {
    const p = proposal();
    const [s] = scoreCandidates(p, [
      candidate("CFB-1", { title: p.title, summary: p.delta_summary, tags: p.tags, entities: p.entities }),
    ]);
    expect(s?.score).toBe(1);
    expect(s?.flags).toEqual([]);
  });
});

describe("compareScored", () => {
  it("orders by score (in ten-thousandths), then numeric id, then components", () => {
    const list = [
      scored("CFB-10", 0.8),
      scored("CFB-9", 0.80004), // the same score to 4 decimals: the id decides
      scored("CFB-1", 0.7),
      scored("CFB-3", 0.9),
    ];
    expect(list.sort(compareScored).map((s) => s.cfb_id)).toEqual(["CFB-3", "CFB-9", "CFB-10", "CFB-1"]);
    // Two copies of one CFB: the finer score, then the better text.
    const a = scored("CFB-1", 0.80004);
    const b = scored("CFB-1", 0.8);
    expect(compareScored(a, b)).toBeLessThan(0);
    const t1 = scored("CFB-1", 0.8, { text_similarity: 0.9 });
    const t2 = scored("CFB-1", 0.8, { text_similarity: null });
    expect(compareScored(t1, t2)).toBeLessThan(0);
    expect(compareScored(t2, t1)).toBeGreaterThan(0);
  });
});
