// Lists order by the number in the id (`seq`), not the id's text: as text "CFB-10000" < "CFB-9999",
// so once ids outgrow their zero padding a text order would put CFB-10000 among the oldest. Rows
// written in one transaction share their creation time, so the number alone decides, and keyset
// pages (the cursor is the last id) must cross CFB-9999 / CFB-10000 with nothing repeated or lost.
// The same for the proposal queue across UP-9999 / UP-10000.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient, createRepositories, type DbClient, type TNewProposal, type TRepositories } from "../src";
import { sqlDriverOf } from "../src/client";
import { Prisma } from "../src/generated/prisma/client";
import { createTestDatabase, type TTestDatabase } from "../src/testing";

let database: TTestDatabase;
let db: DbClient;
let repos: TRepositories;

const TOTAL = 10_020;
const cfbId = (n: number) => `CFB-${String(n).padStart(4, "0")}`;

beforeAll(async () => {
  database = await createTestDatabase("id-order");
  db = await createPrismaClient(database.url);
  repos = createRepositories(db);
  const drafts = Array.from({ length: TOTAL }, (_, i) => ({
    domain: i % 2 === 0 ? "ops" : "data",
    kind: "authoritative" as const,
    confidence: 0.9,
    title: `Bulk block ${i + 1}`,
    summary: "Imported in one transaction.",
    text: null,
    tags: [],
    entities: [],
    trust_tier: "user_approved" as const,
    source_refs: [],
  }));
  const ids = await repos.cfbs.import(drafts);
  expect(ids[0]).toBe(cfbId(1));
  expect(ids.at(-1)).toBe(cfbId(TOTAL));
});
afterAll(async () => {
  await db.$disconnect();
  database.cleanup();
});

/** Every page of a listing, following next_cursor; the first page may have its own size. */
async function allPages(
  list: (cursor: string | undefined, first: boolean) => Promise<{ items: string[]; next_cursor: string | null }>,
): Promise<string[][]> {
  const pages: string[][] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await list(cursor, pages.length === 0);
    pages.push(page.items);
    if (page.next_cursor === null) return pages;
    expect(page.next_cursor).toBe(page.items.at(-1));
    cursor = page.next_cursor;
  }
}

describe("cfbs.list", () => {
  it("imported rows share one creation time (so only seq can order them)", async () => {
    const [row] = await sqlDriverOf(db).query<{ times: number; n: number }>(
      Prisma.sql`SELECT COUNT(DISTINCT "createdAt") AS "times", COUNT(*) AS "n" FROM "Cfb"`,
    );
    expect({ times: Number(row?.times), n: Number(row?.n) }).toEqual({ times: 1, n: TOTAL });
  });

  it("pages newest first in numeric order across CFB-9999 / CFB-10000, each CFB once", {
    timeout: 20_000,
  }, async () => {
    // A first page of 21 ends exactly on CFB-10000; the next one must start at CFB-9999.
    const pages = await allPages(async (cursor, first) => {
      const page = await repos.cfbs.list({ cursor, limit: first ? 21 : 997 });
      return { items: page.items.map((c) => c.cfb_id), next_cursor: page.next_cursor };
    });
    expect(pages[0]?.at(-1)).toBe("CFB-10000");
    expect(pages[1]?.[0]).toBe("CFB-9999");
    const all = pages.flat();
    expect(all).toHaveLength(TOTAL);
    expect(new Set(all).size).toBe(TOTAL);
    expect(all).toEqual(Array.from({ length: TOTAL }, (_, i) => cfbId(TOTAL - i)));
  });

  it("does the same with a domain filter and with a text query", async () => {
    const ops = (
      await allPages(async (cursor) => {
        const page = await repos.cfbs.list({ domain: "ops", cursor, limit: 500 });
        return { items: page.items.map((c) => c.cfb_id), next_cursor: page.next_cursor };
      })
    ).flat();
    // Odd numbers are "ops" (draft i is CFB-(i+1)).
    const odd = Array.from({ length: TOTAL }, (_, i) => TOTAL - i).filter((n) => n % 2 === 1);
    expect(ops).toEqual(odd.map(cfbId));

    const searched = (
      await allPages(async (cursor) => {
        const page = await repos.cfbs.list({ query: "bulk block", cursor, limit: 333 });
        return { items: page.items.map((c) => c.cfb_id), next_cursor: page.next_cursor };
      })
    ).flat();
    expect(searched).toEqual(Array.from({ length: TOTAL }, (_, i) => cfbId(TOTAL - i)));
  });

  it("starts after the cursor even when it names CFB-10000 or CFB-9999", async () => {
    const after10000 = await repos.cfbs.list({ cursor: "CFB-10000", limit: 2 });
    expect(after10000.items.map((c) => c.cfb_id)).toEqual(["CFB-9999", "CFB-9998"]);
    const after10001 = await repos.cfbs.list({ cursor: "CFB-10001", limit: 2 });
    expect(after10001.items.map((c) => c.cfb_id)).toEqual(["CFB-10000", "CFB-9999"]);
  });
});

