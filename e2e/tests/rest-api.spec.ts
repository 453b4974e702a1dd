import { expect, test } from "@playwright/test";
import { DEMO_USER, origin, signInRequest } from "./helpers";

// The seed's REST contract over real HTTP against the running server (seed 001 §3), as the demo
// user signed in with a session cookie. Cookie-authenticated writes carry our own Origin.

test("POST /chat/respond, GET /umbra/proposals, POST /umbra/promote", async ({ request, baseURL }) => {
  await signInRequest(request, baseURL, DEMO_USER.email, DEMO_USER.password);
  const headers = { Origin: origin(baseURL) };
  const body = { request_id: `e2e-${Date.now()}`, message: "From now on, release notes are written in English." };
  const first = await request.post("/chat/respond", { data: body, headers });
  expect(first.status()).toBe(200);
  expect(first.headers()["idempotent-replayed"]).toBe("false");
  const turn = await first.json();
  expect(turn).toMatchObject({
    packet_id: expect.stringMatching(/^P-\d+$/),
    transmission_id: expect.stringMatching(/^T-\d+$/),
    attempt_id: expect.stringMatching(/^A-\d+$/),
    response_id: expect.stringMatching(/^R-\d+$/),
    ui_hints: { has_proposals: true },
  });
  const preview = turn.ui_hints.proposal_previews[0];
  expect(preview).toMatchObject({ op: "create", title: "Release notes are written in English", confidence: 0.75 });

  const retry = await request.post("/chat/respond", { data: body, headers });
  expect(retry.headers()["idempotent-replayed"]).toBe("true");
  expect((await retry.json()).response_id).toBe(turn.response_id);

  const list = await request.get(`/umbra/proposals?response_id=${turn.response_id}`);
  expect(list.status()).toBe(200);
  const proposals = await list.json();
  expect(proposals.items.map((p: { proposal_id: string }) => p.proposal_id)).toEqual([preview.proposal_id]);

  const promote = { proposal_id: preview.proposal_id, response_id: turn.response_id, action: "approve_create" };
  const approved = await request.post("/umbra/promote", { data: promote, headers });
  expect(approved.status()).toBe(200);
  expect((await approved.json()).final_cfb_id).toMatch(/^CFB-\d{4}$/);

  const again = await request.post("/umbra/promote", { data: promote, headers });
  expect(again.status()).toBe(409);
  expect(await again.json()).toMatchObject({ error: { code: "CONFLICT", field: "proposal_id" } });
});

test("bad input is refused with the field named", async ({ request, baseURL }) => {
  await signInRequest(request, baseURL, DEMO_USER.email, DEMO_USER.password);
  const headers = { Origin: origin(baseURL) };
  const missing = await request.post("/chat/respond", { data: { request_id: "e2e-bad" }, headers });
  expect(missing.status()).toBe(400);
  expect(await missing.json()).toMatchObject({ error: { code: "BAD_INPUT", field: "message" } });

  const action = await request.post("/umbra/promote", {
    data: { proposal_id: "UP-0001", action: "approve_all" },
    headers,
  });
  expect(action.status()).toBe(400);
  expect((await action.json()).error.message).toContain("action");

  const unknown = await request.post("/umbra/promote", { data: { proposal_id: "UP-9999", action: "reject" }, headers });
  expect(unknown.status()).toBe(404);
});

test("no session is 401; a cookie-authenticated write from another origin is 403", async ({ request, baseURL }) => {
  const anonymous = await request.get("/umbra/proposals");
  expect(anonymous.status()).toBe(401);
  expect((await anonymous.json()).error.code).toBe("UNAUTHENTICATED");

  await signInRequest(request, baseURL, DEMO_USER.email, DEMO_USER.password);
  expect((await request.get("/umbra/proposals")).status()).toBe(200);
  const data = { request_id: `e2e-csrf-${Date.now()}`, message: "What is the monthly hosting cost?" };
  const foreign = await request.post("/chat/respond", { data, headers: { Origin: "https://evil.example" } });
  expect(foreign.status()).toBe(403);
  expect((await foreign.json()).error.code).toBe("FORBIDDEN");
});
