// Test support: a fresh, migrated database per test file (never a shared or in-memory one, so
// tests exercise the same migrations and constraints as production). SQLite by default: a temp
// file. With SOLSERVER_TEST_POSTGRES_URL set (a PostgreSQL server's admin URL, e.g.
// postgresql://postgres@127.0.0.1:55432/postgres), a new PostgreSQL database per test file,
// copied from a template migrated once per set of migrations (postgres-test-databases.ts).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TCfbDraft } from "@solserver/contracts";
import { migrateDatabase } from "./client";
import { testPostgresUrl } from "./env";
import { createPostgresTestDatabase } from "./postgres-test-databases";

export { sqlDriverOf } from "./client";
export { siblingUrl as databaseUrlOn } from "./dialect/postgres/database-url";
/** SQL templates for a test that plays another connection's transaction (sqlDriverOf). */
export { Prisma } from "./generated/prisma/client";
export { withPostgresAdmin } from "./postgres-test-databases";

export type TTestDatabase = {
  url: string;
  /** A temp folder of the test's own (the SQLite file lives there). */
  dir: string;
  /** "sqlite" or "postgresql": the database product the suite runs on. */
  dialect: "sqlite" | "postgresql";
  cleanup: () => Promise<void>;
};

/** The admin URL of the PostgreSQL server tests run on, or null (SQLite). */
export { testPostgresUrl };

export async function createTestDatabase(label = "test"): Promise<TTestDatabase> {
  const dir = mkdtempSync(path.join(tmpdir(), `solserver-${label}-`));
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  const admin = testPostgresUrl();
  if (admin) {
    const pg = await createPostgresTestDatabase(admin, label);
    return {
      url: pg.url,
      dir,
      dialect: "postgresql",
      cleanup: async () => {
        removeDir();
        await pg.drop();
      },
    };
  }
  const url = `file:${path.join(dir, "test.db")}`;
  await migrateDatabase(url);
  return { url, dir, dialect: "sqlite", cleanup: async () => removeDir() };
}

/**
 * Benchmarks and tests: fills the queue with `count` more proposals, copies of the existing ones
 * (same responses and threads, new ids and suggestion indexes) spread over statuses, decisions,
 * domains, confidences and a year of creation times. Deterministic.
 */
