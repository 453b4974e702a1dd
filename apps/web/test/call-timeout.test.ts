// A dashboard call to a server that never answers (paused with SIGSTOP, overloaded) ends with an
// error the page says in words, not a button pending forever: the browser's tRPC client fetches
// through timedFetch, and errorText reads the timeout from the error's causes. Real HTTP, a real
// tRPC client, a server that accepts the request and never replies.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createTRPCClient, httpBatchLink } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { timedFetch } from "@/lib/timed-fetch";
import { errorText, isTimedOut } from "@/lib/trpc-errors";
import type { AppRouter } from "@/server/trpc/root";

let silent: Server;
let url: string;

beforeAll(async () => {
  silent = createServer(() => {
    // never answers
  });
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/api/trpc`;
});
afterAll(() => {
  silent.closeAllConnections();
  silent.close();
});

describe("a call the server never answers", () => {
  it("fails after the timeout, and the page says so in words", async () => {
    const client = createTRPCClient<AppRouter>({ links: [httpBatchLink({ url, fetch: timedFetch(50) })] });
    const error = await client.proposals.queues.query().catch((e: unknown) => e as Error);
    expect(isTimedOut(error)).toBe(true);
    expect(errorText(error as Error)).toBe(
      "the server did not answer within 2 minutes; it may still finish: reload the page to see",
    );
  });

  it("another failure is not a timeout", () => {
    expect(isTimedOut(new Error("FORBIDDEN"))).toBe(false);
    expect(errorText(new Error("you may not do that"))).toBe("you may not do that");
  });
});
