// API tokens: a Jam editor creates one for an account (the plaintext is in that answer only, the
// database keeps its sha256), a service sends it as `Authorization: Bearer …` to REST and tRPC
// and acts as that account with the account's current role; revoked tokens are nobody; users
// cannot manage tokens; every create and revoke is in the audit log under the Jam editor's email.
import { createHash, randomUUID } from "node:crypto";
import { isDomainError } from "@solserver/contracts";
import { createToken, listTokens, respondToTurn, revokeToken } from "@solserver/control-plane";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createInnerContext } from "@/server/trpc/init";
import { createCaller } from "@/server/trpc/root";
import {
  openWebServer,
  rest,
  restError,
  rowCounts,
  type THeaders,
  type TWebAccount,
  type TWebServer,
  trpcError,
  trpcHttp,
  trpcHttpData,
  trpcHttpError,
} from "./helpers";

let web: TWebServer;
let jam: TWebAccount;
let alice: TWebAccount;
let bob: TWebAccount;

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const callerAs = (who: TWebAccount) => createCaller(createInnerContext({ deps: web.deps, actor: who.actor }));
const bearer = (token: string): THeaders => ({ authorization: `Bearer ${token}` });

beforeAll(async () => {
  web = await openWebServer("web-tokens");
  jam = await web.account("jam", "jam");
  alice = await web.account("user", "alice");
  bob = await web.account("user", "bob");
});

afterAll(async () => {
  await web?.close();
});

describe("creating a token", () => {
  it("returns the plaintext once, starting with sol_, and stores only its sha256", async () => {
    const created = await callerAs(jam).tokens.create({ user_id: alice.userId, name: "ci pipeline" });
    expect(created.token).toMatch(/^sol_[A-Za-z0-9_-]{40,}$/);
    expect(created).toMatchObject({
      user_id: alice.userId,
      user_email: alice.email,
      name: "ci pipeline",
      prefix: created.token.slice(0, 12),
      last_used_ts: null,
      revoked_ts: null,
    });

    const row = await web.db.apiToken.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.tokenHash).toBe(sha256(created.token));
    expect(row.createdById).toBe(jam.userId);
    const secretPart = created.token.slice(created.prefix.length);
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(created.token);
    expect(stored).not.toContain(secretPart);
    const audit = JSON.stringify(await web.db.auditEvent.findMany());
    expect(audit).not.toContain(secretPart);

    // Listing shows the token's metadata, never the token.
    const listed = await callerAs(jam).tokens.list();
    const view = listed.items.find((t) => t.id === created.id);
    expect(view).toEqual({ ...created, token: undefined });
    expect(view).not.toHaveProperty("token");
    expect(JSON.stringify(listed)).not.toContain(secretPart);

    const second = await callerAs(jam).tokens.create({ user_id: alice.userId, name: "ci pipeline" });
    expect(second.token).not.toBe(created.token);
    expect(second.id).not.toBe(created.id);
  });

  it("is refused for an account that does not exist, and for a blank name", async () => {
    const before = await rowCounts(web.db);
    const missing = await trpcError(callerAs(jam).tokens.create({ user_id: "no-such-user", name: "x" }));
    expect(missing.code).toBe("NOT_FOUND");
    expect(missing.message).toBe("user no-such-user does not exist");
    const blank = await trpcError(callerAs(jam).tokens.create({ user_id: alice.userId, name: "   " }));
    expect(blank.code).toBe("BAD_REQUEST");
    expect(await rowCounts(web.db)).toEqual(before);
  });
});

describe("tokens for Jam editors", () => {
  it("one Jam editor cannot mint a token for another (it would act as them); for themself they can", async () => {
    const otherJam = await web.account("jam", "other-jam");
    const before = await web.db.apiToken.count();
    const refused = await createToken(web.as(jam.actor), { user_id: otherJam.userId, name: "act as other" }).then(
      () => null,
      (e: unknown) => e as { code?: string; message?: string },
    );
    expect(refused?.code).toBe("FORBIDDEN");
    expect(refused?.message).toBe("a token for a Jam editor can only be created by that editor");
    expect(await web.db.apiToken.count()).toBe(before);
    const own = await createToken(web.as(otherJam.actor), { user_id: otherJam.userId, name: "mine" });
    expect(own.token).toMatch(/^sol_/);
  });
});

