// resolveOutcome end to end on a small team knowledge base: a proposal against its candidates,
// scored from the texts themselves and decided. The cases are the ones resolve exists for: a
// restatement updates its CFB, a CFB written twice is merged, two CFBs that read alike but state
// different facts (EU vs US region) are never merged, and something new is created.
import { type TResolveCandidate, type TResolveProposal, ZResolveOutcome } from "@solserver/contracts";
import { describe, expect, it, vi } from "vitest";
import { OUTCOME_SCORES, resolveOutcome, scoreCandidates } from "../src/index";
import { candidate, proposal } from "./fixtures";

vi.mock("../src/decision-rule", async () => ({ DECISION_RULE: (await import("./seed-rule")).SEED_RULE }));

const KB: readonly TResolveCandidate[] = [
  candidate("CFB-0001", {
    title: "Primary database region for EU customers",
    summary:
      "The primary Postgres database for EU customers runs in eu-central-1 (Frankfurt) with a hot standby replica. Failover is manual and takes about 15 minutes.",
    tags: ["database", "infrastructure"],
    entities: ["PostgreSQL", "AWS"],
  }),
  candidate("CFB-0002", {
    title: "Primary database region for US customers",
    summary:
      "The primary Postgres database for US customers runs in us-east-1 (Virginia) with a hot standby replica. Failover is manual and takes about 15 minutes.",
    tags: ["database", "infrastructure"],
    entities: ["PostgreSQL", "AWS"],
  }),
  // One CFB written twice.
  candidate("CFB-0003", {
    title: "Office VPN access",
    summary:
      "Connect to the office VPN with WireGuard. Request a config from IT through the helpdesk; configs expire after 90 days.",
    tags: ["security", "network"],
    entities: ["WireGuard"],
  }),
  candidate("CFB-0004", {
    title: "Office VPN access",
    summary:
      "To reach the office network, connect with WireGuard. IT issues the config through the helpdesk; a config expires after 90 days.",
    tags: ["security", "network"],
    entities: ["WireGuard"],
  }),
  candidate("CFB-0005", {
    title: "Expense reports",
    summary: "Submit expense reports in Pleo by the fifth of the following month. Receipts over 50 EUR need a photo.",
    tags: ["finance"],
    entities: ["Pleo"],
  }),
  candidate("CFB-0006", {
    title: "Nightly database backups",
    summary:
      "The production database is backed up every night at 02:00 UTC to the S3 bucket in Frankfurt. Backups are kept for 30 days.",
    tags: ["backup", "database"],
    entities: ["PostgreSQL", "S3"],
  }),
];

const P = (title: string, delta_summary: string, tags: string[], entities: string[]): TResolveProposal =>
  proposal({ title, delta_summary, tags, entities });

const CASES = {
  nearDuplicate: P(
    "Nightly database backups",
    "The production database is backed up every night at 02:00 UTC to the S3 bucket in Frankfurt. Backups are kept for 35 days.",
    ["backup"],
    ["PostgreSQL"],
  ),
  vpn: P(
    "Office VPN access",
    "Connect to the office VPN using WireGuard. Ask IT for a config via the helpdesk; configs expire after 90 days.",
    ["security"],
    ["WireGuard"],
  ),
  eu: P(
    "Primary database region for EU customers",
    "EU customers' primary Postgres database runs in eu-central-1 (Frankfurt) with a hot standby replica; failover is manual and takes about 15 minutes.",
    ["database"],
    ["PostgreSQL"],
  ),
  us: P(
    "Primary database region for US customers",
    "US customers' primary Postgres database runs in us-east-1 (Virginia) with a hot standby replica; failover is manual and takes about 15 minutes.",
    ["database"],
    ["PostgreSQL"],
  ),
  // The title names no region: only Frankfurt and eu-central-1 in the text say which CFB it is.
  euUntitled: P(
    "Primary database region",
    "The primary Postgres database runs in eu-central-1 (Frankfurt) with a hot standby replica. Failover is manual and takes about 15 minutes.",
    ["database"],
    ["PostgreSQL"],
  ),
  unrelated: P(
    "Lunch menu rotation",
    "The canteen rotates the vegetarian dish weekly; menus are posted on Monday.",
    ["office"],
    ["Canteen"],
  ),
  contradicts: P(
    "Nightly database backups",
    "The production database is no longer backed up to S3; nightly backups were replaced by Velero snapshots in Frankfurt.",
    ["backup"],
    ["PostgreSQL"],
  ),
  german: P(
    "Nächtliche Datenbank-Backups",
    "Die Produktionsdatenbank wird jede Nacht um 02:00 UTC in den S3-Bucket in Frankfurt gesichert. Die Backups werden 30 Tage lang aufbewahrt.",
    ["backup"],
    ["PostgreSQL"],
  ),
  newFacts: P(
    "Nightly database backups",
    "The production database is backed up every night at 02:00 UTC to the S3 bucket in Frankfurt. Restores are rehearsed every quarter by the on-call engineer.",
    ["backup"],
    ["PostgreSQL"],
  ),
};

