// The sign-in policy: the backoff table, the rule the database applies, and the guard at service
// level with a clock of its own (forgetting, known addresses and their expiry, the account-wide
// cap, refusals that count nothing). Over HTTP: apps/web/test/sign-in-throttle.test.ts.
import { DomainError } from "@solserver/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  backoffDelaySeconds,
  backoffRule,
  backoffVerdict,
  DEFAULT_SIGN_IN_POLICY,
  reserveSignIn,
  signInSucceeded,
  type TBackoff,
  type TSignInPolicy,
} from "../src";
import { openTestControlPlane } from "../src/testing";

const B: TBackoff = { freeFailures: 3, baseDelaySeconds: 30, maxDelaySeconds: 300 };

describe("backoff", () => {
  it("is free for the free failures, then doubles from the base up to the cap", () => {
    const delays = Array.from({ length: 10 }, (_, failures) => backoffDelaySeconds(failures, B));
    expect(delays).toEqual([0, 0, 0, 30, 60, 120, 240, 300, 300, 300]);
    // No overflow for absurd counts.
    expect(backoffDelaySeconds(10_000, B)).toBe(300);
  });

  it("the defaults: 5 free per pair, 20 per address, 50 per account from new addresses; 30 s doubling to 15 min", () => {
    expect(DEFAULT_SIGN_IN_POLICY).toEqual({
      pair: { freeFailures: 5, baseDelaySeconds: 30, maxDelaySeconds: 900 },
      address: { freeFailures: 20, baseDelaySeconds: 30, maxDelaySeconds: 900 },
      account: { freeFailures: 50, baseDelaySeconds: 30, maxDelaySeconds: 900 },
      forgetAfterHours: 24,
      knownAddressDays: 30,
      auditWindowMinutes: 60,
    });
  });

  it("a verdict waits from the last attempt and rounds the wait up to whole seconds", () => {
    const last = new Date(Date.UTC(2026, 0, 1));
    const after = (ms: number) => new Date(last.getTime() + ms);
    expect(backoffVerdict({ failures: 2, lastAttempt: last }, B, last)).toEqual({ allowed: true });
    expect(backoffVerdict({ failures: 3, lastAttempt: last }, B, after(100))).toEqual({
      allowed: false,
      retryAfterSeconds: 30,
    });
    expect(backoffVerdict({ failures: 4, lastAttempt: last }, B, after(59_001))).toEqual({
      allowed: false,
      retryAfterSeconds: 1,
    });
    expect(backoffVerdict({ failures: 4, lastAttempt: last }, B, after(60_000))).toEqual({ allowed: true });
    expect(backoffVerdict({ failures: 0, lastAttempt: null }, B, last)).toEqual({ allowed: true });
  });

  it("the rule lists the latest allowed last attempt per count, up to the cap", () => {
    const now = new Date(Date.UTC(2026, 0, 1, 12));
    const forgetBefore = new Date(now.getTime() - 1000);
    const rule = backoffRule(B, now, forgetBefore);
    expect(rule.freeFailures).toBe(3);
    expect(rule.lastAttemptAtMost.map((d) => (now.getTime() - d.getTime()) / 1000)).toEqual([30, 60, 120, 240, 300]);
    // A cap beyond 2^31 doublings still ends the list; a zero base is one entry.
    expect(
      backoffRule({ freeFailures: 1, baseDelaySeconds: 1, maxDelaySeconds: 1e12 }, now, now).lastAttemptAtMost,
    ).toHaveLength(32);
    expect(backoffRule({ ...B, baseDelaySeconds: 0 }, now, now).lastAttemptAtMost).toHaveLength(1);
  });
});

