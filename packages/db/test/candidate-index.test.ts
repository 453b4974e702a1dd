// The candidate index over the database (candidates/candidate-index.ts): a TermIndex of every live
// CFB, kept in step with the Cfb table through the CfbChange log the triggers of migration
// *_candidate_index write. Each process holds its own index, so these tests open two clients on
// one file (two "processes") and check that what one writes, the other's index follows on its next
// search: creates, edits, merges, deletes, bulk imports (rebuild past 2,000 entries), and a log
// number reused after a rollback (rebuild). Then the search itself, over 20,000 imported CFBs,
// against a brute-force ranking.
import type { TCfbDraft } from "@solserver/contracts";
import { termSet } from "@solserver/text";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient, createRepositories, type DbClient, resolveWeight, type TRepositories } from "../src";
import { sqlDriverOf } from "../src/client";
import { Prisma } from "../src/generated/prisma/client";
import type { TSql } from "../src/sql";
import { createTestDatabase, prng, type TTestDatabase, testCfb } from "../src/testing";

let database: TTestDatabase;
// The writer, and a second client on the same file: another process with its own index.
let db: DbClient;
let repos: TRepositories;
let otherDb: DbClient;
let other: TRepositories;

const draft = (title: string, summary: string, extra: Partial<TCfbDraft> = {}): TCfbDraft =>
  testCfb({ title, summary, ...extra });
const actor = { actorUserId: null, actorEmail: "test@example.com", via: "system" as const };

/** A proposal's query: the analysed terms of its text, as resolve builds it. */
const query = (text: string) => ({ terms: [...termSet(text)] });
const found = async (r: TRepositories, text: string, limit = 20) =>
  (await r.cfbs.candidates(query(text), { limit })).map((c) => c.cfb_id);
const changeCount = async () => db.cfbChange.count();

beforeAll(async () => {
  database = await createTestDatabase("candidate-index");
  db = await createPrismaClient(database.url);
  otherDb = await createPrismaClient(database.url);
  repos = createRepositories(db);
  other = createRepositories(otherDb);
});
afterAll(async () => {
  await db.$disconnect();
  await otherDb.$disconnect();
  database.cleanup();
});

