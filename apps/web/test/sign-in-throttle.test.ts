// Sign-in without denial of service, over the auth route as Next runs it: an attacker's wrong
// passwords slow their own (account, address) pair, not the owner elsewhere; the delays grow;
// the account-wide cap holds against many addresses but not against the owner's known address;
// the owner is told once per window (audit); the client address is the socket's unless a trusted
// proxy forwards it; and no auth answer carries the session token in its body. The policy's
// numbers are the defaults (DEFAULT_SIGN_IN_POLICY); the server's clock is a test clock.
import { DEFAULT_SIGN_IN_POLICY } from "@solserver/control-plane";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PEER_ADDRESS_HEADER } from "@/server/peer-address";
import { BASE_URL, openWebServer, type THeaders, type TWebAccount, type TWebServer, trpcHttp } from "./helpers";

const POLICY = DEFAULT_SIGN_IN_POLICY;
const TRUSTED_PROXY = "10.99.0.1";

let web: TWebServer;
let clock = Date.now();
const tick = (seconds: number) => {
  clock += seconds * 1000;
};

beforeAll(async () => {
  web = await openWebServer("web-sign-in-throttle", { SOLSERVER_TRUSTED_PROXIES: TRUSTED_PROXY });
  web.deps.now = () => new Date(clock);
});
afterAll(async () => {
  await web?.close();
});

/** A request from this socket address, as the peer-address stamp writes it. */
const from = (address: string, more: THeaders = {}): THeaders => ({ [PEER_ADDRESS_HEADER]: address, ...more });

async function statusOf(res: Response): Promise<number> {
  await res.body?.cancel();
  return res.status;
}

async function failures(who: TWebAccount, address: string, n: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push(await statusOf(await web.signIn(who.email, `wrong-${i}`, from(address))));
  return statuses;
}

function throttledEvents(who: TWebAccount) {
  return web.db.auditEvent.findMany({
    where: { targetType: "user", targetId: who.userId, action: "user.sign_in_throttled" },
    orderBy: { createdAt: "asc" },
  });
}

describe("an attacker's wrong passwords", () => {
  it("from one address do not stop the owner signing in from another", async () => {
    const owner = await web.account("user", "owner");
    const attacker = "203.0.113.10";
    const free = POLICY.pair.freeFailures;
    expect(await failures(owner, attacker, free + 10)).toEqual([...Array(free).fill(401), ...Array(10).fill(429)]);
    // The owner, never having signed in before, from their own address: no wait, a session.
    const home = await web.signIn(owner.email, owner.password, from("198.51.100.20"));
    expect(home.status).toBe(200);
    expect(home.headers.getSetCookie().some((c) => c.startsWith("better-auth.session_token="))).toBe(true);
    // The attacker keeps trying (each time the delay allows): the owner is never refused.
    for (let round = 0; round < 4; round++) {
      tick(POLICY.pair.maxDelaySeconds);
      expect(await statusOf(await web.signIn(owner.email, "wrong-again", from(attacker)))).toBe(401);
      expect(await statusOf(await web.signIn(owner.email, "wrong-again", from(attacker)))).toBe(429);
      expect(await statusOf(await web.signIn(owner.email, owner.password, from("198.51.100.20")))).toBe(200);
    }
  });

  it("wait a delay that doubles with each further failure, up to the cap; a success clears it", async () => {
    const who = await web.account("user", "typist");
    const address = "203.0.113.20";
    await failures(who, address, POLICY.pair.freeFailures);
    const waits: number[] = [];
    for (let i = 0; i < 7; i++) {
      const refused = await web.signIn(who.email, who.password, from(address));
      expect(refused.status).toBe(429);
      expect(await refused.json()).toMatchObject({
        code: "TOO_MANY_REQUESTS",
        message: expect.stringMatching(/^too many failed sign-ins for this account from this address, retry in \d+ s$/),
      });
      const wait = Number(refused.headers.get("retry-after"));
      waits.push(wait);
      // One second short is still too early; then one more failure.
      tick(wait - 1);
      expect(await statusOf(await web.signIn(who.email, who.password, from(address)))).toBe(429);
      tick(1);
      expect(await statusOf(await web.signIn(who.email, "still-wrong", from(address)))).toBe(401);
    }
    expect(waits).toEqual([30, 60, 120, 240, 480, 900, 900]);
    tick(900);
    expect(await statusOf(await web.signIn(who.email, who.password, from(address)))).toBe(200);
    // The pair starts from zero again: the next typos are free.
    expect(await failures(who, address, POLICY.pair.freeFailures)).toEqual(Array(POLICY.pair.freeFailures).fill(401));
  });
});