const resolve = (p: TResolveProposal, cs: readonly TResolveCandidate[] = KB) => {
  const outcome = resolveOutcome(p, cs);
  expect(ZResolveOutcome.parse(outcome)).toEqual(outcome);
  return outcome;
};

describe("resolveOutcome", () => {
  it("sends a near-duplicate that changes a value to review, naming the old and the new value", () => {
    const o = resolve(CASES.nearDuplicate);
    expect(o.decision).toBe("review");
    expect(o.target_cfb_id).toBe("CFB-0006");
    expect(o.reason_codes).toEqual(expect.arrayContaining(["SCORE_HIGH", "VALUE_CHANGED"]));
    expect(o.scores[0]?.changes).toEqual([expect.objectContaining({ new: expect.stringContaining("35") })]);
  });

  it("merges two CFBs that are one written twice", () => {
    const o = resolve(CASES.vpn);
    expect(o.decision).toBe("merge");
    expect(o.merge_cfb_ids).toEqual(["CFB-0003", "CFB-0004"]);
    expect(o.reason_codes).toContain("NEAR_DUPLICATE_PAIR");
  });

  it.each([
    ["EU", CASES.eu, "CFB-0001"],
    ["US", CASES.us, "CFB-0002"],
    ["EU, with a title naming no region", CASES.euUntitled, "CFB-0001"],
  ])("updates the %s region CFB, never merging the near-identical pair", (_, p, target) => {
    const o = resolve(p);
    const [first, second] = o.scores;
    // Both score high and close: by the seed's bands alone this would be a merge.
    expect(first?.score).toBeGreaterThan(0.75);
    expect(second?.score).toBeGreaterThan(0.75);
    expect(new Set([first?.cfb_id, second?.cfb_id])).toEqual(new Set(["CFB-0001", "CFB-0002"]));
    expect(o.decision).toBe("update");
    expect(o.target_cfb_id).toBe(target);
    expect(o.merge_cfb_ids).toEqual([]);
    expect(o.reason_codes).toContain("DISTINCT_PAIR");
  });

  it("creates for an unrelated proposal", () => {
    const o = resolve(CASES.unrelated);
    expect(o.decision).toBe("create");
    expect(o.target_cfb_id).toBeNull();
    expect(o.reason_codes).toEqual(["SCORE_LOW", "LOW_TEXT_MATCH"]);
  });

  it("creates with NO_CANDIDATES when the search found nothing", () => {
    expect(resolve(CASES.nearDuplicate, [])).toMatchObject({
      decision: "create",
      reason_codes: ["SCORE_LOW", "NO_CANDIDATES"],
    });
  });

  it.each([
    ["that changes the practice", CASES.contradicts, "CONTRADICTS"],
    ["in another language", CASES.german, "LANGUAGE_DIFFERS"],
    ["that adds facts", CASES.newFacts, "NEW_FACTS"],
  ])("sends a restatement %s to review, naming the CFB", (_, p, code) => {
    const o = resolve(p);
    expect(o.decision).toBe("review");
    expect(o.target_cfb_id).toBe("CFB-0006");
    expect(o.scores[0]?.flags).toContain(code);
    expect(o.reason_codes).toContain(code);
  });

  it("passes the previous decision on to the hysteresis buffer", () => {
    const alone = [KB[0] as TResolveCandidate];
    const fresh = resolve(CASES.eu, alone);
    expect(fresh.decision).toBe("update");
    expect(fresh.scores[0]?.score).toBeLessThanOrEqual(0.8); // inside the buffer
    const held = resolveOutcome(CASES.eu, alone, { decision: "create" });
    expect(held).toMatchObject({ decision: "create", hysteresis_applied: true, target_cfb_id: null });
  });

  it("counts a candidate listed twice once, with its best score", () => {
    // The lexical and the semantic search can both return a CFB; the copy the embeddings rate
    // highest wins, and the CFB is one candidate, not a pair to merge.
    const backups = KB[5] as TResolveCandidate;
    const paraphrase = P(
      "Where backups go",
      "Each evening a snapshot of the main datastore is copied off-site.",
      ["backup"],
      ["PostgreSQL"],
    );
    const twice = [backups, { ...backups, semantic_similarity: 0.95 }, { ...backups, semantic_similarity: 0.7 }];
    const o = resolve(paraphrase, twice);
    expect(o.scores).toHaveLength(1);
    expect(o.scores[0]?.components.semantic_similarity).toBe(0.95);
    expect(o.scores[0]?.flags).toContain("SEMANTIC_MATCH");
    expect(o.merge_cfb_ids).toEqual([]);
    expect(resolve(paraphrase, twice.toReversed())).toEqual(o);
  });

  it("gives the same outcome whatever the order of the candidates", () => {
    const orders: TResolveCandidate[][] = [];
    for (let i = 0; i < KB.length; i++) {
      const rotated = [...KB.slice(i), ...KB.slice(0, i)];
      orders.push(rotated, rotated.toReversed());
    }
    for (const [name, p] of Object.entries(CASES)) {
      const expected = resolveOutcome(p, KB);
      for (const order of orders) expect(resolveOutcome(p, order), name).toEqual(expected);
    }
  });

  it("gives the same outcome for every permutation where the pair's order decides (EU vs US)", () => {
    const pair = KB.slice(0, 2);
    const rest = KB.slice(2);
    const expected = resolveOutcome(CASES.euUntitled, KB);
    for (const first of [pair, pair.toReversed()])
      for (let i = 0; i <= rest.length; i++) {
        const order = [...rest.slice(0, i), ...first, ...rest.slice(i)];
        expect(resolveOutcome(CASES.euUntitled, order)).toEqual(expected);
      }
  });
});