describe("following another process's writes", () => {
  it("finds a CFB another client created, by applying the log (no rebuild)", async () => {
    // Built before the write (empty), so the CFB can only arrive through the log.
    expect(await found(other, "zanzibar ledger")).toEqual([]);
    const before = other.cfbs.index.status();
    expect(before.rebuilds).toBe(1);

    const cfb = await repos.cfbs.create(draft("Zanzibar ledger audit", "The zanzibar ledger is audited each quarter."));
    expect(await found(other, "zanzibar ledger")).toEqual([cfb.cfb_id]);
    const after = other.cfbs.index.status();
    expect(after.rebuilds).toBe(before.rebuilds);
    expect(after.appliedChanges).toBeGreaterThan(before.appliedChanges);
    expect(after.documents).toBe(1);
  });

  it("follows an edit of title and summary: the old words no longer find it, the new ones do", async () => {
    const cfb = await repos.cfbs.create(draft("Nightly vacuum of postgres", "Run vacuum analyze nightly on postgres."));
    expect(await found(other, "vacuum analyze")).toEqual([cfb.cfb_id]);

    await repos.cfbs.update(
      cfb.cfb_id,
      1,
      draft("Weekly reindex of warehouse", "Reindex the warehouse tables every Sunday."),
      actor,
    );
    expect(await found(other, "vacuum analyze")).toEqual([]);
    expect(await found(other, "warehouse reindex")).toEqual([cfb.cfb_id]);
    // Tags and entities are terms too.
    await db.cfb.update({ where: { id: cfb.cfb_id }, data: { tags: ["quasar"], entities: ["Marmoset"] } });
    expect(await found(other, "quasar marmoset")).toEqual([cfb.cfb_id]);
    const [hit] = await other.cfbs.index.search(
      { terms: [...termSet("quasar marmoset warehouse")], weight: () => 1 },
      { limit: 5 },
    );
    expect(hit).toMatchObject({ id: cfb.cfb_id, shared: 3, score: 3 });
  });

  it("drops a merged CFB and a deleted one from the candidates", async () => {
    const kept = await repos.cfbs.create(draft("Quokka feeding schedule", "Feed the quokka colony at dawn."));
    const merged = await repos.cfbs.create(draft("Quokka feeding times", "The quokka colony eats at dawn and dusk."));
    expect(new Set(await found(other, "quokka colony"))).toEqual(new Set([kept.cfb_id, merged.cfb_id]));

    await db.cfb.update({ where: { id: merged.cfb_id }, data: { mergedIntoId: kept.cfb_id } });
    expect(await found(other, "quokka colony")).toEqual([kept.cfb_id]);
    // Its own words (dusk) no longer find it either.
    expect(await found(other, "dusk")).toEqual([]);

    await db.cfb.delete({ where: { id: kept.cfb_id } });
    expect(await found(other, "quokka colony")).toEqual([]);
    expect(other.cfbs.index.status().documents).toBe(await db.cfb.count({ where: { mergedIntoId: null } }));
  });

  it("drops a CFB another client retired, and takes it back when restored (through the log)", async () => {
    const cfb = await repos.cfbs.create(draft("Tapir enclosure", "The tapir enclosure is raked on Mondays."));
    expect(await found(other, "tapir enclosure")).toEqual([cfb.cfb_id]);
    const rebuilds = other.cfbs.index.status().rebuilds;

    const { cfb: retired } = await repos.cfbs.setRetired(cfb.cfb_id, 1, true, actor);
    expect(await found(other, "tapir enclosure")).toEqual([]);
    expect(await other.cfbs.index.candidatesByIds([cfb.cfb_id])).toEqual([]);
    expect(await other.cfbs.retrievable([cfb.cfb_id])).toEqual([]);

    await repos.cfbs.setRetired(cfb.cfb_id, retired.version, false, actor);
    expect(await found(other, "tapir enclosure")).toEqual([cfb.cfb_id]);
    expect(other.cfbs.index.status().rebuilds).toBe(rebuilds);
    expect(other.cfbs.index.status().documents).toBe(
      await db.cfb.count({ where: { mergedIntoId: null, retiredAt: null } }),
    );
  });

  it("writes no log entry for a usage-only update (lastAccessedAt), one for an indexed column", async () => {
    const cfb = await repos.cfbs.create(draft("Pangolin rota", "Who feeds the pangolin this week."));
    const before = await changeCount();
    await db.cfb.update({ where: { id: cfb.cfb_id }, data: { lastAccessedAt: new Date() } });
    await db.cfb.update({ where: { id: cfb.cfb_id }, data: { confidence: 0.5, ttlDays: 30 } });
    expect(await changeCount()).toBe(before);
    await db.cfb.update({ where: { id: cfb.cfb_id }, data: { summary: "Who feeds the pangolin this month." } });
    expect(await changeCount()).toBe(before + 1);
  });
});