describe("the sign-in guard (service level, own clock)", () => {
  const policy: TSignInPolicy = {
    pair: { freeFailures: 2, baseDelaySeconds: 10, maxDelaySeconds: 40 },
    address: { freeFailures: 6, baseDelaySeconds: 10, maxDelaySeconds: 40 },
    account: { freeFailures: 4, baseDelaySeconds: 10, maxDelaySeconds: 40 },
    forgetAfterHours: 1,
    knownAddressDays: 2,
    auditWindowMinutes: 30,
  };
  let cp: Awaited<ReturnType<typeof openTestControlPlane>>;
  let clock = Date.UTC(2026, 0, 1);
  const tick = (seconds: number) => {
    clock += seconds * 1000;
  };

  beforeAll(async () => {
    cp = await openTestControlPlane({ label: "sign-in-guard", limits: { signIn: policy } });
    cp.deps.now = () => new Date(clock);
  });
  afterAll(async () => {
    await cp?.close();
  });

  /** A failed attempt (reserved, never settled); the refusal's error when the guard refuses. */
  async function fail(email: string, address: string): Promise<DomainError | null> {
    return reserveSignIn(cp.deps, email, address).then(
      () => null,
      (e: unknown) => {
        if (e instanceof DomainError) return e;
        throw e;
      },
    );
  }
  async function succeed(email: string, address: string): Promise<void> {
    await signInSucceeded(cp.deps, await reserveSignIn(cp.deps, email, address));
  }

  it("a pair's failures are forgotten after a quiet hour, and a success clears them at once", async () => {
    const email = "forget@guard.test";
    expect(await fail(email, "192.0.2.1")).toBeNull();
    expect(await fail(email, "192.0.2.1")).toBeNull();
    expect(await fail(email, "192.0.2.1")).toMatchObject({ code: "RATE_LIMITED", retryAfterSeconds: 10 });
    tick(3600);
    expect(await fail(email, "192.0.2.1")).toBeNull();
    tick(1);
    expect(await fail(email, "192.0.2.1")).toBeNull();
    tick(10);
    await succeed(email, "192.0.2.1");
    expect(await fail(email, "192.0.2.1")).toBeNull();
    expect(await fail(email, "192.0.2.1")).toBeNull();
  });

  it("the account-wide cap slows new addresses but never an address the account signed in from", async () => {
    const owner = await cp.account("user", "owner@guard.test");
    await succeed(owner.email, "198.51.100.1");
    tick(1);
    for (let i = 1; i <= policy.account.freeFailures; i++) expect(await fail(owner.email, `203.0.113.${i}`)).toBeNull();
    const refused = await fail(owner.email, "203.0.113.99");
    expect(refused).toMatchObject({ code: "RATE_LIMITED", retryAfterSeconds: 10 });
    expect(refused?.message).toMatch(
      /^too many failed sign-ins for this account from addresses it has not signed in from/,
    );
    // The owner's address: not subject to the account-wide count.
    await succeed(owner.email, "198.51.100.1");
    expect(await fail(owner.email, "198.51.100.1")).toBeNull();
    // One event told the owner, however many refusals there were.
    expect(await fail(owner.email, "203.0.113.98")).not.toBeNull();
    const events = await cp.db.auditEvent.findMany({ where: { targetId: owner.userId } });
    expect(events.map((e) => e.action)).toEqual(["user.sign_in_throttled"]);
    expect(events[0]?.details).toMatchObject({ scope: "account", address: "203.0.113.99", failures: 4 });

    // Known for `knownAddressDays` only: after that, the owner's address is a new one again.
    tick(2 * 86_400 + 1);
    for (let i = 1; i <= policy.account.freeFailures; i++) expect(await fail(owner.email, `203.0.113.${i}`)).toBeNull();
    expect(await fail(owner.email, "198.51.100.1")).toMatchObject({ code: "RATE_LIMITED" });
  });

  it("a refused attempt counts against none of the keys", async () => {
    const email = "refused@guard.test";
    const attacker = "192.0.2.50";
    await fail(email, attacker);
    await fail(email, attacker);
    for (let i = 0; i < 10; i++) expect(await fail(email, attacker)).not.toBeNull();
    const buckets = await cp.db.rateLimitBucket.findMany({ where: { key: { contains: attacker } } });
    expect(Object.fromEntries(buckets.map((b) => [b.key.split(":")[1], b.count]))).toEqual({ pair: 2, address: 2 });
  });
});
