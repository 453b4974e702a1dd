// CSRF and the Next middleware bypass, through the real route handlers: a session cookie is
// ambient (the browser attaches it to any site's request), so a cookie-authenticated write must
// come from our own origin (Origin, or Sec-Fetch-Site: same-origin when there is no Origin).
// Bearer tokens are not ambient and need neither. Access is decided inside each handler, so a
// forged `x-middleware-subrequest` header (CVE-2025-29927) opens nothing.

import { getProposal, me, respondToTurn } from "@solserver/control-plane";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BASE_URL,
  FOREIGN_ORIGIN,
  openWebServer,
  rest,
  restError,
  rowCounts,
  type THeaders,
  type TWebAccount,
  type TWebServer,
  trpcHttp,
  trpcHttpData,
  trpcHttpError,
} from "./helpers";

const BYPASS = { "x-middleware-subrequest": "middleware:middleware:middleware:middleware:middleware" };
const REFUSED = "cross-site request refused: send it from the dashboard's own origin";

let web: TWebServer;
let alice: TWebAccount;
let bob: TWebAccount;
/** Alice's session cookie alone: what a browser attaches to any request, whatever the page. */
let cookie: string;
let aliceToken: THeaders;
let bobTurn: { thread_id: string; response_id: string; proposal_id: string; title: string };
let counter = 0;

beforeAll(async () => {
  web = await openWebServer("web-csrf");
  alice = await web.account("user", "alice");
  bob = await web.account("user", "bob");
  const jam = await web.account("jam", "jam");
  cookie = await web.sessionCookie(alice);
  aliceToken = await web.bearer(jam, alice);
  const turn = await respondToTurn(web.as(bob.actor), {
    request_id: "csrf-bob-1",
    message: "We decided that the secret vault lives in Reykjavik.",
  });
  const preview = turn.ui_hints.proposal_previews[0];
  if (!preview) throw new Error("no proposal");
  bobTurn = { ...turn, proposal_id: preview.proposal_id, title: preview.title };
});

afterAll(async () => {
  await web?.close();
});

/** A turn the cookie holder sends: body for REST and tRPC alike. */
const turnInput = () => ({ request_id: `csrf-${++counter}`, message: "We decided to rotate keys monthly." });

type TWrite = { name: string; send: (h: THeaders) => ReturnType<typeof rest> };
const writes: TWrite[] = [
  { name: "tRPC chat.respond", send: (h) => trpcHttp(web, "chat.respond", "mutation", turnInput(), h) },
  { name: "REST POST /chat/respond", send: (h) => rest(web, "POST /chat/respond", { headers: h, body: turnInput() }) },
];

