// Rate limits and size limits: failed sign-ins per account-and-address pair and per address (the
// auth route answers 429 with Retry-After before the password is checked; the whole policy is in
// sign-in-throttle.test.ts), chat turns per account per minute (service level with `limits`, and
// over HTTP with SOLSERVER_CHAT_TURNS_PER_MINUTE set before the server singleton opens), request
// bodies over 64 KiB (413) and chat messages over 8000 characters (400).
import {
  DEFAULT_SIGN_IN_POLICY,
  openControlPlane,
  requireSignedIn,
  respondToTurn,
  type TActor,
  type TServiceDeps,
} from "@solserver/control-plane";
import type { DbClient } from "@solserver/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PEER_ADDRESS_HEADER } from "@/server/peer-address";
import { createInnerContext } from "@/server/trpc/init";
import { createCaller } from "@/server/trpc/root";
import {
  BASE_URL,
  clientShape,
  openWebServer,
  rest,
  restError,
  rowCounts,
  type THeaders,
  type THttpResult,
  type TWebAccount,
  type TWebServer,
  trpcError,
  trpcHttp,
  trpcHttpError,
} from "./helpers";

const CHAT_LIMIT = 3;
const PAIR_FREE_FAILURES = DEFAULT_SIGN_IN_POLICY.pair.freeFailures;
const ADDRESS_FREE_FAILURES = DEFAULT_SIGN_IN_POLICY.address.freeFailures;
const FIRST_DELAY_SECONDS = DEFAULT_SIGN_IN_POLICY.pair.baseDelaySeconds;

let web: TWebServer;
/** The same database, opened the way a service-level test opens it: with its own limits. */
let limited: { deps: TServiceDeps; db: DbClient };
/** A service context on `limited` for this actor. */
const limitedAs = (actor: TActor) => ({ deps: limited.deps, caller: requireSignedIn(actor) });
let counter = 0;
const nextId = () => `rl-${++counter}`;

beforeAll(async () => {
  web = await openWebServer("web-rate-limits", { SOLSERVER_CHAT_TURNS_PER_MINUTE: String(CHAT_LIMIT) });
  limited = await openControlPlane({ databaseUrl: web.database.url, limits: { chatTurnsPerMinute: CHAT_LIMIT } });
});

afterAll(async () => {
  await limited?.db.$disconnect();
  await web?.close();
});

/** A Retry-After header: whole seconds, at least 1, at most `max`. */
function expectRetryAfter(value: string | null, max: number) {
  expect(value).toMatch(/^\d+$/);
  expect(Number(value)).toBeGreaterThanOrEqual(1);
  expect(Number(value)).toBeLessThanOrEqual(max);
}