describe("rebuilds", () => {
  // On SQLite the index reads on the writer's own connection, so it can apply a log entry that is
  // then rolled back, and the number may be reused: it must notice and rebuild. On PostgreSQL it
  // reads on another pooled connection, which never sees uncommitted rows, and a sequence never
  // gives a number twice: the same story ends with no rebuild at all.
  const sqlite = () => database.dialect === "sqlite";

  /** A CFB row written inside the caller's transaction (raw: the repositories open their own). */
  const insertRaw = (tx: TSql, id: string, title: string, summary: string) => {
    const now = new Date();
    return tx.execute(Prisma.sql`INSERT INTO "Cfb" ("id", "domain", "kind", "confidence", "title", "summary", "text",
        "tags", "entities", "trustTier", "sourceRefs", "version", "seq", "createdAt", "updatedAt")
      VALUES (${id}, 'ops', 'authoritative', 0.9, ${title}, ${summary}, NULL, '[]', '[]', 'user_approved', '[]', 1,
        ${Number(id.slice(4))}, ${now}, ${now})`);
  };

  it("rebuilds when the log entry it applied was rolled back and its number reused by another CFB", async () => {
    const survivor = await repos.cfbs.create(draft("Axolotl tank cleaning", "Clean the axolotl tank on Fridays."));
    await repos.cfbs.index.sync();
    const before = repos.cfbs.index.status();
    const [last] = await sqlDriverOf(db).query<{ seq: number }>(
      Prisma.sql`SELECT MAX("seq") AS "seq" FROM "CfbChange"`,
    );

    // The index syncs inside the transaction (the same connection sees its uncommitted rows, as a
    // concurrent request in this process would), then the transaction rolls back.
    await expect(
      sqlDriverOf(db).transaction(async (tx) => {
        await insertRaw(tx, "CFB-7777", "Phantom narwhal migration", "The narwhal pod migrates north.");
        expect(await found(repos, "narwhal pod")).toEqual(sqlite() ? ["CFB-7777"] : []);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    // A committed write to another CFB takes the same log number.
    await db.cfb.update({
      where: { id: survivor.cfb_id },
      data: { summary: "Clean the axolotl tank and check the narwhal filter." },
    });
    const [entry] = await sqlDriverOf(db).query<{ seq: number; cfbId: string }>(
      Prisma.sql`SELECT "seq", "cfbId" FROM "CfbChange" ORDER BY "seq" DESC LIMIT 1`,
    );
    expect(entry).toEqual({ seq: Number(last?.seq) + (sqlite() ? 1 : 2), cfbId: survivor.cfb_id });

    expect(await found(repos, "narwhal pod")).toEqual([survivor.cfb_id]);
    expect(await db.cfb.findUnique({ where: { id: "CFB-7777" } })).toBeNull();
    const after = repos.cfbs.index.status();
    expect(after.rebuilds).toBe(before.rebuilds + (sqlite() ? 1 : 0));
    expect(after.documents).toBe(await db.cfb.count({ where: { mergedIntoId: null } }));
  });

  it("rebuilds when a rolled-back edit's log number is reused by a committed edit of the same CFB", async () => {
    // The same seq and the same CFB id: only the entry's token tells the two writes apart.
    const cfb = await repos.cfbs.create(draft("Quokka census", "Count the quokka colony."));
    await repos.cfbs.index.sync();
    const before = repos.cfbs.index.status();
    await expect(
      sqlDriverOf(db).transaction(async (tx) => {
        await tx.execute(
          Prisma.sql`UPDATE "Cfb" SET "summary" = 'Count the wombat colony.' WHERE "id" = ${cfb.cfb_id}`,
        );
        expect(await found(repos, "wombat")).toEqual(sqlite() ? [cfb.cfb_id] : []);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    await db.cfb.update({ where: { id: cfb.cfb_id }, data: { summary: "Count the capybara colony." } });
    expect(await found(repos, "wombat")).toEqual([]);
    expect(await found(repos, "capybara colony")).toEqual([cfb.cfb_id]);
    expect(repos.cfbs.index.status().rebuilds).toBe(before.rebuilds + (sqlite() ? 1 : 0));
  });

  it("rebuilds when the log entry it applied was rolled back and nothing took its number", async () => {
    await repos.cfbs.index.sync();
    const before = repos.cfbs.index.status();
    await expect(
      sqlDriverOf(db).transaction(async (tx) => {
        await insertRaw(tx, "CFB-7778", "Phantom okapi census", "Count the okapi herd.");
        expect(await found(repos, "okapi herd")).toEqual(sqlite() ? ["CFB-7778"] : []);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await found(repos, "okapi herd")).toEqual([]);
    expect(repos.cfbs.index.status().rebuilds).toBe(before.rebuilds + (sqlite() ? 1 : 0));
  });

  it("applies an import of 2,000 CFBs entry by entry, and rebuilds for 2,001", async () => {
    await other.cfbs.index.sync();
    const start = other.cfbs.index.status();

    const batch = (word: string, n: number) =>
      Array.from({ length: n }, (_, i) => draft(`${word} note ${i}`, `About ${word} number n${i}x.`));
    const applied = await repos.cfbs.import(batch("gazelle", 2000));
    // "n1999x" is one term, held by one CFB of the batch.
    expect(await found(other, "n1999x")).toEqual([applied[1999]]);
    const mid = other.cfbs.index.status();
    expect(mid.rebuilds).toBe(start.rebuilds);
    expect(mid.appliedChanges).toBe(start.appliedChanges + 2000);

    const rebuilt = await repos.cfbs.import(batch("ibex", 2001));
    expect(await found(other, "n2000x")).toEqual([rebuilt[2000]]);
    const end = other.cfbs.index.status();
    expect(end.rebuilds).toBe(mid.rebuilds + 1);
    expect(end.appliedChanges).toBe(mid.appliedChanges);
    expect(end.documents).toBe(await db.cfb.count({ where: { mergedIntoId: null } }));
  });
});

describe("candidatesByIds", () => {
  it("keeps the order given and leaves out merged and unknown ids", async () => {
    const [a, b, c, m] = await repos.cfbs.import([
      draft("Alpha runbook", "First.", { tags: ["runbook"], entities: ["Alpha"] }),
      draft("Beta runbook", "Second."),
      draft("Gamma runbook", "Third."),
      draft("Merged runbook", "Fourth."),
    ]);
    await db.cfb.update({ where: { id: m as string }, data: { mergedIntoId: a as string } });
    const rows = await repos.cfbs.index.candidatesByIds([c, "CFB-999999", a, m, b] as string[]);
    expect(rows.map((r) => r.cfb_id)).toEqual([c, a, b]);
    expect(rows[1]).toEqual({
      cfb_id: a,
      title: "Alpha runbook",
      summary: "First.",
      tags: ["runbook"],
      entities: ["Alpha"],
    });
    expect(await repos.cfbs.index.candidatesByIds([])).toEqual([]);
  });
});

describe("an index built over a long history", () => {
  it("holds what a fresh index holds", async () => {
    // Everything above (creates, edits, merges, deletes, imports, a rollback) went through `other`'s
    // log; a client opened now builds from the table. Same answers, same documents.
    const fresh = await createPrismaClient(database.url);
    try {
      const freshRepos = createRepositories(fresh);
      for (const text of [
        "zanzibar warehouse quasar",
        "quokka dusk colony",
        "narwhal axolotl",
        "gazelle ibex runbook",
      ]) {
        const weighted = { terms: [...termSet(text)], weight: resolveWeight };
        expect(await other.cfbs.index.search(weighted, { limit: 50 }), text).toEqual(
          await freshRepos.cfbs.index.search(weighted, { limit: 50 }),
        );
      }
      expect(other.cfbs.index.status().documents).toBe(freshRepos.cfbs.index.status().documents);
    } finally {
      await fresh.$disconnect();
    }
  });
});

// ---------------------------------------------------------------------------------------------

describe("resolve's candidates among 20,000 CFBs", () => {
  // 20,000 imports on each database: ~20 s on a quiet 2-core machine, more beside other suites.
  it("finds the CFB sharing the most terms with a proposal, first, middle or last imported", {
    timeout: 120_000,
  }, async () => {
    const random = prng(7);
    // Made-up words that the analyser keeps as one term each, distinct after stemming.
    const SYLLABLES = ["ka", "lo", "mi", "ru", "te", "vo", "zan", "pel", "dor", "qui", "bex", "sho", "nat", "fir"];
    const vocabulary: string[] = [];
    const stems = new Set<string>();
    while (vocabulary.length < 2000) {
      const word = Array.from({ length: 3 }, () => SYLLABLES[Math.floor(random() * SYLLABLES.length)]).join("");
      const terms = [...termSet(word)];
      if (terms.length !== 1 || stems.has(terms[0] as string)) continue;
      stems.add(terms[0] as string);
      vocabulary.push(word);
    }
    // Skewed: the first words are held by thousands of CFBs, the last by a handful.
    const word = () => vocabulary[Math.floor(vocabulary.length * random() ** 2)] as string;
    const words = (n: number) => Array.from({ length: n }, word);
    const drafts = Array.from({ length: 20_000 }, () =>
      draft(words(3).join(" "), words(7).join(" "), { domain: random() < 0.5 ? "ops" : "data" }),
    );
    // Three targets, each restated by a proposal that adds words of its own: every word the
    // target holds is a common one (none finds it alone), and the proposal's added words are
    // held by other CFBs. The target shares the most terms with its proposal.
    const positions = [0, 10_000, 19_999];
    const proposals = positions.map((at, k) => {
      const held = vocabulary.slice(40 + k * 10, 48 + k * 10);
      drafts[at] = draft(held.slice(0, 3).join(" "), held.slice(3).join(" "), { domain: "security" });
      return [...held, ...vocabulary.slice(300 + k * 5, 303 + k * 5)].join(" ");
    });
    const ids = await repos.cfbs.import(drafts);

    // The ranking by definition, over the table: every live CFB's terms, each query term worth
    // resolveWeight(live CFBs, CFBs holding it), summed rarest term first as the index sums.
    const rows = await sqlDriverOf(db).query<{ id: string; seq: number; title: string; summary: string }>(
      Prisma.sql`SELECT "id", "seq", "title", "summary" FROM "Cfb" WHERE "mergedIntoId" IS NULL AND "seq" >= ${Number(ids[0]?.slice(4))}`,
    );
    expect(rows).toHaveLength(20_000);
    const live = await db.cfb.count({ where: { mergedIntoId: null } });
    const termsOf = rows.map((r) => ({ id: r.id, seq: Number(r.seq), terms: termSet(r.title, r.summary) }));

    for (const [k, text] of proposals.entries()) {
      const target = ids[positions[k] as number] as string;
      const q = [...termSet(text)];
      const df = new Map(q.map((t) => [t, 0]));
      // The older CFBs of this file hold none of these made-up words, so the 20,000 give every df.
      for (const doc of termsOf) for (const t of q) if (doc.terms.has(t)) df.set(t, (df.get(t) ?? 0) + 1);
      const order = [...q].sort((a, b) => (df.get(a) as number) - (df.get(b) as number));
      const ranked = termsOf
        .map((doc) => {
          let score = 0;
          let shared = 0;
          for (const t of order)
            if (doc.terms.has(t)) {
              score += resolveWeight(live, df.get(t) as number);
              shared += 1;
            }
          return { id: doc.id, seq: doc.seq, score, shared };
        })
        .filter((h) => h.shared > 0)
        .sort((a, b) => b.score - a.score || a.seq - b.seq);
      // What makes the case: the target is the one sharing the most terms, and no term is rare.
      const [best, second] = [...ranked].sort((a, b) => b.shared - a.shared);
      expect(best?.id, `proposal ${k}`).toBe(target);
      expect(second?.shared, `proposal ${k}`).toBeLessThan(best?.shared as number);
      expect(Math.min(...df.values()), `proposal ${k}`).toBeGreaterThan(20);

      const candidates = (await repos.cfbs.candidates({ terms: q }, { limit: 20 })).map((c) => c.cfb_id);
      expect(candidates[0], `proposal ${k}`).toBe(target);
      expect(candidates, `proposal ${k}`).toEqual(ranked.slice(0, 20).map((h) => h.id));
    }
  });
});