describe("resolveOutcome with many candidates", () => {
  /** 14 CFBs about backups, each sharing fewer of the proposal's words than the one before. */
  const WORDS = "backups run nightly to the bucket in Frankfurt with retention of thirty days for audits".split(" ");
  const many = Array.from({ length: 14 }, (_, i) =>
    candidate(`CFB-${String(i + 1).padStart(4, "0")}`, {
      title: "Backups",
      summary: `${WORDS.slice(0, WORDS.length - i).join(" ")}.`,
      tags: ["backup"],
      entities: [],
    }),
  );
  const p = P(
    "Backups",
    "We no longer keep backups in Frankfurt for thirty days. Restores are rehearsed quarterly by the on-call engineer and reviewed by security auditors.",
    ["backup"],
    [],
  );

  it(`keeps the best ${OUTCOME_SCORES} scores, best first`, () => {
    expect(OUTCOME_SCORES).toBe(10);
    const o = resolve(p, many.toReversed());
    expect(o.scores).toHaveLength(OUTCOME_SCORES);
    const all = scoreCandidates(p, many);
    expect(all).toHaveLength(14);
    expect(o.scores).toEqual(all.slice(0, OUTCOME_SCORES));
    const scores = o.scores.map((s) => s.score);
    expect(scores).toEqual(scores.toSorted((a, b) => b - a));
  });

  it(`computes new_share and the change flags for the best ${OUTCOME_SCORES} only`, () => {
    const all = scoreCandidates(p, many);
    const top = all.slice(0, OUTCOME_SCORES);
    const rest = all.slice(OUTCOME_SCORES);
    for (const s of top) {
      expect(s.components.new_share, s.cfb_id).toBeGreaterThan(0);
      expect(s.flags, s.cfb_id).toEqual(expect.arrayContaining(["NEW_FACTS", "CONTRADICTS"]));
    }
    for (const s of rest) {
      expect(s.components.new_share, s.cfb_id).toBe(0);
      expect(s.flags, s.cfb_id).not.toContain("NEW_FACTS");
      expect(s.flags, s.cfb_id).not.toContain("CONTRADICTS");
    }
    // The score itself never depends on the detail: the same as each scored alone.
    for (const s of rest)
      expect(scoreCandidates(p, [many.find((c) => c.cfb_id === s.cfb_id) as TResolveCandidate])[0]?.score).toBe(
        s.score,
      );
  });
});