describe("using a token", () => {
  let token: string;
  let tokenId: string;

  beforeAll(async () => {
    const created = await createToken(web.as(jam.actor), { user_id: alice.userId, name: "alice bot" });
    token = created.token;
    tokenId = created.id;
  });

  it("authenticates REST as its account, without Origin, and marks the token used", async () => {
    expect((await web.db.apiToken.findUniqueOrThrow({ where: { id: tokenId } })).lastUsedAt).toBeNull();
    const turn = await rest(web, "POST /chat/respond", {
      headers: bearer(token),
      body: { request_id: "tok-1", message: "We decided that bots open the release PRs." },
    });
    expect(turn.status, turn.text).toBe(200);
    const threadId = (turn.json as { thread_id: string }).thread_id;
    expect((await web.db.thread.findUniqueOrThrow({ where: { id: threadId } })).ownerId).toBe(alice.userId);
    const packet = await web.db.packet.findFirstOrThrow({ where: { requestId: "tok-1" } });
    expect(packet.callerId).toBe(alice.userId);

    const row = await web.db.apiToken.findUniqueOrThrow({ where: { id: tokenId } });
    expect(row.lastUsedAt).not.toBeNull();
    const view = (await listTokens(web.as(jam.actor))).items.find((t) => t.id === tokenId);
    expect(view?.last_used_ts).toBe(row.lastUsedAt?.toISOString());

    // The same account by cookie sees the turn the token made, and the replay is hers too.
    const cookie = await web.browser(alice);
    const queue = await rest(web, "GET /umbra/proposals", { headers: cookie, query: "?status=all" });
    const mine = (queue.json as { items: { thread_id: string }[] }).items.map((p) => p.thread_id);
    expect(mine).toContain(threadId);
    const replay = await rest(web, "POST /chat/respond", {
      headers: cookie,
      body: { request_id: "tok-1", message: "We decided that bots open the release PRs." },
    });
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
  });

  it("authenticates tRPC as its account, and the account's role applies", async () => {
    const me = await trpcHttp(web, "me.get", "query", undefined, bearer(token));
    expect(trpcHttpData(me)).toEqual({
      id: alice.userId,
      email: alice.email,
      name: expect.any(String),
      role: "user",
      via: "token",
    });
    const tokens = await trpcHttp(web, "tokens.list", "query", undefined, bearer(token));
    expect(tokens.status).toBe(403);
    expect(trpcHttpError(tokens).data.code).toBe("FORBIDDEN");

    // Bob's proposal is not Alice's, whatever the credential.
    const bobs = await respondToTurn(web.as(bob.actor), {
      request_id: "tok-bob-1",
      message: "We decided to archive the old CI logs.",
    });
    const proposalId = bobs.ui_hints.proposal_previews[0]?.proposal_id;
    const promote = await rest(web, "POST /umbra/promote", {
      headers: bearer(token),
      body: { proposal_id: proposalId, action: "reject" },
    });
    expect(promote.status).toBe(403);
    const get = await trpcHttp(web, "proposals.get", "query", { proposal_id: proposalId }, bearer(token));
    expect(get.status).toBe(403);
  });

  it("acts with the account's role as it is now: promoted to Jam, the same token manages tokens", async () => {
    await callerAs(jam).users.setRole({ user_id: alice.userId, role: "jam" });
    try {
      const listed = await trpcHttp(web, "tokens.list", "query", undefined, bearer(token));
      expect(listed.status, listed.text).toBe(200);
      expect(trpcHttpData<{ items: { id: string }[] }>(listed).items.map((t) => t.id)).toContain(tokenId);
    } finally {
      await callerAs(jam).users.setRole({ user_id: alice.userId, role: "user" });
    }
    expect((await trpcHttp(web, "tokens.list", "query", undefined, bearer(token))).status).toBe(403);
  });

  it("a token that is not one of ours is nobody: 401", async () => {
    const fakes = [
      `sol_${"A".repeat(43)}`,
      token.replace(/.$/, (c) => (c === "A" ? "B" : "A")),
      token.slice(4),
      `${token}x`.padEnd(260, "x"),
    ];
    for (const fake of fakes) {
      const result = await rest(web, "GET /umbra/proposals", { headers: bearer(fake) });
      expect(result.status).toBe(401);
      expect(restError(result).code).toBe("UNAUTHENTICATED");
      expect((await trpcHttp(web, "me.get", "query", undefined, bearer(fake))).status).toBe(401);
    }
  });
});