export async function cloneProposals(db: import("./client").DbClient, count: number): Promise<number> {
  const { sqlDriverOf } = await import("./client");
  const { Prisma } = await import("./generated/prisma/client");
  const { recountProposals } = await import("./repositories/proposal-counts");
  const driver = sqlDriverOf(db);
  const sources = await driver.query<Record<string, unknown>>(Prisma.sql`SELECT * FROM "UmbraProposal"`);
  if (sources.length === 0) throw new Error("cloneProposals: no proposal to copy; record a turn first");
  const statuses = ["pending", "pending", "pending", "approved", "rejected"];
  const decisions = ["create", "update", "review", "merge", null];
  const domains = ["ops", "security", "data", "product", "solserver"];
  const start = Date.UTC(2025, 10, 22);
  const CHUNK = 400;
  await driver.transaction(async (tx) => {
    for (let from = 0; from < count; from += CHUNK) {
      const rows = [];
      for (let i = from; i < Math.min(count, from + CHUNK); i++) {
        const s = sources[i % sources.length] as Record<string, unknown>;
        rows.push(
          Prisma.sql`(${`UP-${9_000_000 + i}`}, ${s.responseId}, ${s.threadId}, ${1000 + i}, ${s.op},
            ${s.targetCfbId}, ${s.warnings}, ${`${s.title} #${i}`}, ${s.deltaSummary}, ${s.proposedCfb}, ${s.rationale},
            ${((i * 37) % 100) / 100}, ${s.fingerprint}, ${statuses[i % statuses.length]}, ${domains[i % domains.length]},
            ${decisions[(i >> 1) % decisions.length] ?? null}, ${9_000_000 + i},
            ${new Date(start + ((i * 7919) % 31_536_000) * 1000)})`,
        );
      }
      await tx.execute(Prisma.sql`INSERT INTO "UmbraProposal" ("id", "responseId", "threadId", "suggestionIndex", "op",
          "targetCfbId", "warnings", "title", "deltaSummary", "proposedCfb", "rationale", "confidence", "fingerprint",
          "status", "domain", "latestDecision", "seq", "createdAt") VALUES ${Prisma.join(rows)}`);
    }
    // A bulk copy bypasses the writers that keep the queue's counts: count again, once.
    await recountProposals(tx);
  });
  return count;
}

/**
 * The review queue's stored counts (ProposalCount) that differ from a full recount of the
 * proposals, as "owner/kind: stored N, counted M" (empty: exact). Counted without the code that
 * keeps them: every proposal read with its thread's owner, and classified here.
 */
export async function proposalCountDrift(db: import("./client").DbClient): Promise<string[]> {
  const proposals = await db.umbraProposal.findMany({
    select: { status: true, twinOfId: true, echo: true, thread: { select: { ownerId: true } } },
  });
  const counted = new Map<string, number>();
  for (const p of proposals) {
    const kind = p.status !== "pending" || p.twinOfId === null ? p.status : p.echo ? "echo" : "twin";
    const key = `${p.thread.ownerId ?? ""}/${kind}`;
    counted.set(key, (counted.get(key) ?? 0) + 1);
  }
  const stored = new Map(
    (await db.proposalCount.findMany({ select: { ownerKey: true, kind: true, n: true } })).map((r) => [
      `${r.ownerKey}/${r.kind}`,
      r.n,
    ]),
  );
  return [...new Set([...counted.keys(), ...stored.keys()])]
    .sort()
    .filter((key) => (stored.get(key) ?? 0) !== (counted.get(key) ?? 0))
    .map((key) => `${key}: stored ${stored.get(key) ?? 0}, counted ${counted.get(key) ?? 0}`);
}

/**
 * mulberry32: the one seeded PRNG of the tests and benchmarks (32-bit state, uniform in [0, 1)),
 * so generated cases and corpora are the same on every run and a failure reproduces.
 */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** How the database stores a timestamp, everywhere: ISO 8601 in UTC with milliseconds and +00:00. */
export const CANONICAL_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$/;

/**
 * Every stored timestamp that is not in the canonical form, as "Table.column = value" (empty: all
 * canonical). Timestamps are compared in SQL as they are stored, so one written in another form
 * (a column default's "YYYY-MM-DD HH:MM:SS") would sort wrongly; the tests run the product and
 * then ask this. The DateTime columns are read from prisma/schema.prisma.
 */
export async function nonCanonicalTimestamps(db: import("./client").DbClient): Promise<string[]> {
  const { readFileSync } = await import("node:fs");
  const { repositoryRoot } = await import("./database-url");
  const { sqlDriverOf } = await import("./client");
  const { Prisma } = await import("./generated/prisma/client");
  const schema = readFileSync(path.join(repositoryRoot(), "prisma", "schema.prisma"), "utf8");
  // Each model's DateTime columns, line by line ("model X {" … "}").
  const columns: [string, string][] = [];
  let model: string | null = null;
  for (const line of schema.split("\n")) {
    const opened = /^model (\w+) \{/.exec(line);
    if (opened) model = opened[1] as string;
    else if (line.startsWith("}")) model = null;
    const column = model ? /^[ \t]+(\w+)[ \t]+DateTime\??/.exec(line) : null;
    if (model && column) columns.push([model, column[1] as string]);
  }
  const sql = sqlDriverOf(db);
  const found: string[] = [];
  for (const [table, column] of columns) {
    const rows = await sql.query<{ value: unknown }>(
      Prisma.sql`SELECT ${Prisma.raw(`"${column}"`)} AS "value" FROM ${Prisma.raw(`"${table}"`)}
        WHERE ${Prisma.raw(`"${column}"`)} IS NOT NULL`,
    );
    for (const { value } of rows)
      if (typeof value !== "string" || !CANONICAL_TIMESTAMP.test(value))
        found.push(`${table}.${column} = ${String(value)}`);
  }
  return found;
}

/**
 * The one CFB draft factory of the tests and benchmarks: a heuristic, user-approved "ops" fact
 * with no text, tags, entities or sources unless given. Not curated knowledge by default (kind
 * authoritative or tier repo_adr: only Jam editors change those), so a user may approve updates
 * of it; suites that need other defaults pass them here rather than writing a draft out.
 */
export function testCfb(fields: Pick<TCfbDraft, "title" | "summary"> & Partial<TCfbDraft>): TCfbDraft {
  return {
    domain: "ops",
    kind: "heuristic",
    confidence: 0.9,
    text: null,
    tags: [],
    entities: [],
    trust_tier: "user_approved",
    source_refs: [],
    ...fields,
  };
}
