// A database out of reach is told apart from a failed query (issue 38): the errors Prisma and the
// driver raise when nothing listens at the database's address, and a real query error that is not.
import { afterAll, describe, expect, it } from "vitest";
import { createPrismaClient, createRepositories, isDatabaseUnreachable } from "../src";
import { createTestDatabase } from "../src/testing";

// Nothing listens on port 1 of the loopback address.
const nowhere = await createPrismaClient("postgresql://postgres@127.0.0.1:1/solserver");
afterAll(() => nowhere.$disconnect());

const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error("expected the call to fail");
    },
    (error: unknown) => error,
  );

describe("isDatabaseUnreachable", () => {
  it("is true for a Prisma call and a raw SQL call to a database nobody serves", async () => {
    const repos = createRepositories(nowhere);
    expect(isDatabaseUnreachable(await failure(repos.cfbs.count()))).toBe(true);
    expect(isDatabaseUnreachable(await failure(repos.mementos.get("th-1")))).toBe(true);
  });

  it("is false for a query that reached the database and failed, and for other errors", async () => {
    const database = await createTestDatabase("unreachable");
    const db = await createPrismaClient(database.url);
    try {
      const error = await failure(db.$queryRawUnsafe('SELECT "nope" FROM "NoSuchTable"'));
      expect(isDatabaseUnreachable(error)).toBe(false);
    } finally {
      await db.$disconnect();
      await database.cleanup();
    }
    expect(isDatabaseUnreachable(new Error("boom"))).toBe(false);
    expect(isDatabaseUnreachable(null)).toBe(false);
  });
});