describe("the account-wide cap against many addresses", () => {
  it("holds for new addresses (exactly the cap gets a verdict in a parallel burst), never for the owner's known address", async () => {
    const owner = await web.account("user", "sprayed");
    expect(await statusOf(await web.signIn(owner.email, owner.password, from("198.51.100.30")))).toBe(200);
    tick(1);
    const cap = POLICY.account.freeFailures;
    const burst = await Promise.all(
      Array.from({ length: cap + 10 }, (_, i) =>
        web.signIn(owner.email, `spray-${i}`, from(`192.0.2.${i + 1}`)).then(statusOf),
      ),
    );
    expect(burst.filter((s) => s === 401)).toHaveLength(cap);
    expect(burst.filter((s) => s === 429)).toHaveLength(10);
    // Another new address, even with the right password: wait.
    const fresh = await web.signIn(owner.email, owner.password, from("192.0.2.200"));
    expect(fresh.status).toBe(429);
    expect(await fresh.json()).toMatchObject({
      message: expect.stringMatching(
        /^too many failed sign-ins for this account from addresses it has not signed in from/,
      ),
    });
    expect(Number(fresh.headers.get("retry-after"))).toBe(POLICY.account.baseDelaySeconds);
    // The owner's usual address is not subject to it.
    expect(await statusOf(await web.signIn(owner.email, owner.password, from("198.51.100.30")))).toBe(200);

    // The owner is told once, with the first refused address, visible in /admin/audit.
    const events = await throttledEvents(owner);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ via: "system", actorUserId: null });
    expect(events[0]?.details).toMatchObject({ email: owner.email, scope: "account", failures: cap });
    const jam = await web.account("jam", "auditor");
    const listed = await trpcHttp(
      web,
      "audit.list",
      "query",
      { target_type: "user", target_id: owner.userId },
      await web.browser(jam),
    );
    expect(listed.status, listed.text).toBe(200);
    expect(JSON.stringify(listed.json)).toContain("user.sign_in_throttled");
  });
});

describe("the audit event", () => {
  it("is written once per window however many attempts are refused, and again in the next window", async () => {
    const owner = await web.account("user", "told");
    await failures(owner, "203.0.113.40", POLICY.pair.freeFailures + 5);
    await failures(owner, "203.0.113.41", POLICY.pair.freeFailures + 5);
    const first = await throttledEvents(owner);
    expect(first).toHaveLength(1);
    expect(first[0]?.details).toMatchObject({
      scope: "pair",
      address: "203.0.113.40",
      failures: POLICY.pair.freeFailures,
    });

    tick(POLICY.auditWindowMinutes * 60);
    await failures(owner, "203.0.113.40", 2);
    expect(await throttledEvents(owner)).toHaveLength(2);
  });

  it("is not written for an email without an account (nobody to tell), which is throttled the same", async () => {
    const before = await web.db.auditEvent.count();
    const statuses: number[] = [];
    for (let i = 0; i < POLICY.pair.freeFailures + 2; i++) {
      statuses.push(await statusOf(await web.signIn("nobody@web.test", `guess-${i}`, from("203.0.113.50"))));
    }
    expect(statuses).toEqual([...Array(POLICY.pair.freeFailures).fill(401), 429, 429]);
    expect(await web.db.auditEvent.count()).toBe(before);
  });
});

