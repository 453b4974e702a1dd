// The REST façade (seed 001 §3) through the Next route handlers with real Request/Response
// objects, as a signed-in browser (a real better-auth session cookie from the sign-in route, sent
// with the dashboard's Origin) would call it. The server keeps one control plane per process on
// globalThis, opened from the environment on first use, so this file points DATABASE_URL at its
// own temp database before importing the routes and shares that database across its tests.
import type { DbClient } from "@solserver/db";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  only,
  openWebServer,
  rowCounts,
  type THeaders,
  type TWebAccount,
  type TWebServer,
  trpcHttp,
  trpcHttpData,
  trpcHttpError,
} from "./helpers";

let web: TWebServer;
let db: DbClient;
/** Alice's browser: her session cookie and the dashboard's Origin. */
let asAlice: THeaders;
let asBob: THeaders;
let aliceId: string;
let alice: TWebAccount;

beforeAll(async () => {
  web = await openWebServer("web-rest");
  db = web.db;
  alice = await web.account("user", "alice");
  const bob = await web.account("user", "bob");
  aliceId = alice.userId;
  asAlice = await web.browser(alice);
  asBob = await web.browser(bob);
});

afterAll(async () => {
  await web?.close();
});

// The dashboard's 127.0.0.1 twin: trusted as well as SOLSERVER_BASE_URL's own origin.
const ORIGIN = "http://127.0.0.1:3000";

