// A database out of reach is answered 503 with Retry-After, said in words, on REST and tRPC
// (issue 38), not a masked 500: the error a real client raises when nothing serves the database.
import { openControlPlane } from "@solserver/control-plane";
import { createPrismaClient, createRepositories } from "@solserver/db";
import { TRPCError } from "@trpc/server";
import { afterAll, describe, expect, it } from "vitest";
import { restErrorBody } from "@/server/rest";
import { createInnerContext } from "@/server/trpc/init";
import { createCaller } from "@/server/trpc/root";

// Nothing listens on port 1 of the loopback address.
const NOWHERE = "postgresql://postgres@127.0.0.1:1/solserver";
const nowhere = await createPrismaClient(NOWHERE);
const server = await openControlPlane({ databaseUrl: NOWHERE });
afterAll(async () => {
  await nowhere.$disconnect();
  await server.db.$disconnect();
});
const outage = await createRepositories(nowhere)
  .cfbs.count()
  .then(
    () => null,
    (error: unknown) => error,
  );

describe("a database outage", () => {
  it("is a 503 on REST, with Retry-After, in words", () => {
    expect(restErrorBody(outage)).toEqual({
      status: 503,
      error: {
        code: "UNAVAILABLE",
        message: "the database is not reachable right now; try again in a few seconds",
        field: null,
      },
      headers: { "Retry-After": "5" },
    });
  });

  it("is SERVICE_UNAVAILABLE on tRPC, where a service's query fails for it", async () => {
    const caller = createCaller(
      createInnerContext({
        deps: server.deps,
        actor: { kind: "user", userId: "u1", email: "jam@x.test", role: "jam", via: "token" },
        crossSiteWrite: false,
      }),
    );
    const error = await caller.cfbs.get({ cfb_id: "CFB-0001" }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TRPCError);
    expect(error).toMatchObject({
      code: "SERVICE_UNAVAILABLE",
      message: "the database is not reachable right now; try again in a few seconds",
    });
  });
});
