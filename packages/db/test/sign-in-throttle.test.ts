// Sign-in throttle state: an attempt is counted only when the caller's rule allows it, in one
// statement (exact under a parallel burst), stale keys start again, and the owner is told once
// per window.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient, createRepositories, type DbClient, type TRepositories, type TThrottleRule } from "../src";
import { createTestDatabase, type TTestDatabase } from "../src/testing";

let database: TTestDatabase;
let db: DbClient;
let repos: TRepositories;

beforeAll(async () => {
  database = await createTestDatabase("sign-in-throttle");
  db = await createPrismaClient(database.url);
  repos = createRepositories(db);
});
afterAll(async () => {
  await db.$disconnect();
  database.cleanup();
});

const T0 = Date.UTC(2026, 0, 1);
const at = (s: number) => new Date(T0 + s * 1000);
const DAY_S = 86_400;

/** 2 free failures, then 10 s, 20 s, and 40 s from then on; keys forgotten after a day. */
function rule(nowS: number): TThrottleRule {
  return {
    now: at(nowS),
    forgetBefore: at(nowS - DAY_S),
    freeFailures: 2,
    lastAttemptAtMost: [at(nowS - 10), at(nowS - 20), at(nowS - 40)],
  };
}

describe("claim", () => {
  it("counts free failures, then only attempts that waited their growing delay", async () => {
    const claim = (s: number) => repos.signInThrottle.claim("k-delays", rule(s));
    expect(await claim(0)).toEqual({ claimed: true, failures: 1 });
    expect(await claim(1)).toEqual({ claimed: true, failures: 2 });
    // Two failures: 10 s after the last attempt (at 1 s).
    expect(await claim(10)).toEqual({ claimed: false, state: { failures: 2, lastAttempt: at(1) } });
    expect(await claim(11)).toEqual({ claimed: true, failures: 3 });
    expect((await claim(30)).claimed).toBe(false);
    expect(await claim(31)).toEqual({ claimed: true, failures: 4 });
    // Past the list, the last delay (40 s) holds.
    expect((await claim(70)).claimed).toBe(false);
    expect(await claim(71)).toEqual({ claimed: true, failures: 5 });
    expect((await claim(110)).claimed).toBe(false);
    expect(await claim(111)).toEqual({ claimed: true, failures: 6 });
  });

  it("a refused attempt changes nothing", async () => {
    const claim = (s: number) => repos.signInThrottle.claim("k-refused", rule(s));
    await claim(0);
    await claim(0);
    for (const s of [1, 2, 3, 9]) expect((await claim(s)).claimed).toBe(false);
    // Still measured from the last counted attempt (0 s), not from the refused ones.
    expect(await claim(10)).toEqual({ claimed: true, failures: 3 });
  });

  it("a parallel burst gets exactly the free failures", async () => {
    const results = await Promise.all(Array.from({ length: 20 }, () => repos.signInThrottle.claim("k-burst", rule(0))));
    expect(results.filter((r) => r.claimed)).toHaveLength(2);
    expect(await repos.signInThrottle.state("k-burst", at(-DAY_S))).toEqual({ failures: 2, lastAttempt: at(0) });
  });

  it("a key quiet for longer than the forget period starts from zero", async () => {
    const claim = (s: number) => repos.signInThrottle.claim("k-forget", rule(s));
    for (let i = 0; i < 5; i++) await claim(i * 100);
    expect((await claim(401)).claimed).toBe(false);
    expect(await claim(400 + DAY_S)).toEqual({ claimed: true, failures: 1 });
  });

  it("refund gives one attempt back and clear forgets the key", async () => {
    const claim = (s: number) => repos.signInThrottle.claim("k-refund", rule(s));
    await claim(0);
    await claim(0);
    expect((await claim(1)).claimed).toBe(false);
    await repos.signInThrottle.refund("k-refund");
    expect(await claim(1)).toEqual({ claimed: true, failures: 2 });
    await repos.signInThrottle.clear("k-refund");
    expect(await repos.signInThrottle.state("k-refund", at(-DAY_S))).toEqual({ failures: 0, lastAttempt: null });
  });
});

describe("known addresses", () => {
  it("are known from a success until the given horizon", async () => {
    await repos.signInThrottle.markKnown("known-a", at(0));
    expect(await repos.signInThrottle.isKnown("known-a", at(-1))).toBe(true);
    expect(await repos.signInThrottle.isKnown("known-a", at(0))).toBe(false);
    expect(await repos.signInThrottle.isKnown("known-b", at(-1))).toBe(false);
  });
});

describe("recordThrottled", () => {
  const details = { scope: "pair", address: "192.0.2.1" };

  it("writes one audit event per account per window, addressed to the account", async () => {
    const user = await db.user.create({ data: { id: "u-throttled", email: "owner@db.test", name: "Owner" } });
    const record = (s: number) =>
      repos.signInThrottle.recordThrottled("OWNER@db.test", {
        markerKey: "signin:audited:owner@db.test",
        now: at(s),
        windowMs: 3_600_000,
        details,
      });
    expect(await record(0)).toBe(true);
    expect(await record(60)).toBe(false);
    expect(await record(3599)).toBe(false);
    expect(await record(3600)).toBe(true);
    const events = await db.auditEvent.findMany({ where: { targetId: user.id }, orderBy: { createdAt: "asc" } });
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({
      action: "user.sign_in_throttled",
      targetType: "user",
      via: "system",
      actorUserId: null,
      details: { email: "owner@db.test", ...details },
    });
  });

  it("writes nothing for an email without an account", async () => {
    const before = await db.auditEvent.count();
    const written = await repos.signInThrottle.recordThrottled("nobody@db.test", {
      markerKey: "signin:audited:nobody@db.test",
      now: at(0),
      windowMs: 3_600_000,
      details,
    });
    expect(written).toBe(false);
    expect(await db.auditEvent.count()).toBe(before);
    expect(await db.rateLimitBucket.count({ where: { key: "signin:audited:nobody@db.test" } })).toBe(0);
  });
});
