// Leases on background work one process does for all (the embedding backfill): taken when free or
// expired, renewed by the holder only, given back only by the holder. Runs on PostgreSQL too.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient, createRepositories, type DbClient, type TRepositories } from "../src";
import { createTestDatabase, type TTestDatabase } from "../src/testing";

let database: TTestDatabase;
let db: DbClient;
let repos: TRepositories;

beforeAll(async () => {
  database = await createTestDatabase("work-leases");
  db = await createPrismaClient(database.url);
  repos = createRepositories(db);
});
afterAll(async () => {
  await db.$disconnect();
  database.cleanup();
});

const at = (s: number) => new Date(Date.UTC(2026, 0, 1) + s * 1000);

describe("work leases", () => {
  it("one holder at a time: renewed by it, taken over only once expired, given back only by it", async () => {
    const { acquire, release } = repos.workLeases;
    expect(await acquire("backfill", "a", at(0), at(60))).toBe(true);
    expect(await acquire("backfill", "b", at(30), at(90))).toBe(false);
    // the holder renews
    expect(await acquire("backfill", "a", at(50), at(110))).toBe(true);
    expect(await acquire("backfill", "b", at(100), at(160))).toBe(false);
    // expired: another takes it over, and the old holder cannot renew it
    expect(await acquire("backfill", "b", at(111), at(171))).toBe(true);
    expect(await acquire("backfill", "a", at(112), at(172))).toBe(false);
    // only the holder gives it back
    await release("backfill", "a");
    expect(await acquire("backfill", "c", at(113), at(173))).toBe(false);
    await release("backfill", "b");
    expect(await acquire("backfill", "c", at(114), at(174))).toBe(true);
    expect(await repos.workLeases.holder("backfill")).toEqual({ owner: "c", expiresAt: at(174) });
    expect(await repos.workLeases.holder("nobody took it")).toBeNull();
    // leases of other names are their own
    expect(await acquire("other", "a", at(114), at(174))).toBe(true);
  });
});
