// The per-account read budget (SOLSERVER_READS_PER_MINUTE, here 4): each tRPC query, each call
// of a batch and each REST GET counts; past the budget 429 with Retry-After, per account, and
// writes (chat turns) are not charged against it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openWebServer, rest, restError, type THeaders, type TWebServer, trpcHttp, trpcHttpError } from "./helpers";

const READS = 4;
let web: TWebServer;
let jam: Awaited<ReturnType<TWebServer["account"]>>;

beforeAll(async () => {
  web = await openWebServer("web-read-budget", { SOLSERVER_READS_PER_MINUTE: String(READS) });
  jam = await web.account("jam", "budget-jam");
});

afterAll(async () => {
  await web?.close();
});

const tokenFor = async (label: string): Promise<THeaders> => web.bearer(jam, await web.account("user", label));

describe(`reads per account per minute (SOLSERVER_READS_PER_MINUTE=${READS})`, () => {
  it("counts tRPC queries and REST GETs together; the next read is 429 with Retry-After", async () => {
    const alice = await tokenFor("budget-alice");
    expect((await trpcHttp(web, "threads.list", "query", {}, alice)).status).toBe(200);
    expect((await rest(web, "GET /umbra/proposals", { headers: alice })).status).toBe(200);
    expect((await trpcHttp(web, "cfbs.list", "query", {}, alice)).status).toBe(200);
    expect((await rest(web, "GET /procedures", { headers: alice })).status).toBe(200);

    const trpc = await trpcHttp(web, "threads.list", "query", {}, alice);
    expect(trpc.status).toBe(429);
    expect(Number(trpc.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(trpcHttpError(trpc)).toMatchObject({
      message: expect.stringMatching(
        new RegExp(`^too many reads: at most ${READS} per minute per account, retry in \\d+ s$`),
      ),
      data: { code: "TOO_MANY_REQUESTS", domainCode: "RATE_LIMITED" },
    });
    const listed = await rest(web, "GET /umbra/proposals", { headers: alice });
    expect(listed.status).toBe(429);
    expect(listed.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(restError(listed).code).toBe("RATE_LIMITED");
  });

  it("each call of a batch counts; another account has its own budget; writes are not reads", async () => {
    const bob = await tokenFor("budget-bob");
    const url = `http://localhost:3000/api/trpc/threads.list,cfbs.list,threads.list?batch=1&input=${encodeURIComponent(JSON.stringify({ 0: {}, 1: {}, 2: {} }))}`;
    const batch = await web.routes.trpc.GET(new Request(url, { headers: bob }));
    expect(batch.status).toBe(200);
    const turn = await rest(web, "POST /chat/respond", {
      headers: bob,
      body: { request_id: "budget-turn-1", message: "We decided to keep reads cheap." },
    });
    expect(turn.status).toBe(200);
    expect((await trpcHttp(web, "threads.list", "query", {}, bob)).status).toBe(200);
    expect((await trpcHttp(web, "threads.list", "query", {}, bob)).status).toBe(429);

    const carol = await tokenFor("budget-carol");
    expect((await trpcHttp(web, "threads.list", "query", {}, carol)).status).toBe(200);
  });

  it("the public health probe is not charged", async () => {
    for (let i = 0; i < READS + 2; i++)
      expect((await trpcHttp(web, "system.health", "query", undefined)).status).toBe(200);
  });
});
