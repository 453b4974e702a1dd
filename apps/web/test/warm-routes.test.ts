// Ready means every route's code is loaded (issue 38): once the server listens, the process asks
// each API route and the review page once itself, over loopback and without credentials, and
// /readyz says "loading" until every one answered; then the control plane's warm-up runs. Over
// a real socket.
import http from "node:http";
import { describe, expect, it } from "vitest";
import { routeWarmUp, warmRoutesOnStart } from "@/server/http/warm-routes";

describe("warming the routes at start", () => {
  it("asks every API route and the review page once, anonymously, says ok, then warms the rest", async () => {
    expect(routeWarmUp()).toBeNull();
    let askedBeforeThen: number | null = null;
    warmRoutesOnStart(http, async () => {
      askedBeforeThen = asked.length;
    });
    expect(routeWarmUp()).toBe("loading");
    const asked: { method: string; url: string; cookie: string | undefined; authorization: string | undefined }[] = [];
    let answerLast: () => void = () => {};
    const lastAsked = new Promise<void>((resolve) => {
      answerLast = resolve;
    });
    const server = http.createServer((req, res) => {
      asked.push({
        method: req.method ?? "",
        url: req.url ?? "",
        cookie: req.headers.cookie,
        authorization: req.headers.authorization,
      });
      if (req.url === "/review") {
        // Held until the test has seen the state while the last route is still loading.
        void lastAsked.then(() => res.writeHead(307, { location: "/sign-in" }).end());
        return;
      }
      res.writeHead(401, { "content-type": "application/json" }).end('{"error":"UNAUTHENTICATED"}');
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      await expect.poll(() => asked.length).toBe(10);
      expect(routeWarmUp()).toBe("loading");
      answerLast();
      await expect.poll(() => routeWarmUp()).toBe("ok");
      // The control plane's own warm-up (index, router, sentence model) follows the routes.
      await expect.poll(() => askedBeforeThen).toBe(10);
      expect(asked.map((a) => `${a.method} ${a.url}`)).toEqual([
        "POST /chat/respond",
        "POST /chat/respond/stream",
        "POST /api/trpc/chat.respond",
        "GET /umbra/proposals",
        "POST /umbra/promote",
        "POST /gate/evaluate",
        "GET /procedures",
        "GET /threads/warm-up/memento",
        "GET /threads/warm-up/procedure",
        "GET /review",
      ]);
      expect(asked.every((a) => a.cookie === undefined && a.authorization === undefined)).toBe(true);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