describe("cookie-authenticated writes", () => {
  const refused: { name: string; headers: () => THeaders }[] = [
    { name: "a foreign Origin", headers: () => ({ cookie, origin: FOREIGN_ORIGIN }) },
    { name: "Origin: null (sandboxed frame, data: URL)", headers: () => ({ cookie, origin: "null" }) },
    { name: "our host on another port", headers: () => ({ cookie, origin: "http://localhost:3001" }) },
    { name: "our host over another scheme", headers: () => ({ cookie, origin: "https://localhost:3000" }) },
    { name: "no Origin and no Sec-Fetch-Site", headers: () => ({ cookie }) },
    { name: "no Origin and Sec-Fetch-Site: cross-site", headers: () => ({ cookie, "sec-fetch-site": "cross-site" }) },
    { name: "no Origin and Sec-Fetch-Site: same-site", headers: () => ({ cookie, "sec-fetch-site": "same-site" }) },
    {
      name: "a foreign Origin claiming Sec-Fetch-Site: same-origin",
      headers: () => ({ cookie, origin: FOREIGN_ORIGIN, "sec-fetch-site": "same-origin" }),
    },
  ];

  for (const write of writes) {
    it.each(refused)(`${write.name} with $name -> 403, nothing written`, async ({ headers }) => {
      const before = await rowCounts(web.db);
      const result = await write.send(headers());
      expect(result.status).toBe(403);
      if (write.name.startsWith("tRPC")) {
        expect(trpcHttpError(result)).toMatchObject({ message: REFUSED, data: { code: "FORBIDDEN" } });
      } else {
        expect(restError(result)).toEqual({ code: "FORBIDDEN", message: REFUSED, field: null });
      }
      expect(await rowCounts(web.db)).toEqual(before);
    });

    const allowed: { name: string; headers: () => THeaders }[] = [
      {
        name: "Sec-Fetch-Site: same-origin and no Origin",
        headers: () => ({ cookie, "sec-fetch-site": "same-origin" }),
      },
      { name: "the dashboard's Origin", headers: () => ({ cookie, origin: BASE_URL }) },
      {
        name: "the 127.0.0.1 twin of the dashboard's Origin",
        headers: () => ({ cookie, origin: "http://127.0.0.1:3000" }),
      },
    ];
    it.each(allowed)(`${write.name} with $name -> 200, one turn stored as the cookie's owner`, async ({ headers }) => {
      const before = await rowCounts(web.db);
      const result = await write.send(headers());
      expect(result.status, result.text).toBe(200);
      const body = (write.name.startsWith("tRPC") ? trpcHttpData(result) : result.json) as { thread_id: string };
      const thread = await web.db.thread.findUniqueOrThrow({ where: { id: body.thread_id } });
      expect(thread.ownerId).toBe(alice.userId);
      expect((await rowCounts(web.db)).Packet).toBe(before.Packet + 1);
    });
  }

  it("a promotion from a foreign Origin is refused too, and the proposal stays pending", async () => {
    const own = await respondToTurn(web.as(alice.actor), {
      request_id: "csrf-own-1",
      message: "We decided to pin the base image by digest.",
    });
    const proposalId = own.ui_hints.proposal_previews[0]?.proposal_id;
    const input = { proposal_id: proposalId, action: "approve_create" };
    const viaRest = await rest(web, "POST /umbra/promote", {
      headers: { cookie, origin: FOREIGN_ORIGIN },
      body: input,
    });
    expect(viaRest.status).toBe(403);
    const viaTrpc = await trpcHttp(web, "promotion.promote", "mutation", input, { cookie });
    expect(viaTrpc.status).toBe(403);
    const proposal = await getProposal(web.as(alice.actor), { proposal_id: String(proposalId) });
    expect(proposal.status).toBe("pending");
    // From the dashboard it goes through.
    const ok = await rest(web, "POST /umbra/promote", { headers: { cookie, origin: BASE_URL }, body: input });
    expect(ok.status, ok.text).toBe(200);
  });

  it("a tRPC mutation cannot be smuggled in as a GET (which skips the Origin check)", async () => {
    const before = await rowCounts(web.db);
    const result = await trpcHttp(web, "chat.respond", "query", turnInput(), { cookie });
    expect(result.status).toBe(405);
    expect(await rowCounts(web.db)).toEqual(before);
  });
});

describe("reads and tokens", () => {
  it("a cookie GET without Origin (or from another origin) is allowed: reads change nothing", async () => {
    for (const headers of [{ cookie }, { cookie, origin: FOREIGN_ORIGIN }] as THeaders[]) {
      const query = await trpcHttp(web, "proposals.list", "query", { status: "all" }, headers);
      expect(query.status, query.text).toBe(200);
      const me = await trpcHttp(web, "me.get", "query", undefined, headers);
      expect(trpcHttpData(me)).toMatchObject({ email: alice.email, via: "cookie" });
      const listed = await rest(web, "GET /umbra/proposals", { headers, query: "?status=all" });
      expect(listed.status, listed.text).toBe(200);
    }
  });

  it("a Bearer-token POST needs no Origin (tokens are not ambient), nor does one from another origin", async () => {
    for (const extra of [{}, { origin: FOREIGN_ORIGIN }] as THeaders[]) {
      for (const write of writes) {
        const result = await write.send({ ...aliceToken, ...extra });
        expect(result.status, `${write.name} ${result.text}`).toBe(200);
      }
    }
  });

  it("a token wins over a cookie: a bad token with a good cookie is 401, not the cookie's account", async () => {
    for (const authorization of ["Bearer sol_not-a-real-token", "Bearer", "Basic YWxpY2U6cHc=", "sol_raw"]) {
      const result = await rest(web, "GET /umbra/proposals", { headers: { cookie, authorization } });
      expect(result.status, authorization).toBe(401);
      expect(restError(result).code).toBe("UNAUTHENTICATED");
    }
  });

  it("the session cookie is HttpOnly, SameSite=Lax and scoped to the whole site", async () => {
    const res = await web.signIn(alice.email, alice.password, { "x-forwarded-for": "10.0.0.2" });
    const session = res.headers.getSetCookie().find((c) => c.startsWith("better-auth.session_token="));
    expect(session).toBeDefined();
    const attributes = (session ?? "").split(";").map((a) => a.trim().toLowerCase());
    expect(attributes).toEqual(expect.arrayContaining(["httponly", "samesite=lax", "path=/"]));
    // http://localhost: no Secure flag, or the browser would drop it (https base URLs get one).
    expect(attributes).not.toContain("secure");
  });
});