describe("the client's address", () => {
  it("is the socket's: X-Forwarded-For from a client is ignored", async () => {
    const who = await web.account("user", "spoofer-target");
    const statuses: number[] = [];
    for (let i = 0; i < POLICY.pair.freeFailures + 1; i++) {
      const res = await web.signIn(who.email, `wrong-${i}`, from("203.0.113.60", { "x-forwarded-for": `10.7.0.${i}` }));
      statuses.push(await statusOf(res));
    }
    expect(statuses.at(-1)).toBe(429);
  });

  it("behind a trusted proxy (SOLSERVER_TRUSTED_PROXIES) is the hop the proxy appended", async () => {
    const who = await web.account("user", "proxied");
    const viaProxy = (client: string) => from(TRUSTED_PROXY, { "x-forwarded-for": `6.6.6.6, ${client}` });
    for (let i = 0; i < POLICY.pair.freeFailures; i++) {
      expect(await statusOf(await web.signIn(who.email, `wrong-${i}`, viaProxy("203.0.113.70")))).toBe(401);
    }
    expect(await statusOf(await web.signIn(who.email, who.password, viaProxy("203.0.113.70")))).toBe(429);
    // Another client behind the same proxy is another pair.
    expect(await statusOf(await web.signIn(who.email, who.password, viaProxy("203.0.113.71")))).toBe(200);
    const keys = (await web.db.rateLimitBucket.findMany({ where: { key: { contains: "203.0.113.70" } } })).map(
      (b) => b.key,
    );
    expect(keys).toContain(`signin:pair:${who.email}|203.0.113.70`);
    expect(await web.db.rateLimitBucket.count({ where: { key: { contains: "6.6.6.6" } } })).toBe(0);
  });
});

describe("no session token in an auth answer's body", () => {
  /** Every key anywhere in a JSON value. */
  function keysOf(value: unknown): string[] {
    if (Array.isArray(value)) return value.flatMap(keysOf);
    if (value === null || typeof value !== "object") return [];
    return Object.entries(value).flatMap(([k, v]) => [k, ...keysOf(v)]);
  }

  it("sign-in: the user in the body, the token only in the HttpOnly cookie", async () => {
    const who = await web.account("user", "bodycheck");
    const res = await web.signIn(who.email, who.password, from("198.51.100.80"));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { user?: { email?: string } };
    expect(body.user?.email).toBe(who.email);
    expect(keysOf(body)).not.toContain("token");
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("better-auth.session_token="));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(res.headers.get("content-length")).toBeNull();
  });

  it("get-session and list-sessions: the session without its token", async () => {
    const who = await web.account("user", "sessions");
    const cookie = await web.sessionCookie(who);
    for (const path of ["get-session", "list-sessions"]) {
      const res = await web.routes.auth.GET(new Request(`${BASE_URL}/api/auth/${path}`, { headers: { cookie } }));
      expect(res.status, path).toBe(200);
      const body: unknown = await res.json();
      expect(JSON.stringify(body), path).toContain(who.userId);
      expect(keysOf(body), path).not.toContain("token");
    }
  });

  it("sign-up is off (no account, no token); API tokens still come back from tokens.create", async () => {
    const res = await web.routes.auth.POST(
      new Request(`${BASE_URL}/api/auth/sign-up/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: BASE_URL },
        body: JSON.stringify({ email: "new@web.test", password: "a-long-password", name: "New" }),
      }),
    );
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(keysOf(await res.json())).not.toContain("token");
    expect(await web.db.user.count({ where: { email: "new@web.test" } })).toBe(0);

    const jam = await web.account("jam", "issuer");
    const user = await web.account("user", "service");
    const created = await trpcHttp(
      web,
      "tokens.create",
      "mutation",
      { user_id: user.userId, name: "ci" },
      await web.browser(jam),
    );
    expect(created.status, created.text).toBe(200);
    expect(created.text).toMatch(/"token":"[A-Za-z0-9_-]{20,}"/);
  });
});
