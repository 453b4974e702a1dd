// The PostgreSQL dialect's parts that need no server: the schema derived from prisma/schema.prisma,
// the dialect chosen by URL, typed parameters, canonical timestamps and safe tsquery text. What
// needs a server is in test/postgres/ (run when SOLSERVER_TEST_POSTGRES_URL is set).
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { expectedPostgresSchema } from "../scripts/postgres-schema";
import { dialectFor } from "../src/dialect";
import { tsAllWordsQuery } from "../src/dialect/postgres/fts";
import { canonicalTimestamp, postgresText } from "../src/dialect/postgres/native";
import { Prisma } from "../src/generated/prisma/client";

const ROOT = path.resolve(import.meta.dirname, "../../..");

describe("the PostgreSQL schema", () => {
  it("is derived from prisma/schema.prisma: the committed file is what pnpm db:generate writes", () => {
    const committed = readFileSync(path.join(ROOT, "prisma/postgres/schema.prisma"), "utf8");
    expect(committed).toBe(expectedPostgresSchema(ROOT));
    expect(committed).toContain('provider = "postgresql"');
    // Every DateTime is a timestamptz; the models and fields are the same.
    const sqlite = readFileSync(path.join(ROOT, "prisma/schema.prisma"), "utf8");
    const dateTimes = (text: string) => text.match(/^\s+\w+\s+DateTime\??/gm)?.length ?? 0;
    expect(committed.match(/@db\.Timestamptz\(3\)/g)?.length).toBe(dateTimes(sqlite));
    expect(committed.match(/^model \w+/gm)).toEqual(sqlite.match(/^model \w+/gm));
  });

  it("chooses the dialect by URL and names the rule for a bad one", () => {
    expect(dialectFor("file:./x.db").name).toBe("sqlite");
    expect(dialectFor("postgresql://u@localhost:5432/app").name).toBe("postgresql");
    expect(dialectFor("postgres://u@localhost/app").name).toBe("postgresql");
    expect(() => dialectFor("postgresql://u@localhost/")).toThrow(/DATABASE_URL: names no database/);
    expect(() => dialectFor("mysql://u@localhost/app")).toThrow(
      /DATABASE_URL: must be a SQLite file: URL .* or a PostgreSQL URL/,
    );
  });

  it("types the parameters PostgreSQL cannot infer, and leaves strings to their context", () => {
    const when = new Date("2026-11-27T05:00:00.000Z");
    const statement = Prisma.sql`SELECT CASE WHEN ${1} > 0 THEN ${when} ELSE ${when} END, ${0.5}, ${true}, ${"t"}, ${Buffer.from("x")}`;
    expect(postgresText(statement)).toBe(
      "SELECT CASE WHEN $1::int8 > 0 THEN $2::timestamptz ELSE $3::timestamptz END, $4::float8, $5::boolean, $6, $7::bytea",
    );
    expect(canonicalTimestamp("2026-11-27 05:00:00.12+00")).toBe("2026-11-27T05:00:00.120+00:00");
    expect(canonicalTimestamp("2026-11-27 07:00:00+02")).toBe("2026-11-27T05:00:00.000+00:00");
  });

  it("searches words as lexemes only: no user text is tsquery syntax", () => {
    expect(tsAllWordsQuery("Pump & 'relay' | !fuse:*")).toBe("'pump' & 'relay' & 'fuse':*");
    expect(tsAllWordsQuery("  &|!  ")).toBeNull();
    expect(tsAllWordsQuery("Čerpadlo vody")).toBe("'čerpadlo' & 'vody':*");
  });
});