describe("users cannot manage tokens", () => {
  let existing: string;
  beforeAll(async () => {
    existing = (await createToken(web.as(jam.actor), { user_id: bob.userId, name: "bob bot" })).id;
  });

  it("tokens.create, tokens.list and tokens.revoke are FORBIDDEN for a user, and nothing changes", async () => {
    const before = await rowCounts(web.db);
    const caller = callerAs(alice);
    // Each call made when it is awaited: started together, a refusal could land before its await
    // and surface as an unhandled rejection.
    const calls = [
      () => caller.tokens.create({ user_id: alice.userId, name: "self-service" }),
      () => caller.tokens.list(),
      () => caller.tokens.revoke({ token_id: existing }),
    ];
    for (const call of calls) {
      const error = await trpcError(call());
      expect(error.code).toBe("FORBIDDEN");
      expect(error.message).not.toContain("bob");
    }
    expect(await rowCounts(web.db)).toEqual(before);
    expect((await web.db.apiToken.findUniqueOrThrow({ where: { id: existing } })).revokedAt).toBeNull();
  });

  it("the services refuse them too, not only the procedures' middleware", async () => {
    // (Anonymous is refused where the caller is narrowed, as the transports do: web.as.)
    const attempts: (() => Promise<unknown>)[] = [
      () => createToken(web.as(alice.actor), { user_id: alice.userId, name: "direct" }),
      () => listTokens(web.as(alice.actor)),
      () => revokeToken(web.as(alice.actor), { token_id: existing }),
      () => listTokens(web.as({ kind: "anonymous" })),
    ];
    const codes = [];
    for (const attempt of attempts) {
      const error = await Promise.resolve()
        .then(attempt)
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(isDomainError(error)).toBe(true);
      codes.push(isDomainError(error) ? error.code : null);
    }
    expect(codes).toEqual(["FORBIDDEN", "FORBIDDEN", "FORBIDDEN", "UNAUTHENTICATED"]);
  });

  it("nor over HTTP with a user's cookie or token", async () => {
    const cookie = await web.browser(alice);
    const token = await web.bearer(jam, alice);
    for (const headers of [cookie, token]) {
      const created = await trpcHttp(
        web,
        "tokens.create",
        "mutation",
        { user_id: alice.userId, name: "escalate" },
        headers,
      );
      expect(created.status).toBe(403);
      const revoked = await trpcHttp(web, "tokens.revoke", "mutation", { token_id: existing }, headers);
      expect(revoked.status).toBe(403);
    }
  });
});