describe("sign-in failures", () => {
  // The socket's address, as the peer-address stamp writes it (X-Forwarded-For is not believed).
  const ip = (n: string) => ({ [PEER_ADDRESS_HEADER]: n });

  async function sessions(who: TWebAccount) {
    return web.db.session.count({ where: { userId: who.userId } });
  }

  // Policy change (issue 20): failures used to block the account from every address; now they
  // slow the account-and-address pair that made them. More in sign-in-throttle.test.ts.
  it("5 wrong passwords for one account from one address: the 6th attempt there, even with the right password, is 429", async () => {
    const victim = await web.account("user", "victim");
    for (let i = 1; i <= PAIR_FREE_FAILURES; i++) {
      // Case does not matter: one account.
      const email = i % 2 ? victim.email : victim.email.toUpperCase();
      const res = await web.signIn(email, `wrong-password-${i}`, ip("10.1.0.1"));
      expect(res.status, `attempt ${i}`).toBe(401);
    }
    const sessionsBefore = await sessions(victim);
    const res = await web.signIn(victim.email, victim.password, ip("10.1.0.1"));
    expect(res.status).toBe(429);
    expectRetryAfter(res.headers.get("retry-after"), FIRST_DELAY_SECONDS);
    expect(await res.json()).toMatchObject({
      code: "TOO_MANY_REQUESTS",
      message: expect.stringMatching(/^too many failed sign-ins for this account from this address, retry in \d+ s$/),
    });
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(await sessions(victim)).toBe(sessionsBefore);

    // Another account from that same address is not affected, nor the account from elsewhere.
    const other = await web.account("user", "bystander");
    expect((await web.signIn(other.email, other.password, ip("10.1.0.1"))).status).toBe(200);
    expect((await web.signIn(victim.email, victim.password, ip("10.1.0.99"))).status).toBe(200);
  });

  it("failures across different emails from one address: that address gets 429, another still works", async () => {
    const target = await web.account("user", "target");
    const attacker = "10.2.0.7";
    for (let i = 1; i <= ADDRESS_FREE_FAILURES; i++) {
      const res = await web.signIn(`nobody-${i}@web.test`, "not-the-password", ip(attacker));
      expect(res.status, `attempt ${i}`).toBe(401);
    }
    const blocked = await web.signIn(target.email, target.password, ip(attacker));
    expect(blocked.status).toBe(429);
    expectRetryAfter(blocked.headers.get("retry-after"), FIRST_DELAY_SECONDS);
    expect(blocked.headers.getSetCookie()).toEqual([]);
    expect(await blocked.json()).toMatchObject({
      message: expect.stringMatching(/^too many failed sign-ins from this address/),
    });
    // Policy change (issue 20): X-Forwarded-For from a client is not believed, so writing another
    // address there does not dodge the count (it used to be the client's address).
    const spoofed = await web.signIn(target.email, target.password, { ...ip(attacker), "x-forwarded-for": "10.2.0.9" });
    expect(spoofed.status).toBe(429);

    // The account itself had no failures: from another address it signs in.
    const elsewhere = await web.signIn(target.email, target.password, ip("10.2.0.8"));
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.headers.getSetCookie().some((c) => c.startsWith("better-auth.session_token="))).toBe(true);
  });

  // Policy change (issue 20): the burst is against one account from one address (the pair);
  // from many addresses the account-wide cap is far higher (sign-in-throttle.test.ts).
  it("a parallel burst of wrong passwords cannot get past the limit", async () => {
    const burstTarget = await web.account("user", "burst");
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => web.signIn(burstTarget.email, `wrong-${i}`, ip("10.4.1.1"))),
    );
    const statuses = results.map((r) => r.status);
    // Attempts are counted before the password is checked: exactly the free failures get a verdict.
    expect(statuses.filter((s) => s === 401)).toHaveLength(PAIR_FREE_FAILURES);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20 - PAIR_FREE_FAILURES);
  });

  it("successful sign-ins do not count", async () => {
    const regular = await web.account("user", "regular");
    for (let i = 0; i < PAIR_FREE_FAILURES + 3; i++) {
      expect((await web.signIn(regular.email, regular.password, ip("10.3.0.1"))).status).toBe(200);
    }
  });

  it("fewer failures than the limit leave the account usable", async () => {
    const careless = await web.account("user", "careless");
    for (let i = 1; i < PAIR_FREE_FAILURES; i++) {
      expect((await web.signIn(careless.email, "typo-password", ip("10.4.0.1"))).status).toBe(401);
    }
    expect((await web.signIn(careless.email, careless.password, ip("10.4.0.1"))).status).toBe(200);
  });

  it("a sign-in body over 8 KiB is 413 and counts nothing", async () => {
    const res = await web.routes.auth.POST(
      new Request(`${BASE_URL}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: BASE_URL, ...ip("10.5.0.1") },
        body: JSON.stringify({ email: "x@web.test", password: "p".repeat(9000) }),
      }),
    );
    expect(res.status).toBe(413);
    expect(await web.db.rateLimitBucket.count({ where: { key: { contains: "10.5.0.1" } } })).toBe(0);
  });
});

describe("chat turns per account per minute (service level)", () => {
  const message = (n: string) => `We decided to number the rate-limit runbooks: ${n}.`;

  it(`the turn after ${CHAT_LIMIT} in a minute is TOO_MANY_REQUESTS with a retry delay; another account still works`, async () => {
    const who = await web.account("user", "chatty");
    const ctx = createInnerContext({ deps: limited.deps, actor: who.actor });
    const caller = createCaller(ctx);
    const first = { request_id: nextId(), message: message("first") };
    await caller.chat.respond(first);
    for (let i = 1; i < CHAT_LIMIT; i++) await caller.chat.respond({ request_id: nextId(), message: message(`${i}`) });

    const before = await rowCounts(web.db);
    const error = await trpcError(caller.chat.respond({ request_id: nextId(), message: message("over") }));
    expect(error.code).toBe("TOO_MANY_REQUESTS");
    expect(error.message).toMatch(/^too many chat turns: at most 3 per minute, retry in \d+ s$/);
    const data = clientShape(ctx, error, "chat.respond").data;
    expect(data).toMatchObject({ httpStatus: 429, domainCode: "RATE_LIMITED" });
    expect(data.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(data.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(await rowCounts(web.db)).toEqual(before);

    // A retry of a stored turn is still answered: replays are free.
    expect((await caller.chat.respond(first)).replayed).toBe(true);
    // The budget is the account's own.
    const other = await web.account("user", "quiet");
    const otherTurn = await respondToTurn(limitedAs(other.actor), { request_id: nextId(), message: "Hi" });
    expect(otherTurn.replayed).toBe(false);
  });

  it("replays, conflicts and refused turns do not count against the budget", async () => {
    const who = await web.account("user", "retrier");
    const bob = await web.account("user", "owner");
    const bobTurn = await respondToTurn(limitedAs(bob.actor), { request_id: nextId(), message: "Hello" });
    const caller = createCaller(createInnerContext({ deps: limited.deps, actor: who.actor }));
    const first = { request_id: nextId(), message: message("a") };
    await caller.chat.respond(first);
    await caller.chat.respond({ request_id: nextId(), message: message("b") });
    for (let i = 0; i < CHAT_LIMIT + 2; i++) {
      expect((await caller.chat.respond(first)).replayed).toBe(true);
      expect((await trpcError(caller.chat.respond({ ...first, message: message("changed") }))).code).toBe("CONFLICT");
      const intrusion = caller.chat.respond({ request_id: nextId(), thread_id: bobTurn.thread_id, message: "Hi" });
      expect((await trpcError(intrusion)).code).toBe("FORBIDDEN");
    }
    // Only two turns were charged: the third still fits, the fourth does not.
    expect((await caller.chat.respond({ request_id: nextId(), message: message("c") })).replayed).toBe(false);
    const over = await trpcError(caller.chat.respond({ request_id: nextId(), message: message("d") }));
    expect(over.code).toBe("TOO_MANY_REQUESTS");
  });
  it("parallel turns are counted one by one: exactly the budget gets through", async () => {
    const who = await web.account("user", "burst");
    const before = await rowCounts(web.db);
    const results = await Promise.allSettled(
      Array.from({ length: CHAT_LIMIT + 4 }, (_, i) =>
        respondToTurn(limitedAs(who.actor), { request_id: nextId(), message: message(`burst ${i}`) }),
      ),
    );
    const refused = results.flatMap((r) => (r.status === "rejected" ? [r.reason] : []));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(CHAT_LIMIT);
    expect(refused).toHaveLength(4);
    for (const reason of refused) expect(reason).toMatchObject({ code: "RATE_LIMITED" });
    expect((await rowCounts(web.db)).Packet).toBe(before.Packet + CHAT_LIMIT);
  });
});

describe("chat turns per account per minute (HTTP, SOLSERVER_CHAT_TURNS_PER_MINUTE=3)", () => {
  it("REST: the 4th turn is 429 RATE_LIMITED with Retry-After; a replayed request_id does not count", async () => {
    const who = await web.account("user", "rest-chatty");
    const headers = await web.browser(who);
    const first = { request_id: nextId(), message: "We decided to cap turns." };
    const sent: THttpResult[] = [await rest(web, "POST /chat/respond", { headers, body: first })];
    for (let i = 1; i < CHAT_LIMIT; i++) {
      // A replay between the turns: answered, not counted.
      const replay = await rest(web, "POST /chat/respond", { headers, body: first });
      expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
      sent.push(await rest(web, "POST /chat/respond", { headers, body: { request_id: nextId(), message: `T${i}` } }));
    }
    for (const result of sent) expect(result.status, result.text).toBe(200);

    const before = await rowCounts(web.db);
    const over = await rest(web, "POST /chat/respond", { headers, body: { request_id: nextId(), message: "Over" } });
    expect(over.status).toBe(429);
    expectRetryAfter(over.headers.get("retry-after"), 60);
    expect(restError(over)).toEqual({
      code: "RATE_LIMITED",
      message: expect.stringMatching(/^too many chat turns: at most 3 per minute/),
      field: null,
    });
    expect(over.headers.get("Idempotent-Replayed")).toBeNull();
    expect(await rowCounts(web.db)).toEqual(before);
    // Still replayed after the limit.
    const replay = await rest(web, "POST /chat/respond", { headers, body: first });
    expect(replay.status).toBe(200);
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
  });

  it("tRPC: the 4th turn is 429 TOO_MANY_REQUESTS with Retry-After, whichever credential the account uses", async () => {
    const who = await web.account("user", "trpc-chatty");
    const jam = await web.account("jam", "jam");
    const cookie = await web.browser(who);
    const token = await web.bearer(jam, who);
    const credentials: THeaders[] = [cookie, token, cookie];
    for (const [i, headers] of credentials.entries()) {
      const ok = await trpcHttp(web, "chat.respond", "mutation", { request_id: nextId(), message: `M${i}` }, headers);
      expect(ok.status, ok.text).toBe(200);
    }
    for (const headers of [token, cookie]) {
      const over = await trpcHttp(web, "chat.respond", "mutation", { request_id: nextId(), message: "Over" }, headers);
      expect(over.status).toBe(429);
      expectRetryAfter(over.headers.get("retry-after"), 60);
      expect(trpcHttpError(over).data).toMatchObject({ code: "TOO_MANY_REQUESTS", domainCode: "RATE_LIMITED" });
    }
    // Reads are not turns.
    expect((await trpcHttp(web, "proposals.list", "query", {}, token)).status).toBe(200);
  });
});

describe("input size limits", () => {
  let headers: THeaders;
  beforeAll(async () => {
    headers = await web.browser(await web.account("user", "sizes"));
  });

  const oversized = () => JSON.stringify({ request_id: nextId(), message: "x".repeat(70 * 1024) });

  it("a REST POST over 64 KiB is 413 PAYLOAD_TOO_LARGE naming body, and nothing is written", async () => {
    const before = await rowCounts(web.db);
    for (const route of ["POST /chat/respond", "POST /umbra/promote"] as const) {
      const result = await rest(web, route, { headers, body: oversized() });
      expect(result.status, route).toBe(413);
      expect(restError(result)).toEqual({
        code: "PAYLOAD_TOO_LARGE",
        message: "body: must be at most 65536 bytes",
        field: "body",
      });
    }
    expect(await rowCounts(web.db)).toEqual(before);
  });

  it("a chunked REST body (no Content-Length) is cut off once it passes 64 KiB", async () => {
    const chunk = new TextEncoder().encode(`"${"y".repeat(1022)}",`);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent++;
        if (sent > 200) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const res = await web.routes.chat.POST(
      new Request(`${BASE_URL}/chat/respond`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body,
        duplex: "half",
      } as RequestInit),
    );
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: { code: "PAYLOAD_TOO_LARGE", field: "body" } });
    // The reader stopped soon after the limit instead of draining all 200 KiB.
    expect(sent).toBeLessThan(200);
  });

  it("a tRPC POST over 64 KiB is 413", async () => {
    const before = await rowCounts(web.db);
    const result = await trpcHttp(web, "chat.respond", "mutation", oversized(), headers);
    expect(result.status).toBe(413);
    expect(trpcHttpError(result)).toMatchObject({
      message: "body: must be at most 65536 bytes",
      data: { code: "PAYLOAD_TOO_LARGE", httpStatus: 413 },
    });
    expect(await rowCounts(web.db)).toEqual(before);
  });

  it("a chat message over 8000 characters (in a body under 64 KiB) is 400 naming message", async () => {
    const before = await rowCounts(web.db);
    const body = { request_id: nextId(), message: "z".repeat(8001) };
    const viaRest = await rest(web, "POST /chat/respond", { headers, body });
    expect(viaRest.status).toBe(400);
    expect(restError(viaRest)).toEqual({
      code: "BAD_INPUT",
      message: "message: must be at most 8000 characters",
      field: "message",
    });
    const viaTrpc = await trpcHttp(web, "chat.respond", "mutation", body, headers);
    expect(viaTrpc.status).toBe(400);
    expect(trpcHttpError(viaTrpc)).toMatchObject({
      message: "message: must be at most 8000 characters",
      data: { code: "BAD_REQUEST", field: "message" },
    });
    expect(await rowCounts(web.db)).toEqual(before);
    // 8000 characters exactly is accepted.
    const atLimit = await rest(web, "POST /chat/respond", {
      headers,
      body: { request_id: nextId(), message: "z".repeat(8000) },
    });
    expect(atLimit.status, atLimit.text).toBe(200);
  });
});