function postJson(path: string, body: unknown, headers: THeaders = asAlice): Request {
  return new Request(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers, origin: ORIGIN },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function respond(body: unknown, headers: THeaders = asAlice) {
  const res = await web.routes.chat.POST(postJson("/chat/respond", body, headers));
  return { res, json: (await res.json()) as Record<string, unknown> };
}

async function listProposals(query: string, headers: THeaders = asAlice) {
  const res = await web.routes.proposals.GET(new Request(`${ORIGIN}/umbra/proposals${query}`, { headers }));
  return { res, json: (await res.json()) as { items: { proposal_id: string; status: string; response_id: string }[] } };
}

async function promote(body: unknown, headers: THeaders = asAlice) {
  const res = await web.routes.promote.POST(postJson("/umbra/promote", body, headers));
  return { res, json: (await res.json()) as Record<string, unknown> };
}

type TTurnBody = {
  response_id: string;
  ui_hints: { has_proposals: boolean; proposal_previews: { proposal_id: string }[] };
};

/** A successful turn whose message yields exactly one proposal. */
async function turnWithProposal(requestId: string, message: string, headers: THeaders = asAlice) {
  const { res, json } = await respond({ request_id: requestId, message }, headers);
  expect(res.status).toBe(200);
  const body = json as unknown as TTurnBody;
  return { responseId: body.response_id, proposalId: only(body.ui_hints.proposal_previews).proposal_id };
}

describe("POST /chat/respond", () => {
  it("answers 200 with the seed's response shape and replays a retried request_id", async () => {
    const input = { request_id: "rest-turn-1", message: "We decided to use Postgres for the analytics store." };
    const first = await respond(input);
    expect(first.res.status).toBe(200);
    expect(first.res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(first.res.headers.get("Idempotent-Replayed")).toBe("false");
    expect(first.json).toMatchObject({
      packet_id: expect.stringMatching(/^P-\d+$/),
      transmission_id: expect.stringMatching(/^T-\d+$/),
      attempt_id: expect.stringMatching(/^A-\d+$/),
      response_id: expect.stringMatching(/^R-\d+$/),
      assistant_text: expect.stringContaining("Use Postgres for the analytics store"),
      replayed: false,
      ui_hints: {
        has_proposals: true,
        proposal_previews: [
          {
            proposal_id: expect.stringMatching(/^UP-\d+$/),
            op: "create",
            target_cfb_id: null,
            title: "Use Postgres for the analytics store",
            delta_summary: "Use Postgres for the analytics store.",
            confidence: 0.8,
          },
        ],
      },
    });
    // The full stored meta is not exposed with the answer (seed §3.1).
    expect(first.json).not.toHaveProperty("meta");

    const before = await rowCounts(db);
    const retry = await respond(input);
    expect(retry.res.status).toBe(200);
    expect(retry.res.headers.get("Idempotent-Replayed")).toBe("true");
    expect(retry.json).toEqual({ ...first.json, replayed: true });
    expect(await rowCounts(db)).toEqual(before);
  });

  it("a reused request_id with another message is 409 naming request_id", async () => {
    await respond({ request_id: "rest-turn-2", message: "Remember that the VPN closes at 8pm." });
    const before = await rowCounts(db);
    const { res, json } = await respond({ request_id: "rest-turn-2", message: "Remember that the VPN closes at 9pm." });
    expect(res.status).toBe(409);
    expect(json).toMatchObject({ error: { code: "CONFLICT", field: "request_id" } });
    expect(await rowCounts(db)).toEqual(before);
  });

  const badBodies: { name: string; req: () => Request; message: string | RegExp; field: string | null }[] = [
    {
      name: "a body that is not JSON",
      req: () => postJson("/chat/respond", "{ not json"),
      message: "body: must be valid JSON",
      field: "body",
    },
    {
      name: "a missing message",
      req: () => postJson("/chat/respond", { request_id: "rest-bad-3" }),
      message: /^message: /,
      field: "message",
    },
    {
      name: "an empty message",
      req: () => postJson("/chat/respond", { request_id: "rest-bad-4", message: "" }),
      message: "message: must not be empty",
      field: "message",
    },
    {
      name: "an unknown key",
      req: () => postJson("/chat/respond", { request_id: "rest-bad-5", message: "We decided on extras.", mode: "x" }),
      message: "mode: is not a known field",
      field: "mode",
    },
    {
      name: "a JSON null body",
      req: () => postJson("/chat/respond", "null"),
      message: /^\(input\): /,
      field: null,
    },
  ];

  // Not sent as application/json: 415 (issue 20), the same message and field as before.
  const notJson: typeof badBodies = [
    {
      name: "a text/plain content type",
      req: () =>
        new Request(`${ORIGIN}/chat/respond`, {
          method: "POST",
          headers: { ...asAlice, "content-type": "text/plain" },
          body: JSON.stringify({ request_id: "rest-bad-1", message: "We decided on plain text." }),
        }),
      message: "body: Content-Type must be application/json",
      field: "body",
    },
    {
      name: "no content type at all",
      req: () =>
        new Request(`${ORIGIN}/chat/respond`, {
          method: "POST",
          headers: asAlice,
          body: new Blob([JSON.stringify({ request_id: "rest-bad-2", message: "We decided on blobs." })]),
        }),
      message: "body: Content-Type must be application/json",
      field: "body",
    },
  ];

  it.each(notJson)("$name -> 415 UNSUPPORTED_MEDIA_TYPE, nothing written", async ({ req, message, field }) => {
    const before = await rowCounts(db);
    const res = await web.routes.chat.POST(req());
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({ error: { code: "UNSUPPORTED_MEDIA_TYPE", message, field } });
    expect(await rowCounts(db)).toEqual(before);
  });

  it.each(badBodies)("$name -> 400 BAD_INPUT, nothing written", async ({ req, message, field }) => {
    const before = await rowCounts(db);
    const res = await web.routes.chat.POST(req());
    expect(res.status).toBe(400);
    const json = (await res.json()) as { error: { code: string; message: string; field: string | null } };
    expect(json.error.code).toBe("BAD_INPUT");
    expect(json.error.field).toBe(field);
    if (typeof message === "string") expect(json.error.message).toBe(message);
    else expect(json.error.message).toMatch(message);
    expect(res.headers.get("Idempotent-Replayed")).toBeNull();
    expect(await rowCounts(db)).toEqual(before);
  });
});

describe("GET /umbra/proposals", () => {
  let turn: { responseId: string; proposalId: string };

  beforeAll(async () => {
    turn = await turnWithProposal("rest-list-1", "From now on, every service exposes a health endpoint.");
  });

  it("lists the proposals of a response, whatever their status", async () => {
    const pending = await listProposals(`?response_id=${turn.responseId}`);
    expect(pending.res.status).toBe(200);
    expect(pending.json.items).toEqual([
      expect.objectContaining({ proposal_id: turn.proposalId, response_id: turn.responseId, status: "pending" }),
    ]);

    const decided = await promote({ proposal_id: turn.proposalId, action: "reject" });
    expect(decided.res.status).toBe(200);

    // status defaults to "all" for a response lookup: the rejected proposal is still listed ...
    const after = await listProposals(`?response_id=${turn.responseId}`);
    expect(after.json.items).toEqual([expect.objectContaining({ proposal_id: turn.proposalId, status: "rejected" })]);
    // ... while the default queue (no response_id) is the pending one.
    const queue = await listProposals("");
    expect(queue.res.status).toBe(200);
    expect(queue.json.items.map((p) => p.proposal_id)).not.toContain(turn.proposalId);
    expect(queue.json.items.every((p) => p.status === "pending")).toBe(true);
    // An explicit status still narrows a response lookup.
    const onlyPending = await listProposals(`?response_id=${turn.responseId}&status=pending`);
    expect(onlyPending.json.items).toEqual([]);
  });

  it("every proposal carries what the caller may do, and so does the chat answer's preview", async () => {
    const { res, json } = await respond({
      request_id: "rest-actions-1",
      message: "We decided to rotate the database passwords every quarter.",
    });
    expect(res.status).toBe(200);
    const body = json as unknown as { response_id: string; ui_hints: { proposal_previews: { actions: unknown }[] } };
    const expected = {
      allowed: ["approve_create", "reject"],
      primary: "approve_create",
      update: null,
      protection: null,
      held: [],
      covered_by: null,
      edit: null,
      unavailable: [
        expect.objectContaining({ action: "approve_update", code: "BAD_INPUT" }),
        { action: "edit_then_approve", code: "FORBIDDEN", reason: "only Jam editors may edit_then_approve" },
      ],
      basis: "stored",
    };
    expect(only(body.ui_hints.proposal_previews).actions).toEqual(expected);
    const listed = await listProposals(`?response_id=${body.response_id}`);
    expect(listed.res.status).toBe(200);
    expect((only(listed.json.items) as unknown as { actions: unknown }).actions).toEqual(expected);
  });

  it("a response that does not exist is 404, not an empty list", async () => {
    const { res, json } = await listProposals("?response_id=R-9999");
    expect(res.status).toBe(404);
    expect(json).toEqual({
      error: { code: "NOT_FOUND", message: "response R-9999 does not exist", field: "response_id" },
    });
  });

  it("coerces limit from the query string", async () => {
    await turnWithProposal("rest-list-2", "We decided to tag every release in git.");
    const { res, json } = await listProposals("?status=all&limit=1");
    expect(res.status).toBe(200);
    expect(json.items).toHaveLength(1);
  });

  const badQueries: { query: string; field: string | null; message: RegExp }[] = [
    { query: "?limit=abc", field: "limit", message: /^limit: / },
    { query: "?limit=0", field: "limit", message: /^limit: / },
    { query: "?limit=101", field: "limit", message: /^limit: / },
    { query: "?status=maybe", field: "status", message: /^status: / },
    { query: "?response_id=9", field: "response_id", message: /^response_id: must be a response id like R-0001$/ },
    { query: "?order=newest", field: "order", message: /^order: is not a known field$/ },
    { query: "?sort=random", field: "sort", message: /^sort: / },
    { query: "?min_confidence=2", field: "min_confidence", message: /^min_confidence: / },
  ];

  it.each(badQueries)("$query -> 400 naming the parameter", async ({ query, field, message }) => {
    const { res, json } = await listProposals(query);
    expect(res.status).toBe(400);
    expect(json).toMatchObject({ error: { code: "BAD_INPUT", field } });
    expect((json as unknown as { error: { message: string } }).error.message).toMatch(message);
  });
});

describe("POST /umbra/promote", () => {
  it("approve_create answers 200 with the new CFB; a second promotion is 409 and writes nothing", async () => {
    const turn = await turnWithProposal("rest-promote-1", "We decided to run backups every six hours.");
    const first = await promote({
      proposal_id: turn.proposalId,
      response_id: turn.responseId,
      action: "approve_create",
    });
    expect(first.res.status).toBe(200);
    expect(first.json).toMatchObject({
      proposal_id: turn.proposalId,
      action: "approve_create",
      status: "approved",
      final_cfb_id: expect.stringMatching(/^CFB-\d{4}$/),
      cfb: { trust_tier: "user_approved", source_refs: expect.arrayContaining([`proposal:${turn.proposalId}`]) },
    });

    const before = await rowCounts(db);
    for (const action of ["approve_create", "reject"]) {
      const again = await promote({ proposal_id: turn.proposalId, action });
      expect(again.res.status).toBe(409);
      expect(again.json).toEqual({
        error: {
          code: "CONFLICT",
          field: "proposal_id",
          message: expect.stringMatching(
            new RegExp(`^proposal ${turn.proposalId} was already approved by \\S+@\\S+ at .* UTC as CFB-\\d{4}`),
          ),
        },
      });
    }
    expect(await rowCounts(db)).toEqual(before);
  });

  it("an unknown action is 400 naming action", async () => {
    const turn = await turnWithProposal("rest-promote-2", "Remember that staging resets every Monday.");
    const before = await rowCounts(db);
    const { res, json } = await promote({ proposal_id: turn.proposalId, action: "approve_all" });
    expect(res.status).toBe(400);
    expect(json).toMatchObject({
      error: { code: "BAD_INPUT", field: "action", message: expect.stringMatching(/^action: /) },
    });
    // approve_update of a create proposal that resolve matched to no CFB: nothing to update, 400.
    const update = await promote({ proposal_id: turn.proposalId, action: "approve_update" });
    expect(update.res.status).toBe(400);
    expect(update.json).toMatchObject({ error: { code: "BAD_INPUT", field: "action" } });
    expect(await rowCounts(db)).toEqual(before);
  });

  it("a proposal that does not exist is 404; a malformed id is 400", async () => {
    const before = await rowCounts(db);
    const missing = await promote({ proposal_id: "UP-9999", action: "approve_create" });
    expect(missing.res.status).toBe(404);
    expect(missing.json).toEqual({
      error: { code: "NOT_FOUND", field: "proposal_id", message: "proposal UP-9999 does not exist" },
    });
    const malformed = await promote({ proposal_id: "x", action: "approve_create" });
    expect(malformed.res.status).toBe(400);
    expect(malformed.json).toMatchObject({ error: { code: "BAD_INPUT", field: "proposal_id" } });
    expect(await rowCounts(db)).toEqual(before);
  });

  it("a bad JSON body is 400 'body: must be valid JSON'", async () => {
    const res = await web.routes.promote.POST(postJson("/umbra/promote", '{"proposal_id": "UP-0001",'));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: { code: "BAD_INPUT", message: "body: must be valid JSON", field: "body" },
    });
  });
});

