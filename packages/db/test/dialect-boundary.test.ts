// The dialect boundary (packages/db/README.md): everything only SQLite understands lives under
// packages/db/src/dialect/sqlite/. This test reads every source file of the product outside that
// folder (comments stripped) and fails on a SQLite construct, so the PostgreSQL dialect can plug
// in at one seam. It also checks the scan itself: the constructs are found where they belong.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const SQLITE_DIALECT = path.join("packages", "db", "src", "dialect", "sqlite");
const SOURCES = ["packages", "apps"].flatMap((top) =>
  readdirSync(path.join(ROOT, top), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => path.join(top, d.name, "src")),
);

/** SQLite-only SQL and settings: the words a portable statement never needs. */
const SQLITE_CONSTRUCTS: readonly [string, RegExp][] = [
  ["rowid", /\browid\b/i],
  ["MATCH (FTS5)", /\bMATCH\b/],
  ["bm25(", /\bbm25\s*\(/i],
  ["PRAGMA", /\bPRAGMA\b/i],
  ["substr(", /\bsubstr\s*\(/i],
  ["strftime / julianday / datetime(", /(?<![.\w])(strftime|julianday|datetime)\s*\(/i],
  ["json_extract / json_each", /\bjson_(extract|each|array|object)\s*\(/i],
  ["INSERT OR REPLACE / IGNORE", /\bINSERT\s+OR\s+(REPLACE|IGNORE)\b/i],
  ["sqlite_master", /\bsqlite_(master|schema)\b/i],
  ["FTS5 tables", /\bUSING\s+(vec0|fts5)\b/i],
  ["better-sqlite3", /better-sqlite3/],
  ["unary + (planner hint)", /(\bsql`|\braw\(`|[\s(])\+(\$\{\w+\}(\.|`)|[a-z]+\.")/],
];

const POSTGRES_DIALECT = path.join("packages", "db", "src", "dialect", "postgres");

/** PostgreSQL-only SQL: casts, tsvector search, advisory locks, the pg driver. */
const POSTGRES_CONSTRUCTS: readonly [string, RegExp][] = [
  ["::type casts", /::(jsonb|timestamptz|int8|float8|boolean|bytea|vector|text)\b/],
  ["tsvector / tsquery", /\b(to_tsvector|to_tsquery|tsvector)\b/],
  ["advisory locks", /\bpg_advisory/],
  ["pg catalog", /\bpg_(class|database|namespace|stat_user_tables|total_relation_size)\b/],
  ["the pg driver", /from "pg"/],
];

function sourceFiles(dir: string): string[] {
  const full = path.join(ROOT, dir);
  let entries: string[];
  try {
    entries = readdirSync(full, { recursive: true, encoding: "utf8" });
  } catch {
    return [];
  }
  return entries
    .filter((f) => /\.(ts|tsx)$/.test(f) && !f.split(path.sep).includes("generated"))
    .map((f) => path.join(dir, f));
}

/** The code of a file without its comments (line and block), so prose may name SQLite freely. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
}

const files = SOURCES.flatMap(sourceFiles);

describe("SQLite stays behind the dialect boundary", () => {
  it("scans the product's sources, and finds the constructs inside the SQLite dialect", () => {
    expect(files.length).toBeGreaterThan(150);
    const inside = files.filter((f) => f.startsWith(SQLITE_DIALECT));
    expect(inside.length).toBeGreaterThan(4);
    const found = new Set(
      inside.flatMap((f) => {
        const text = code(readFileSync(path.join(ROOT, f), "utf8"));
        return SQLITE_CONSTRUCTS.filter(([, re]) => re.test(text)).map(([name]) => name);
      }),
    );
    for (const name of ["rowid", "MATCH (FTS5)", "PRAGMA", "better-sqlite3", "unary + (planner hint)"])
      expect(found).toContain(name);
  });

  it("finds none anywhere else", () => {
    const offences = files
      .filter((f) => !f.startsWith(SQLITE_DIALECT))
      .flatMap((f) => {
        const text = code(readFileSync(path.join(ROOT, f), "utf8"));
        return SQLITE_CONSTRUCTS.filter(([, re]) => re.test(text)).map(([name]) => `${f}: ${name}`);
      });
    expect(offences).toEqual([]);
  });
});

describe("PostgreSQL stays behind the dialect boundary", () => {
  // The test support that makes a database per test file is PostgreSQL's too.
  const own = (f: string) =>
    f.startsWith(POSTGRES_DIALECT) || f.endsWith(path.join("db", "src", "postgres-test-databases.ts"));

  it("finds its constructs inside the PostgreSQL dialect", () => {
    const found = new Set(
      files
        .filter(own)
        .flatMap((f) => POSTGRES_CONSTRUCTS.filter(([, re]) => re.test(code(readFileSync(path.join(ROOT, f), "utf8")))))
        .map(([name]) => name),
    );
    expect([...found].sort()).toEqual(POSTGRES_CONSTRUCTS.map(([name]) => name).sort());
  });

  it("finds none anywhere else", () => {
    const offences = files
      .filter((f) => !own(f))
      .flatMap((f) => {
        const text = code(readFileSync(path.join(ROOT, f), "utf8"));
        return POSTGRES_CONSTRUCTS.filter(([, re]) => re.test(text)).map(([name]) => `${f}: ${name}`);
      });
    expect(offences).toEqual([]);
  });
});