describe("the x-middleware-subrequest bypass header opens nothing", () => {
  it("without credentials every route and procedure is still 401", async () => {
    const before = await rowCounts(web.db);
    const answers = [
      await rest(web, "POST /chat/respond", { headers: BYPASS, body: turnInput() }),
      await rest(web, "GET /umbra/proposals", { headers: BYPASS }),
      await rest(web, "POST /umbra/promote", {
        headers: BYPASS,
        body: { proposal_id: bobTurn.proposal_id, action: "reject" },
      }),
      await trpcHttp(web, "chat.respond", "mutation", turnInput(), { ...BYPASS, origin: BASE_URL }),
      await trpcHttp(web, "proposals.get", "query", { proposal_id: bobTurn.proposal_id }, BYPASS),
      await trpcHttp(web, "tokens.list", "query", undefined, BYPASS),
    ];
    for (const result of answers) {
      expect(result.status, result.text).toBe(401);
      expect(result.text).not.toContain(bobTurn.title);
      expect(result.text).not.toContain(bobTurn.thread_id);
    }
    expect(await rowCounts(web.db)).toEqual(before);
  });

  it("with a user's cookie, another user's resources and Jam-only procedures are still 403", async () => {
    const headers = { ...BYPASS, cookie, origin: BASE_URL };
    const before = await rowCounts(web.db);
    const answers = [
      await rest(web, "GET /umbra/proposals", { headers, query: `?response_id=${bobTurn.response_id}` }),
      await rest(web, "POST /umbra/promote", {
        headers,
        body: { proposal_id: bobTurn.proposal_id, action: "approve_create" },
      }),
      await rest(web, "POST /chat/respond", { headers, body: { ...turnInput(), thread_id: bobTurn.thread_id } }),
      await trpcHttp(web, "proposals.get", "query", { proposal_id: bobTurn.proposal_id }, headers),
      await trpcHttp(web, "threads.get", "query", { thread_id: bobTurn.thread_id }, headers),
      await trpcHttp(web, "tokens.list", "query", undefined, headers),
      await trpcHttp(web, "users.setRole", "mutation", { user_id: alice.userId, role: "jam" }, headers),
    ];
    for (const result of answers) {
      expect(result.status, result.text).toBe(403);
      expect(result.text).not.toContain(bobTurn.title);
      expect(result.text).not.toContain("Reykjavik");
      expect(result.text).not.toContain(bob.email);
    }
    expect(await rowCounts(web.db)).toEqual(before);
    expect((await me(web.as(alice.actor))).role).toBe("user");
  });
});

describe("better-auth's own endpoints", () => {
  const authPost = (path: string, body: unknown, headers: THeaders) =>
    web.routes.auth.POST(
      new Request(`${BASE_URL}/api/auth${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
      }),
    );

  it("a cookie-authenticated account change from a foreign Origin (or none) is 403 and changes nothing", async () => {
    const before = await web.db.user.findUniqueOrThrow({ where: { id: alice.userId } });
    const origins: THeaders[] = [{ origin: FOREIGN_ORIGIN }, {}];
    for (const origin of origins) {
      const res = await authPost("/update-user", { name: "Mallory" }, { cookie, ...origin });
      expect(res.status).toBe(403);
    }
    expect((await web.db.user.findUniqueOrThrow({ where: { id: alice.userId } })).name).toBe(before.name);
  });

  it("sign-in from a foreign Origin is refused (login CSRF) and sets no cookie", async () => {
    const res = await web.signIn(alice.email, alice.password, { origin: FOREIGN_ORIGIN });
    expect(res.status).toBe(403);
    expect(res.headers.getSetCookie()).toEqual([]);
  });
});

describe("REST asks who is calling before it reads the body", () => {
  it("an anonymous POST with a broken or oversized body is 401, not 400 or 413", async () => {
    const broken = await web.routes.chat.POST(
      new Request(`${BASE_URL}/chat/respond`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{",
      }),
    );
    expect(broken.status).toBe(401);
    const huge = await web.routes.chat.POST(
      new Request(`${BASE_URL}/chat/respond`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ message: "x".repeat(70_000) }),
      }),
    );
    expect(huge.status).toBe(401);
  });
});
