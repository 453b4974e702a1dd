// Ways around the request edge found in review (issue 20), each closed and held here:
// - a sign-in sent as a form (better-auth reads forms too) was counted against no account while
//   its password was checked: only JSON is accepted, and better-auth reads exactly that JSON;
// - a body trickled in a byte at a time held a request (and a load-shedding slot) for minutes:
//   a body must arrive within its deadline, and tRPC reads it before taking a slot;
// - a streamed tRPC answer (`trpc-accept: application/jsonl`) gave the slot back while the
//   procedures still ran: streaming is not offered, every answer is whole;
// - HEAD ran a REST GET without counting against the read budget;
// - invalid UTF-8 in a body became U+FFFD instead of a refusal;
// - an IPv6 client rotating through its /64 got fresh sign-in budgets with every address;
// - gate.evaluate (a comparison computed and stored per call) had no budget at all.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BODY_DEADLINE_MS, readBodyCapped } from "@/server/body-limit";
import { PEER_ADDRESS_HEADER } from "@/server/peer-address";
import { BASE_URL, openWebServer, type TWebAccount, type TWebServer } from "./helpers";

let web: TWebServer;
let owner: TWebAccount;

beforeAll(async () => {
  web = await openWebServer("web-review-fixes", { SOLSERVER_READS_PER_MINUTE: "3" });
  owner = await web.account("user", "fixes-owner");
});
afterAll(async () => web?.close());

/** A request body that sends `first` and then nothing more (a slow sender). */
function trickle(first: string): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(first));
    },
  });
}

describe("sign-in", () => {
  it("refuses a form body (415) and checks no password, so a form cannot dodge the throttle", async () => {
    const form = `&email=${encodeURIComponent(owner.email)}&password=${encodeURIComponent(owner.password)}`;
    const res = await web.routes.auth.POST(
      new Request(`${BASE_URL}/api/auth/sign-in/email`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          origin: BASE_URL,
          [PEER_ADDRESS_HEADER]: "10.9.0.1",
        },
        body: form,
      }),
    );
    expect(res.status).toBe(415);
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(await res.json()).toMatchObject({ message: "body: Content-Type must be application/json" });
    // JSON with the same account still signs in.
    const ok = await web.signIn(owner.email, owner.password, { [PEER_ADDRESS_HEADER]: "10.9.0.1" });
    expect(ok.status).toBe(200);
  });
});

describe("sign-in from IPv6", () => {
  it("counts a /64 as one address: rotating through it does not reset the pair's budget", async () => {
    const target = await web.account("user", "fixes-v6");
    const statuses: number[] = [];
    for (let i = 1; i <= 6; i++) {
      const res = await web.signIn(target.email, "wrong-password", { [PEER_ADDRESS_HEADER]: `2001:db8:0:7::${i}` });
      statuses.push(res.status);
    }
    // Five free failures for the pair, then a wait: the sixth address of the same /64 is refused.
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    // Another /64 is another address.
    expect((await web.signIn(target.email, target.password, { [PEER_ADDRESS_HEADER]: "2001:db8:0:8::1" })).status).toBe(
      200,
    );
  });
});

describe("request bodies", () => {
  it("a body still arriving after its deadline is refused: REQUEST_TIMEOUT naming body", async () => {
    const req = new Request(`${BASE_URL}/x`, { method: "POST", body: trickle('{"a":'), duplex: "half" } as RequestInit);
    // The body never ends: only its 50 ms deadline can settle the read.
    await expect(readBodyCapped(req, 1024, 50)).rejects.toMatchObject({ code: "REQUEST_TIMEOUT", field: "body" });
    expect(BODY_DEADLINE_MS).toBeLessThanOrEqual(10_000);
  });

  it("invalid UTF-8 is refused, never read as U+FFFD", async () => {
    const bytes = new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]);
    await expect(readBodyCapped(new Request(`${BASE_URL}/x`, { method: "POST", body: bytes }))).rejects.toMatchObject({
      code: "BAD_INPUT",
      field: "body",
      message: "body: must be valid UTF-8",
    });
    expect(await readBodyCapped(new Request(`${BASE_URL}/x`, { method: "POST", body: '{"a":"é"}' }))).toBe('{"a":"é"}');
  });
});

describe("tRPC answers", () => {
  it("are whole even when a client asks for a stream", async () => {
    const browser = await web.browser(owner);
    const url = `${BASE_URL}/api/trpc/system.health?batch=1&input=${encodeURIComponent(JSON.stringify({}))}`;
    const res = await web.routes.trpc.GET(
      new Request(url, { headers: { ...browser, "trpc-accept": "application/jsonl", accept: "application/jsonl" } }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const body = (await res.json()) as { result: { data: { status: string } } }[];
    expect(body[0]?.result.data.status).toBe("ok");
  });
});

describe("the read budget", () => {
  it("counts HEAD as the GET it runs", async () => {
    const reader = await web.account("user", "fixes-reader");
    const headers = await web.browser(reader);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await web.routes.proposals.GET(
        new Request(`${BASE_URL}/umbra/proposals`, { method: "HEAD", headers }),
      );
      statuses.push(res.status);
    }
    // Three per minute in this server: the fourth read, HEAD or GET, is over budget.
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it("counts each gate evaluation, over REST as over tRPC", async () => {
    const caller = await web.account("user", "fixes-gate");
    const headers = { ...(await web.browser(caller)), "content-type": "application/json" };
    const body = JSON.stringify({ baseline: { output: "Hello there." }, candidate: { output: "Hello again." } });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await web.routes.gate.POST(
        new Request(`${BASE_URL}/gate/evaluate`, { method: "POST", headers, body }),
      );
      statuses.push(res.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});
