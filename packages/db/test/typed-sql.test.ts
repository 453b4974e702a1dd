// Typed SQL (typed-sql.ts): statements built with Kysely against schema.prisma's tables, run by
// the SQL driver on either database. A column the table lacks or a value of the wrong type does
// not compile (the @ts-expect-error lines fail `pnpm typecheck` when the types stop catching
// them); values round-trip as the hand-written statements store them. Runs on PostgreSQL too.
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { createPrismaClient, type DbClient } from "../src";
import { sqlDriverOf } from "../src/client";
import { dateOf, type TSqlDriver } from "../src/sql";
import { createTestDatabase, type TTestDatabase } from "../src/testing";
import { rows, run, toSql, typed } from "../src/typed-sql";

let database: TTestDatabase;
let db: DbClient;
let sql: TSqlDriver;

beforeAll(async () => {
  database = await createTestDatabase("typed-sql");
  db = await createPrismaClient(database.url);
  sql = sqlDriverOf(db);
});
afterAll(async () => {
  await db.$disconnect();
  database.cleanup();
});

describe("typed SQL", () => {
  it("refuses at compile time a column the table lacks and a value of the wrong type", () => {
    // @ts-expect-error: WorkLease has no column "holder"
    typed.selectFrom("WorkLease").select("holder");
    // @ts-expect-error: "enabled" is a boolean
    typed.updateTable("WorkflowSchedule").set({ enabled: "yes" });
    // @ts-expect-error: no table "WorkLeases"
    typed.deleteFrom("WorkLeases");
    const statement = typed.selectFrom("WorkflowSchedule").select(["workflow", "enabled", "nextRunAt", "weekday"]);
    expectTypeOf<Awaited<ReturnType<typeof rows<typeof statement>>>>().toEqualTypeOf<
      { workflow: string; enabled: boolean | number; nextRunAt: Date | string | null; weekday: number | null }[]
    >();
  });

  it("binds every value as a parameter, numbered for PostgreSQL", () => {
    const statement = toSql(typed.selectFrom("WorkLease").select("owner").where("name", "=", "it's ? a name"));
    expect(statement.sql).toBe('select "owner" from "WorkLease" where "name" = ?');
    expect(statement.text).toBe('select "owner" from "WorkLease" where "name" = $1');
    expect(statement.values).toEqual(["it's ? a name"]);
  });

  it("writes and reads back dates, booleans and nulls on this database", async () => {
    const at = new Date("2026-12-07T09:30:00.123Z");
    const schedule = {
      workflow: "typed-beat",
      enabled: true,
      cadence: "weekly",
      timeOfDay: "09:30",
      weekday: null,
      nextRunAt: at,
      runAsId: null,
      updatedAt: at,
      createdAt: at,
    };
    expect(await run(sql, typed.insertInto("WorkflowSchedule").values(schedule))).toBe(1);
    const [row] = await rows(
      sql,
      typed.selectFrom("WorkflowSchedule").selectAll().where("workflow", "=", "typed-beat").where("enabled", "=", true),
    );
    expect(dateOf(row?.nextRunAt)).toEqual(at);
    expect(Boolean(row?.enabled)).toBe(true);
    expect(row?.weekday).toBeNull();
    // Prisma reads what the typed statement wrote exactly as its own writes
    expect(await db.workflowSchedule.findUniqueOrThrow({ where: { workflow: "typed-beat" } })).toMatchObject({
      enabled: true,
      nextRunAt: at,
      weekday: null,
    });
    const moved = typed.updateTable("WorkflowSchedule").set({ enabled: false }).where("nextRunAt", "<=", at);
    expect(await run(sql, moved)).toBe(1);
    expect(await run(sql, moved.where("enabled", "=", true))).toBe(0);
  });
});
