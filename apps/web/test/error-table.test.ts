// One error table (src/server/errors/table.ts) drives every path that answers an error: tRPC
// procedures, REST routes, the tRPC body limit and the auth routes. This pins the table against
// tRPC's own status codes and the paths that answer without a procedure against the table.
import { DOMAIN_ERROR_CODES } from "@solserver/contracts";
import { TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { TRPC_ERROR_CODES_BY_KEY } from "@trpc/server/rpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERROR_TABLE } from "@/server/errors/table";
import { BASE_URL, FOREIGN_ORIGIN, openWebServer, type TWebServer, trpcHttp } from "./helpers";

let web: TWebServer;

beforeAll(async () => {
  web = await openWebServer("web-error-table");
});

afterAll(async () => {
  await web?.close();
});

describe("the error table", () => {
  it("has a row for every domain error code, and INTERNAL", () => {
    expect(Object.keys(ERROR_TABLE).sort()).toEqual([...DOMAIN_ERROR_CODES, "INTERNAL"].sort());
  });

  it("gives each code the HTTP status tRPC gives its tRPC code, but PRECONDITION_REQUIRED (428 over REST) and the two request-size refusals tRPC has no code for (414, 431)", () => {
    const differs = Object.entries(ERROR_TABLE)
      .filter(([, row]) => getHTTPStatusCodeFromError(new TRPCError({ code: row.trpc })) !== row.http)
      .map(([code]) => code);
    expect(differs).toEqual(["PRECONDITION_REQUIRED", "URI_TOO_LONG", "HEADERS_TOO_LARGE"]);
  });

  it("masks unexpected errors with one message", () => {
    expect(ERROR_TABLE.INTERNAL).toEqual({
      trpc: "INTERNAL_SERVER_ERROR",
      http: 500,
      message: "Internal server error",
    });
  });
});

describe("answers made before any procedure runs", () => {
  const signIn = (body: string, headers: Record<string, string> = {}) =>
    web.routes.auth.POST(
      new Request(`${BASE_URL}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: BASE_URL, ...headers },
        body,
      }),
    );

  it("the auth routes refuse in better-auth's shape with the table's code and status", async () => {
    const crossSite = await signIn(JSON.stringify({ email: "x@web.test", password: "p" }), { origin: FOREIGN_ORIGIN });
    expect(crossSite.status).toBe(403);
    expect(await crossSite.json()).toEqual({ code: "FORBIDDEN", message: "cross-site request refused" });

    const broken = await signIn("{ not json");
    expect(broken.status).toBe(400);
    expect(await broken.json()).toEqual({ code: "BAD_REQUEST", message: "body: must be valid JSON" });

    const huge = await signIn(JSON.stringify({ email: "x@web.test", password: "p".repeat(9000) }));
    expect(huge.status).toBe(413);
    expect(await huge.json()).toEqual({ code: "PAYLOAD_TOO_LARGE", message: "request body too large" });
  });

  it("the tRPC body limit answers in tRPC's error shape, with tRPC's number for the code", async () => {
    const result = await trpcHttp(web, "chat.respond", "mutation", JSON.stringify({ message: "x".repeat(70 * 1024) }));
    expect(result.status).toBe(413);
    expect(result.json).toEqual({
      error: {
        message: "body: must be at most 65536 bytes",
        code: TRPC_ERROR_CODES_BY_KEY.PAYLOAD_TOO_LARGE,
        data: { code: "PAYLOAD_TOO_LARGE", httpStatus: 413 },
      },
    });
  });
});
