// Typed SQL (typed-sql.ts): statements built with Kysely against schema.prisma's tables, run by
// the SQL driver on either database. A column the table lacks or a value of the wrong type does
// not compile (the @ts-expect-error lines fail `pnpm typecheck` when the types stop catching
// them); values round-trip as the hand-written statements store them; a prepared statement is
// built once per shape and runs with each call's values, Json and lists included. Runs on PostgreSQL too.
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { createPrismaClient, type DbClient } from "../src";
import { sqlDriverOf } from "../src/client";
import { prepare } from "../src/prepared-sql";
import { dateOf, type TSqlDriver } from "../src/sql";
import { createTestDatabase, type TTestDatabase } from "../src/testing";
import { fragment, rows, run, toSql, typed } from "../src/typed-sql";

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

  it("prepares a statement once per dialect and shape and runs it with each call's values", async () => {
    let builds = 0;
    const claim = prepare((v: { name: string; owner: string; at: Date }) => {
      builds++;
      return typed
        .insertInto("WorkLease")
        .values({ name: v.name, owner: v.owner, expiresAt: v.at })
        .onConflict((oc) => oc.column("name").doUpdateSet({ owner: v.owner }))
        .returning(["name", "owner"]);
    });
    const at = new Date("2026-12-07T10:00:00.000Z");
    expect(await rows(sql, claim({ name: "prepared-a", owner: "one", at }, sql.dialect))).toEqual([
      { name: "prepared-a", owner: "one" },
    ]);
    // the same slot twice (the insert and the update) takes the same value
    expect(await rows(sql, claim({ name: "prepared-a", owner: "two", at }, sql.dialect))).toEqual([
      { name: "prepared-a", owner: "two" },
    ]);
    expect(await rows(sql, claim({ name: "prepared-b", owner: "three", at }, sql.dialect))).toHaveLength(1);
    expect(builds).toBe(1);

    const state = prepare((v: { id: string; state: unknown }, d) =>
      typed
        .updateTable("WorkflowRun")
        .set({ state: fragment(d.json(v.state)) })
        .where("id", "=", v.id),
    );
    const statement = state({ id: "WR-1", state: { step: 'it\'s ? "quoted"', n: [1, 2] } }, sql.dialect);
    expect(statement.values).toEqual([JSON.stringify({ step: 'it\'s ? "quoted"', n: [1, 2] }), "WR-1"]);
    // a list given as a Json value is one value, not a list of them
    expect(state({ id: "WR-2", state: ["a", "b"] }, sql.dialect).values).toEqual(['["a","b"]', "WR-2"]);
    // a null Json value is SQL NULL (a nullable Json column left empty)
    expect(state({ id: "WR-3", state: null }, sql.dialect).values).toEqual([null, "WR-3"]);

    // a list is one shape per length: an IN list, and the rows of a multi-row insert
    const owners = prepare(
      (v: { names: string[] }) =>
        typed.selectFrom("WorkLease").select("owner").where("name", "in", v.names).orderBy("owner"),
      ["names"],
    );
    expect(await rows(sql, owners({ names: ["prepared-a"] }, sql.dialect))).toEqual([{ owner: "two" }]);
    // an IN list is padded to a power of two by its last value: a dozen statements for any length
    const three = owners({ names: ["prepared-a", "prepared-b", "prepared-b"] }, sql.dialect);
    expect(three.values).toEqual(["prepared-a", "prepared-b", "prepared-b", "prepared-b"]);
    expect(three.sql).toBe(owners({ names: ["a", "b", "c", "d"] }, sql.dialect).sql);
    expect(await rows(sql, owners({ names: ["prepared-a", "prepared-b"] }, sql.dialect))).toEqual([
      { owner: "three" },
      { owner: "two" },
    ]);
    const leases = prepare(
      (v: { rows: { name: string; owner: string; expiresAt: Date }[] }) => typed.insertInto("WorkLease").values(v.rows),
      ["rows"],
    );
    const two = [1, 2].map((i) => ({ name: `prepared-row-${i}`, owner: `row ${i}`, expiresAt: at }));
    expect(await run(sql, leases({ rows: two }, sql.dialect))).toBe(2);
    expect(await rows(sql, owners({ names: two.map((r) => r.name) }, sql.dialect))).toEqual([
      { owner: "row 1" },
      { owner: "row 2" },
    ]);
    // a row to spread, and an undefined value left out as Kysely leaves it out unprepared
    const lease = prepare(
      (v: { row: { name: string; owner: string; expiresAt?: Date } }) =>
        typed.insertInto("WorkLease").values({ expiresAt: at, ...v.row }),
      ["row"],
    );
    expect(toSql(lease({ row: { name: "x", owner: "y" } }, sql.dialect)).values).toEqual([at, "x", "y"]);
    expect(toSql(lease({ row: { name: "x", owner: "y", expiresAt: undefined } }, sql.dialect)).values).toEqual([
      at,
      "x",
      "y",
    ]);
  });
});
