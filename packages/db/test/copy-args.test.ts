// `pnpm db:copy` without a database server: its command line (parsed, and run as a command), the
// refusals that come before any database is opened, the table order, how stored values are read,
// and one SQLite-to-SQLite copy. The copy SQLite to PostgreSQL and back is tested thoroughly in
// test/postgres/copy.test.ts.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient, createRepositories, migrateDatabase } from "../src";
import {
  CopyRefusal,
  checkCopyUrls,
  copyDatabase,
  copyOrder,
  parseCopyArgs,
  storedDate,
  type TCopyTable,
} from "../src/copy";
import { defaultDatabaseUrl } from "../src/database-url";
import { testCfb } from "../src/testing";

const ROOT = path.resolve(import.meta.dirname, "../../..");

/** `node --import tsx packages/db/scripts/copy.ts …` from the repository root, as a user runs it. */
function runCli(args: string[]) {
  const { DATABASE_URL: _, ...env } = process.env;
  const run = spawnSync(process.execPath, ["--import", "tsx", "packages/db/scripts/copy.ts", ...args], {
    cwd: ROOT,
    env,
    encoding: "utf8",
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** The refusal `fn` throws: its exit code and message. */
function refusal(fn: () => unknown): { exitCode: number; message: string } {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(CopyRefusal);
    const { exitCode, message } = error as CopyRefusal;
    expect(message).not.toContain("\n");
    return { exitCode, message };
  }
  throw new Error("expected a refusal");
}

describe("parseCopyArgs", () => {
  const PG = "postgresql://app@db.internal:5432/solserver";

  it("takes --to and --from, in either order and with =", () => {
    expect(parseCopyArgs(["--to", PG, "--from", "file:a.db"], {})).toEqual({ help: false, to: PG, from: "file:a.db" });
    expect(parseCopyArgs([`--from=file:a.db`, `--to=${PG}`], {})).toEqual({ help: false, to: PG, from: "file:a.db" });
  });

  it("defaults --from to DATABASE_URL, else the default SQLite file", () => {
    expect(parseCopyArgs(["--to", PG], { DATABASE_URL: "file:/srv/app.db" })).toMatchObject({
      from: "file:/srv/app.db",
    });
    expect(parseCopyArgs(["--to", PG], {})).toMatchObject({ from: defaultDatabaseUrl() });
    expect(parseCopyArgs(["--to", PG], { DATABASE_URL: "" })).toMatchObject({ from: defaultDatabaseUrl() });
  });

  it("answers --help and -h, whatever else is given", () => {
    expect(parseCopyArgs(["--help"], {})).toEqual({ help: true });
    expect(parseCopyArgs(["-h", "--to", PG], {})).toEqual({ help: true });
  });

  it.each([
    [[], /^--to is required: /],
    [["--from", "file:a.db"], /^--to is required: /],
    [["--to"], /^--to needs a value: --to <database URL>$/],
    [["--to", PG, "--from"], /^--from needs a value/],
    [["--to", ""], /^--to is empty/],
    [["--to", PG, "--from", " "], /^--from is empty/],
    [["--to", PG, "--to", "file:b.db"], /^--to is given 2 times/],
    [["--to", PG, "--force"], /^--force is not an option of db:copy \(it takes --to, --from and --help\)$/],
    [["-x"], /^-x is not an option of db:copy/],
    [["--help=yes"], /^--help takes no value$/],
    [[PG], /^unexpected argument 'postgresql:\/\/app@db\.internal:5432\/solserver': name the databases with --to/],
  ])("refuses %j with exit code 2, naming the option", (argv, message) => {
    const r = refusal(() => parseCopyArgs(argv as string[], {}));
    expect(r.exitCode).toBe(2);
    expect(r.message).toMatch(message);
  });
});

describe("checkCopyUrls", () => {
  it("refuses URLs this build cannot open, naming the option", () => {
    expect(refusal(() => checkCopyUrls("file:a.db", "mysql://db/solserver")).message).toMatch(
      /^--to must be a SQLite file: URL .* or a PostgreSQL URL/,
    );
    expect(refusal(() => checkCopyUrls("postgresql://db.internal", "file:b.db")).message).toMatch(
      /^--from names no database/,
    );
  });

  it("refuses one database given twice, however it is spelled", () => {
    for (const [from, to] of [
      ["file:/srv/data/app.db", "file:///srv/data/app.db"],
      ["file:/srv/data/app.db", "file:/srv/data/../data/app.db"],
      ["postgresql://a:secret@DB.internal/solserver", "postgres://b@db.internal:5432/solserver?sslmode=require"],
    ])
      expect(refusal(() => checkCopyUrls(from as string, to as string))).toMatchObject({
        exitCode: 2,
        message: expect.stringMatching(/^--from and --to name the same database/),
      });
    expect(() => checkCopyUrls("postgresql://db.internal/a", "postgresql://db.internal/b")).not.toThrow();
    expect(() => checkCopyUrls("postgresql://db.internal:5433/a", "postgresql://db.internal/a")).not.toThrow();
  });
});

describe("the db:copy command", () => {
  it("prints its usage for --help (exit 0), saying the copy is one transaction", () => {
    const run = runCli(["--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: pnpm db:copy --to <database URL> \[--from <database URL>\]/);
    expect(run.stdout).toContain("ONE transaction on the target");
    expect(run.stderr).toBe("");
  });

  it("refuses a missing --to with exit code 2 and one line on stderr", () => {
    const run = runCli(["--from", "file:/nowhere/app.db"]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^db:copy: --to is required: [^\n]*\n$/);
  });
});

describe("copyDatabase before it opens anything", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "solserver-copy-args-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("refuses a --from SQLite file that does not exist, creating neither file", async () => {
    const from = path.join(dir, "missing.db");
    const to = path.join(dir, "target.db");
    await expect(copyDatabase({ from: `file:${from}`, to: `file:${to}` })).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(/^--from names a database that does not exist \(.*missing\.db\)/),
    });
    expect(existsSync(from)).toBe(false);
    expect(existsSync(to)).toBe(false);
  });
});