describe("proposals.list", () => {
  const COUNT = 24;

  beforeAll(async () => {
    // Ids UP-9991 .. UP-10014: one turn stores them all, with one creation time.
    await sqlDriverOf(db).execute(
      Prisma.sql`INSERT INTO "IdSequence" ("name", "value") VALUES ('proposal', 9990)
        ON CONFLICT ("name") DO UPDATE SET "value" = 9990`,
    );
    const proposals: TNewProposal[] = Array.from({ length: COUNT }, (_, i) => ({
      suggestionIndex: i,
      op: "create",
      targetCfbId: null,
      title: `Proposal ${i}`,
      deltaSummary: "A proposal of the bulk turn.",
      proposedCfb: { title: `Proposal ${i}`, summary: "Bulk.", text: null, tags: [], entities: [], domain: "ops" },
      rationale: null,
      confidence: 0.7,
      fingerprint: `fp-${i}`,
      warnings: [],
    }));
    const stored = await repos.turns.record({
      callerId: "test",
      ownerId: null,
      mayWriteAnyThread: true,
      requestId: "bulk-turn",
      requestHash: "hash",
      threadId: "thread-bulk",
      threadTitle: "Bulk",
      userMessageId: "message-bulk",
      message: "Propose many things.",
      historyMessageIds: [],
      modeLabel: "System",
      routerDomain: "ops",
      model: "test-model",
      tokensIn: null,
      tokensOut: null,
      latencyMs: 1,
      assistantText: "Here they are.",
      meta: {
        modeLabel: "System",
        domainHints: [],
        used_cfb_ids: [],
        ignored_cfb_ids: [],
        assumptions: [],
        unknowns: [],
        missing_cfb_queries: [],
        cfb_suggestions: [],
      },
      proposals,
      usage: { used: [], ignored: [] },
      trace: [],
      attempts: [
        { n: 1, model: "test-model", tokensIn: null, tokensOut: null, latencyMs: 1, outcome: "ok", reason: null },
      ],
      gate: [],
      memento: null,
    });
    if (stored === "duplicate") throw new Error("the bulk turn was stored twice");
    expect(stored.proposals.map((p) => p.proposal_id)).toEqual(
      Array.from({ length: COUNT }, (_, i) => `UP-${9991 + i}`),
    );
  });

  const upIds = (from: number, to: number) => {
    const out: string[] = [];
    for (let n = from; from <= to ? n <= to : n >= to; n += from <= to ? 1 : -1) out.push(`UP-${n}`);
    return out;
  };
  const pagesOf = (sort: "newest" | "oldest" | "confidence", limit: number) =>
    allPages(async (cursor) => {
      const page = await repos.proposals.list({ status: "pending", sort, cursor, limit });
      return { items: page.items.map((p) => p.proposal_id), next_cursor: page.next_cursor };
    });

  it("newest first and by confidence (all equal) go UP-10014 .. UP-10000, UP-9999 .. UP-9991", async () => {
    const [row] = await sqlDriverOf(db).query<{ times: number }>(
      Prisma.sql`SELECT COUNT(DISTINCT "createdAt") AS "times" FROM "UmbraProposal"`,
    );
    expect(Number(row?.times)).toBe(1);
    // Pages of 5: UP-10000 ends the third page, UP-9999 opens the fourth.
    const newest = await pagesOf("newest", 5);
    expect(newest[2]?.at(-1)).toBe("UP-10000");
    expect(newest[3]?.[0]).toBe("UP-9999");
    expect(newest.flat()).toEqual(upIds(10014, 9991));
    expect((await pagesOf("confidence", 7)).flat()).toEqual(upIds(10014, 9991));
  });

  it("oldest first goes UP-9991 .. UP-9999, UP-10000 .. UP-10014", async () => {
    const oldest = await pagesOf("oldest", 9);
    expect(oldest[0]?.at(-1)).toBe("UP-9999");
    expect(oldest[1]?.[0]).toBe("UP-10000");
    expect(oldest.flat()).toEqual(upIds(9991, 10014));
  });
});
