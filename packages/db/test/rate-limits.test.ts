// Fixed-window rate-limit buckets: counting, the limit, window restart and Retry-After.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient, createRepositories, type DbClient, type TRepositories } from "../src";
import { createTestDatabase, type TTestDatabase } from "../src/testing";

let database: TTestDatabase;
let db: DbClient;
let repos: TRepositories;

beforeAll(async () => {
  database = await createTestDatabase("rate-limits");
  db = await createPrismaClient(database.url);
  repos = createRepositories(db);
});
afterAll(async () => {
  await db.$disconnect();
  database.cleanup();
});

const WINDOW = 60_000;
const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms);

describe("hitRateLimit", () => {
  it("allows up to max hits in a window, then refuses with the seconds left", async () => {
    const opts = (ms: number) => ({ windowMs: WINDOW, max: 3, now: at(ms) });
    const decisions = [];
    for (const ms of [0, 1_000, 2_000, 3_000]) decisions.push(await repos.rateLimits.hit("k1", opts(ms)));
    expect(decisions.map((d) => [d.allowed, d.count])).toEqual([
      [true, 1],
      [true, 2],
      [true, 3],
      [false, 4],
    ]);
    // The window opened at 0 ms, so 57 s remain at 3 s.
    expect(decisions[3]?.retryAfterSeconds).toBe(57);
  });

  it("starts a new window once the old one has passed", async () => {
    const opts = (ms: number) => ({ windowMs: WINDOW, max: 1, now: at(ms) });
    expect((await repos.rateLimits.hit("k2", opts(0))).allowed).toBe(true);
    expect((await repos.rateLimits.hit("k2", opts(59_000))).allowed).toBe(false);
    const fresh = await repos.rateLimits.hit("k2", opts(60_000));
    expect(fresh).toMatchObject({ allowed: true, count: 1 });
  });

  it("keeps keys apart, and peek does not count", async () => {
    const opts = { windowMs: WINDOW, max: 2, now: at(0) };
    await repos.rateLimits.hit("a", opts);
    await repos.rateLimits.hit("a", opts);
    expect((await repos.rateLimits.peek("a", opts)).allowed).toBe(false);
    expect((await repos.rateLimits.peek("b", opts)).allowed).toBe(true);
    expect((await repos.rateLimits.peek("b", opts)).count).toBe(0);
    await repos.rateLimits.clear("a");
    expect((await repos.rateLimits.peek("a", opts)).allowed).toBe(true);
  });

  it("counts concurrent hits exactly", async () => {
    const opts = { windowMs: WINDOW, max: 100, now: at(0) };
    const results = await Promise.all(Array.from({ length: 20 }, () => repos.rateLimits.hit("burst", opts)));
    expect(results.map((r) => r.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });
});