describe("accounts over REST", () => {
  it("a turn belongs to the signed-in caller, and request_ids are per caller", async () => {
    const input = { request_id: "rest-owner-1", message: "We decided to keep the wiki in the monorepo." };
    const mine = await respond(input);
    expect(mine.res.status).toBe(200);
    const thread = await db.thread.findUniqueOrThrow({ where: { id: String(mine.json.thread_id) } });
    expect(thread.ownerId).toBe(aliceId);
    // Bob's identical request is his own turn, not a replay of Alice's.
    const theirs = await respond(input, asBob);
    expect(theirs.res.status).toBe(200);
    expect(theirs.res.headers.get("Idempotent-Replayed")).toBe("false");
    expect(theirs.json.response_id).not.toBe(mine.json.response_id);
    expect(theirs.json.thread_id).not.toBe(mine.json.thread_id);
    const replay = await respond(input);
    expect(replay.res.headers.get("Idempotent-Replayed")).toBe("true");
    expect(replay.json.response_id).toBe(mine.json.response_id);
  });

  it("another user's response and proposal are 403 without any of their data; the queue is one's own", async () => {
    const message = "Remember that the payroll export runs on the 25th.";
    const bobs = await turnWithProposal("rest-bob-1", message, asBob);
    const bobTurn = await db.umbraProposal.findUniqueOrThrow({ where: { id: bobs.proposalId } });
    const before = await rowCounts(db);

    const listed = await listProposals(`?response_id=${bobs.responseId}`);
    expect(listed.res.status).toBe(403);
    expect(listed.json).toEqual({
      error: { code: "FORBIDDEN", message: `you may not access response ${bobs.responseId}`, field: null },
    });
    for (const action of ["approve_create", "reject"]) {
      const decided = await promote({ proposal_id: bobs.proposalId, action });
      expect(decided.res.status).toBe(403);
      expect(decided.json).toEqual({
        error: { code: "FORBIDDEN", message: `you may not access proposal ${bobs.proposalId}`, field: null },
      });
      expect(JSON.stringify(decided.json)).not.toContain(bobTurn.threadId);
      expect(JSON.stringify(decided.json)).not.toContain(bobTurn.title);
    }
    const intrude = await respond({ request_id: "rest-intrude-1", thread_id: bobTurn.threadId, message: "Hi" });
    expect(intrude.res.status).toBe(403);
    expect(JSON.stringify(intrude.json)).not.toContain("payroll");
    expect(await rowCounts(db)).toEqual(before);

    const queue = await listProposals("?status=all&limit=100");
    expect(queue.json.items.map((p) => p.proposal_id)).not.toContain(bobs.proposalId);
    const bobQueue = await listProposals("?status=all&limit=100", asBob);
    expect(bobQueue.json.items.map((p) => p.proposal_id)).toContain(bobs.proposalId);
    // Bob himself may decide it.
    expect((await promote({ proposal_id: bobs.proposalId, action: "reject" }, asBob)).res.status).toBe(200);
  });

  it("without credentials every route is 401 UNAUTHENTICATED and nothing is written", async () => {
    const before = await rowCounts(db);
    const anonymous: THeaders = {};
    const answers = [
      await respond({ request_id: "rest-anon-1", message: "We decided nothing." }, anonymous),
      await listProposals("", anonymous),
      await promote({ proposal_id: "UP-0001", action: "reject" }, anonymous),
    ];
    for (const { res, json } of answers) {
      expect(res.status).toBe(401);
      expect(json).toEqual({
        error: { code: "UNAUTHENTICATED", message: "sign in (or send an API token) to use this", field: null },
      });
    }
    // A cookie that is not a live session is nobody.
    const forged = await listProposals("", { cookie: "better-auth.session_token=forged.value" });
    expect(forged.res.status).toBe(401);
    expect(await rowCounts(db)).toEqual(before);
  });
});