describe("copyDatabase from SQLite to SQLite", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "solserver-copy-sqlite-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("copies a database into a new file, then refuses to copy into it again (exit 3)", async () => {
    const from = `file:${path.join(dir, "from.db")}`;
    const to = `file:${path.join(dir, "to.db")}`;
    await migrateDatabase(from);
    const source = await createPrismaClient(from);
    try {
      const repos = createRepositories(source);
      const ids = await repos.cfbs.import([1, 2, 3].map((i) => testCfb({ title: `Fact ${i}`, summary: "Ünïcode ✓" })));
      await repos.cfbs.merge(
        {
          survivorId: ids[0] as string,
          survivorVersion: 1,
          mergedId: ids[1] as string,
          mergedVersion: 1,
          draft: testCfb({ title: "Facts 1 and 2", summary: "Merged." }),
        },
        { actorUserId: null, actorEmail: "cli", via: "cli" },
      );
    } finally {
      await source.$disconnect();
    }
    const lines: string[] = [];
    const result = await copyDatabase({ from, to, log: (l) => lines.push(l) });
    expect(result.tables.find((t) => t.table === "Cfb")?.rows).toBe(3);
    expect(lines).toContain("Cfb: 3 rows (18/39 tables)");
    const target = await createPrismaClient(to);
    try {
      const cfbs = await target.cfb.findMany({
        orderBy: { id: "asc" },
        select: { id: true, summary: true, mergedIntoId: true },
      });
      expect(cfbs).toEqual([
        { id: "CFB-0001", summary: "Merged.", mergedIntoId: null },
        { id: "CFB-0002", summary: "Ünïcode ✓", mergedIntoId: "CFB-0001" },
        { id: "CFB-0003", summary: "Ünïcode ✓", mergedIntoId: null },
      ]);
    } finally {
      await target.$disconnect();
    }
    await expect(copyDatabase({ from, to })).rejects.toMatchObject({
      exitCode: 3,
      message: expect.stringMatching(/^--to already holds data \(table "IdSequence": 1 row\)/),
    });
  });
});

describe("copyOrder", () => {
  const table = (name: string): TCopyTable => ({ model: name, table: name, columns: [{ name: "id", type: "String" }] });
  const tables = ["Response", "Thread", "Packet", "Node", "Audit"].map(table);

  it("puts every table after the tables it references, schema order otherwise", () => {
    const order = copyOrder(tables, [
      { table: "Response", column: "packetId", references: "Packet" },
      { table: "Packet", column: "threadId", references: "Thread" },
      { table: "Packet", column: "threadId2", references: "Thread" },
      { table: "Node", column: "parentId", references: "Node" },
      // References to tables that are not copied (a side table's key) do not constrain the order.
      { table: "CfbSearch", column: "cfbId", references: "Response" },
      { table: "Audit", column: "x", references: "_prisma_migrations" },
    ]);
    expect(order.map((s) => s.table)).toEqual(["Thread", "Packet", "Response", "Node", "Audit"]);
    expect(order.find((s) => s.table === "Node")?.selfReferences).toEqual(["parentId"]);
    expect(order.find((s) => s.table === "Packet")?.selfReferences).toEqual([]);
  });

  it("refuses references that go round in a circle, naming the tables", () => {
    expect(() =>
      copyOrder(tables, [
        { table: "Thread", column: "lastPacketId", references: "Packet" },
        { table: "Packet", column: "threadId", references: "Thread" },
      ]),
    ).toThrow(/the foreign keys of Thread, Packet reference each other in a circle/);
  });
});

describe("storedDate", () => {
  it("reads every form a timestamp is stored in as the same instant", () => {
    const instant = "2026-11-27T05:00:00.120Z";
    for (const stored of [
      "2026-11-27T05:00:00.120+00:00",
      "2026-11-27T05:00:00.12Z",
      "2026-11-27T06:00:00.120+01:00",
      // No zone: UTC, as Prisma and SQLite write it, never the machine's local time.
      "2026-11-27 05:00:00.120",
      "2026-11-27T05:00:00.120",
      Date.parse(instant),
      new Date(instant),
    ])
      expect(storedDate(stored).toISOString(), String(stored)).toBe(instant);
    expect(storedDate("2026-11-27").toISOString()).toBe("2026-11-27T00:00:00.000Z");
  });

  it("refuses text that is no timestamp", () => {
    expect(() => storedDate("next tuesday")).toThrow(/not a timestamp: "next tuesday"/);
  });
});
