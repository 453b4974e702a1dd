// The hot-path SQL driver (sql.ts): it shares Prisma's connection and transaction lock, stores
// values exactly as Prisma does, and commits or rolls back whole transactions.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient, type DbClient } from "../src";
import { sqlDriverOf } from "../src/client";
import { Prisma } from "../src/generated/prisma/client";
import { allocateIds } from "../src/ids";
import { isUniqueViolation, type TSqlDriver } from "../src/sql";
import { createTestDatabase, type TTestDatabase } from "../src/testing";

let database: TTestDatabase;
let db: DbClient;
let sql: TSqlDriver;

beforeAll(async () => {
  database = await createTestDatabase("sql-driver");
  db = await createPrismaClient(database.url);
  sql = sqlDriverOf(db);
});
afterAll(async () => {
  await db.$disconnect();
  database.cleanup();
});

const thread = (id: string, at: Date) =>
  Prisma.sql`INSERT INTO "Thread" ("id", "title", "ownerId", "createdAt", "updatedAt") VALUES (${id}, 'T', NULL, ${at}, ${at})`;

describe("sql driver", () => {
  it("stores dates and JSON as Prisma does, so Prisma reads them back unchanged", async () => {
    const at = new Date("2026-11-22T03:04:05.678Z");
    await sql.execute(thread("th-dates", at));
    const row = await db.thread.findUniqueOrThrow({ where: { id: "th-dates" } });
    expect(row.createdAt.toISOString()).toBe(at.toISOString());
    await db.threadMemento.create({ data: { threadId: "th-dates", payload: { a: [1, "x"] } } });
    const [raw] = await sql.query<{ payload: string }>(
      Prisma.sql`SELECT "payload" FROM "ThreadMemento" WHERE "threadId" = ${"th-dates"}`,
    );
    expect(JSON.parse(raw?.payload ?? "null")).toEqual({ a: [1, "x"] });
  });

  it("rolls a whole transaction back when the work throws", async () => {
    await expect(
      sql.transaction(async (tx) => {
        await tx.execute(thread("th-rollback", new Date()));
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await db.thread.count({ where: { id: "th-rollback" } })).toBe(0);
    // The lock was released: the next transaction runs.
    await sql.transaction((tx) => tx.execute(thread("th-after", new Date())));
    expect(await db.thread.count({ where: { id: "th-after" } })).toBe(1);
  });

  // SQLite: one connection, so the driver waits for Prisma's transaction to end. PostgreSQL: a
  // pool, so it runs beside it on another connection. Either way it never writes into it.
  it("waits for an open Prisma transaction (SQLite) or runs beside it (PostgreSQL), never writing into it", async () => {
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let wrote!: () => void;
    const prismaWrote = new Promise<void>((resolve) => {
      wrote = resolve;
    });
    const prismaTx = db.$transaction(async (tx) => {
      await tx.thread.create({ data: { id: "th-prisma", title: "P" } });
      order.push("prisma wrote");
      wrote();
      await gate;
      throw new Error("prisma rolls back");
    });
    // The Prisma transaction holds its write (and, on SQLite, the connection) before the driver starts.
    await prismaWrote;
    let started!: () => void;
    const driverStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    const driverTx = sql.transaction(async (tx) => {
      order.push("driver started");
      started();
      await tx.execute(thread("th-driver", new Date()));
    });
    // SQLite: the driver cannot start while Prisma holds the connection, so give it the chance to
    // (wrongly) do so. PostgreSQL: it must start while Prisma's transaction is still open.
    if (database.dialect === "sqlite") await new Promise((resolve) => setTimeout(resolve, 20));
    else await driverStarted;
    order.push("prisma released");
    release();
    await expect(prismaTx).rejects.toThrow("prisma rolls back");
    await driverTx;
    expect(order).toEqual(
      database.dialect === "sqlite"
        ? ["prisma wrote", "prisma released", "driver started"]
        : ["prisma wrote", "driver started", "prisma released"],
    );
    // The driver's row survived the Prisma rollback; the Prisma row did not.
    expect(await db.thread.count({ where: { id: { in: ["th-prisma", "th-driver"] } } })).toBe(1);
    expect(await db.thread.count({ where: { id: "th-driver" } })).toBe(1);
  });

  it("recognises a unique violation by table and column", async () => {
    const error = await sql.execute(thread("th-dates", new Date())).catch((e: unknown) => e);
    expect(isUniqueViolation(error, sql, "Thread", "id")).toBe(true);
    expect(isUniqueViolation(error, sql, "Packet", "id")).toBe(false);
    expect(isUniqueViolation(error, sql, "Thread", "requestId")).toBe(false);
    expect(isUniqueViolation(new Error("other"), sql, "Thread", "id")).toBe(false);
    // The same through the adapter's error shape (used when the native connection is absent).
    const adapterError = Object.assign(new Error("UniqueConstraintViolation"), {
      name: "DriverAdapterError",
      cause: { kind: "UniqueConstraintViolation", table: "Packet", constraint: { fields: ["callerId", "requestId"] } },
    });
    expect(isUniqueViolation(adapterError, sql, "Packet", "requestId")).toBe(true);
    expect(isUniqueViolation(adapterError, sql, "Packet", "id")).toBe(false);
  });

  it("reuses prepared statements and binds values as Prisma does", async () => {
    const at = new Date("2026-11-22T05:06:07.089Z");
    await sql.execute(thread("th-native", at));
    // Read back through Prisma: the native path stored the date in Prisma's format.
    expect((await db.thread.findUniqueOrThrow({ where: { id: "th-native" } })).updatedAt.toISOString()).toBe(
      at.toISOString(),
    );
    const [row] = await sql.query<{ n: number; flag: number }>(
      Prisma.sql`SELECT COUNT(*) AS "n", ${true} AS "flag" FROM "Thread" WHERE "id" = ${"th-native"}`,
    );
    // Plain numbers (not BigInt or PostgreSQL's bigint text); booleans bound as SQLite's 1 or
    // PostgreSQL's boolean.
    expect(row).toEqual({ n: 1, flag: database.dialect === "sqlite" ? 1 : true });
  });
});

describe("id allocation", () => {
  it("reserves consecutive ids of several families in one statement", async () => {
    const first = await sql.transaction((tx) => allocateIds(tx, { packet: 1, attempt: 3, proposal: 0 }));
    expect(first.packet).toEqual(["P-0001"]);
    expect(first.attempt).toEqual(["A-0001", "A-0002", "A-0003"]);
    expect(first.proposal).toEqual([]);
    const second = await sql.transaction((tx) => allocateIds(tx, { attempt: 2 }));
    expect(second.attempt).toEqual(["A-0004", "A-0005"]);
    // Outside a transaction the counters go on (the one allocator every writer uses).
    expect((await allocateIds(sql, { attempt: 1 })).attempt).toEqual(["A-0006"]);
  });

  // SQLite takes ids inside the transaction: a rolled-back write gives them back. PostgreSQL takes
  // them in a statement of their own, like a sequence: the next write skips them.
  it("gives ids back when the transaction rolls back (SQLite), leaves a gap (PostgreSQL)", async () => {
    await expect(
      sql.transaction(async (tx) => {
        await allocateIds(tx, { cfb: 2 });
        throw new Error("abandon");
      }),
    ).rejects.toThrow("abandon");
    expect((await sql.transaction((tx) => allocateIds(tx, { cfb: 1 }))).cfb).toEqual([
      database.dialect === "sqlite" ? "CFB-0001" : "CFB-0003",
    ]);
  });

  it("never makes two writers wait on each other for ids, nor hands one out twice", async () => {
    // Eight transactions take ids and then hold their transaction open until all eight have
    // them: with the counter row locked until commit (or SERIALIZABLE conflicts over it) on
    // PostgreSQL this would wait forever or fail; on SQLite they run one after another.
    const n = 8;
    let arrived = 0;
    let open!: () => void;
    const allHave = new Promise<void>((resolve) => {
      open = resolve;
    });
    const batches = await Promise.all(
      Array.from({ length: n }, () =>
        sql.transaction(async (tx) => {
          const ids = await allocateIds(tx, { packet: 2 });
          arrived += 1;
          if (arrived === n) open();
          if (database.dialect === "postgresql") await allHave;
          return ids.packet;
        }),
      ),
    );
    const all = batches.flat();
    expect(new Set(all).size).toBe(2 * n);
  });
});