describe("revoking a token", () => {
  it("makes it 401 at once, leaves the account's other tokens working, and a second revoke is CONFLICT", async () => {
    const doomed = await createToken(web.as(jam.actor), { user_id: bob.userId, name: "doomed" });
    const survivor = await createToken(web.as(jam.actor), { user_id: bob.userId, name: "survivor" });
    expect((await rest(web, "GET /umbra/proposals", { headers: bearer(doomed.token) })).status).toBe(200);

    const revoked = await callerAs(jam).tokens.revoke({ token_id: doomed.id });
    expect(revoked).toMatchObject({ id: doomed.id, user_id: bob.userId, revoked_ts: expect.any(String) });

    const rejected = await rest(web, "GET /umbra/proposals", { headers: bearer(doomed.token) });
    expect(rejected.status).toBe(401);
    expect(restError(rejected).code).toBe("UNAUTHENTICATED");
    const viaTrpc = await trpcHttp(web, "me.get", "query", undefined, bearer(doomed.token));
    expect(viaTrpc.status).toBe(401);
    const write = await rest(web, "POST /chat/respond", {
      headers: bearer(doomed.token),
      body: { request_id: "tok-revoked-1", message: "Still here?" },
    });
    expect(write.status).toBe(401);
    expect(await web.db.packet.count({ where: { requestId: "tok-revoked-1" } })).toBe(0);

    expect((await rest(web, "GET /umbra/proposals", { headers: bearer(survivor.token) })).status).toBe(200);

    const before = await rowCounts(web.db);
    const again = await trpcError(callerAs(jam).tokens.revoke({ token_id: doomed.id }));
    expect(again.code).toBe("CONFLICT");
    expect(again.message).toBe(`token ${doomed.id} was already revoked`);
    expect(await rowCounts(web.db)).toEqual(before);
    const row = await web.db.apiToken.findUniqueOrThrow({ where: { id: doomed.id } });
    expect(row.revokedAt?.toISOString()).toBe(revoked.revoked_ts);
  });

  it("an unknown token id is NOT_FOUND; a malformed one is BAD_REQUEST naming token_id", async () => {
    const unknown = randomUUID();
    const missing = await trpcError(callerAs(jam).tokens.revoke({ token_id: unknown }));
    expect(missing.code).toBe("NOT_FOUND");
    expect(missing.message).toBe(`token ${unknown} does not exist`);
    const malformed = await trpcError(callerAs(jam).tokens.revoke({ token_id: "sol_abc" }));
    expect(malformed.code).toBe("BAD_REQUEST");
  });
});

describe("the audit log", () => {
  it("records token.create and token.revoke with the Jam editor's email and how they signed in", async () => {
    const created = await callerAs(jam).tokens.create({ user_id: bob.userId, name: "audited" });
    await callerAs(jam).tokens.revoke({ token_id: created.id });
    const events = await callerAs(jam).audit.list({ target_type: "token", target_id: created.id });
    expect(events.items.map((e) => e.action)).toEqual(["token.revoke", "token.create"]);
    for (const e of events.items) {
      expect(e).toMatchObject({
        actor_email: jam.email,
        actor_user_id: jam.userId,
        via: "cookie",
        target_type: "token",
        target_id: created.id,
      });
    }
    expect(events.items[1]?.details).toEqual({ user_id: bob.userId, name: "audited", prefix: created.prefix });
    expect(events.items[0]?.details).toEqual({ prefix: created.prefix });
    expect(JSON.stringify(events)).not.toContain(created.token.slice(created.prefix.length));

    // A Jam editor acting through their own token is recorded as such.
    const jamToken = await createToken(web.as(jam.actor), { user_id: jam.userId, name: "jam cli" });
    const viaToken = await trpcHttp(
      web,
      "tokens.create",
      "mutation",
      { user_id: alice.userId, name: "made by cli" },
      bearer(jamToken.token),
    );
    expect(viaToken.status, viaToken.text).toBe(200);
    const madeId = trpcHttpData<{ id: string }>(viaToken).id;
    const cliEvents = await callerAs(jam).audit.list({ target_type: "token", target_id: madeId });
    expect(cliEvents.items).toEqual([
      expect.objectContaining({ action: "token.create", actor_email: jam.email, via: "token" }),
    ]);
    // The audit log itself is for Jam editors only.
    expect((await trpcError(callerAs(alice).audit.list({ target_type: "token" }))).code).toBe("FORBIDDEN");
  });
});