describe("visibility (issue 19)", () => {
  type TCfbWire = { cfb_id: string; visibility: string; private_to: string | null; version: number };
  const list = async (headers: THeaders) =>
    trpcHttpData<{ items: TCfbWire[] }>(await trpcHttp(web, "cfbs.list", "query", { limit: 100 }, headers)).items.map(
      (c) => c.cfb_id,
    );

  it("a user's approval over REST answers a private CFB; the browser lists and shows it to her alone until a Jam editor endorses it", async () => {
    const turn = await turnWithProposal("rest-visibility-1", "We decided to water the office ferns on Tuesdays.");
    const approved = await promote({ proposal_id: turn.proposalId, action: "approve_create" });
    expect(approved.res.status).toBe(200);
    expect(approved.json).toMatchObject({ cfb: { visibility: "private", private_to: alice.email, version: 1 } });
    const cfbId = approved.json.final_cfb_id as string;

    expect(await list(asAlice)).toContain(cfbId);
    expect(await list(asBob)).not.toContain(cfbId);
    const page = await trpcHttp(web, "cfbs.get", "query", { cfb_id: cfbId }, asAlice);
    expect(trpcHttpData(page)).toMatchObject({ visibility: "private", private_to: alice.email });
    const refused = await trpcHttp(web, "cfbs.get", "query", { cfb_id: cfbId }, asBob);
    expect(refused.status).toBe(403);
    expect(trpcHttpError(refused).message).toBe(`you may not access CFB ${cfbId}`);
    expect(refused.text).not.toContain("ferns");
    expect(refused.text).not.toContain(alice.email);

    // A user may not endorse; a Jam editor does, from the browser, and it is everyone's.
    const byAlice = await trpcHttp(web, "cfbs.endorse", "mutation", { cfb_id: cfbId, version: 1 }, asAlice);
    expect(byAlice.status).toBe(403);
    const asJam = await web.browser(await web.account("jam", "endorser"));
    const endorsed = await trpcHttp(web, "cfbs.endorse", "mutation", { cfb_id: cfbId, version: 1 }, asJam);
    expect(trpcHttpData(endorsed)).toMatchObject({ cfb_id: cfbId, visibility: "shared", private_to: null, version: 2 });
    expect(await list(asBob)).toContain(cfbId);
    expect(trpcHttpData(await trpcHttp(web, "cfbs.get", "query", { cfb_id: cfbId }, asBob))).toMatchObject({
      visibility: "shared",
      actions: { allowed: [], revert_to: [] },
    });
  });
});

describe("unexpected errors", () => {
  it("are answered 500 INTERNAL with the message masked, and logged for the operator", async () => {
    const turn = await turnWithProposal("rest-internal-1", "We decided to archive logs after ninety days.");
    // A row another writer broke: its warnings are not ones this build knows, so reading it throws
    // a plain (non-domain) error inside the service.
    await db.umbraProposal.update({ where: { id: turn.proposalId }, data: { warnings: ["secret_internal_marker"] } });
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const res = await web.routes.proposals.GET(
        new Request(`${ORIGIN}/umbra/proposals?response_id=${turn.responseId}`, { headers: asAlice }),
      );
      expect(res.status).toBe(500);
      const text = await res.text();
      expect(JSON.parse(text)).toEqual({ error: { code: "INTERNAL", message: "Internal server error", field: null } });
      expect(text).not.toContain("secret_internal_marker");
      expect(logged).toHaveBeenCalled();
    } finally {
      logged.mockRestore();
      await db.umbraProposal.update({ where: { id: turn.proposalId }, data: { warnings: [] } });
    }
    const repaired = await listProposals(`?response_id=${turn.responseId}`);
    expect(repaired.res.status).toBe(200);
  });
});
