// `pnpm db:copy` from an existing SQLite file into a new PostgreSQL database (the way a team moves
// off one machine), and back into a new SQLite file: every row of every table arrives field by
// field, the target's own derived data (search index, candidate-index log, sequences) works, and
// the command refuses what would harm data. Included only when SOLSERVER_TEST_POSTGRES_URL names
// a server (vitest.config.ts). The source is a SQLite file made here: createTestDatabase would
// make a PostgreSQL database in this run.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient, createRepositories, type DbClient } from "../../src";
import { migrateDatabase, sqlDriverOf } from "../../src/client";
import {
  CopyRefusal,
  copyDatabase,
  copySupportFor,
  copyTable,
  runtimeModels,
  type TCopyResult,
  tableShapes,
} from "../../src/copy";
import { dialectFor } from "../../src/dialect";
import { siblingUrl } from "../../src/dialect/postgres/database-url";
import { Prisma } from "../../src/generated/prisma/client";
import { testCfb, testPostgresUrl } from "../../src/testing";

const ROOT = path.resolve(import.meta.dirname, "../../../..");
const admin = testPostgresUrl() as string;
const EDITOR = { actorUserId: "user-jam", actorEmail: "jam@example.com", via: "cookie" as const };

let dir: string;
let sourceUrl: string;
const databases: string[] = [];

/** A new database name on the test server (dropped after the file), and its URL. */
function newPostgresUrl(label: string): string {
  const name = `solserver_copy_${label}_${randomBytes(4).toString("hex")}`;
  databases.push(name);
  return siblingUrl(admin, name);
}

async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** `node --import tsx packages/db/scripts/copy.ts …` from the repository root, as a user runs it. */
function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env };
    delete env.DATABASE_URL;
    const child = spawn(process.execPath, ["--import", "tsx", "packages/db/scripts/copy.ts", ...args], {
      cwd: ROOT,
      env,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** A value as both clients should agree on it: dates as ISO text, bytes as hex. */
function normal(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return `bytes:${Buffer.from(value).toString("hex")}`;
  if (Array.isArray(value)) return value.map(normal);
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normal(v)]));
  return value;
}

const delegate = (db: DbClient, model: string) =>
  (db as unknown as Record<string, { findMany(): Promise<Record<string, unknown>[]> }>)[
    model[0]?.toLowerCase() + model.slice(1)
  ] as { findMany(): Promise<Record<string, unknown>[]> };

/** Every row of every model but CfbChange, through Prisma, normalised and in primary-key order. */
async function snapshot(db: DbClient, url: string): Promise<Record<string, unknown[]>> {
  const shapes = await tableShapes(copySupportFor(url), sqlDriverOf(db));
  const out: Record<string, unknown[]> = {};
  for (const model of Object.keys(runtimeModels(db))) {
    if (model === "CfbChange" || model === "WorkLease" || model === "Job") continue;
    const key = shapes.get(model)?.primaryKey ?? [];
    expect(key.length, `${model} has a primary key`).toBeGreaterThan(0);
    const rows = (await delegate(db, model).findMany()).map((r) => normal(r) as Record<string, unknown>);
    const keyOf = (r: Record<string, unknown>) => JSON.stringify(key.map((k) => r[k]));
    out[model] = rows.sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
  }
  return out;
}

async function countOf(db: DbClient, table: string): Promise<number> {
  const [row] = await sqlDriverOf(db).query<{ n: number }>(
    Prisma.sql`SELECT COUNT(*) AS "n" FROM ${Prisma.raw(`"${table}"`)}`,
  );
  return Number(row?.n);
}

const vector = (...xs: number[]) => new Uint8Array(Float32Array.from(xs).buffer);

/**
 * A SQLite database as a team's would be after a while: accounts, CFBs written every way (created,
 * imported, edited, merged, retired), a chat turn with its whole trail, proposals and decisions,
 * embeddings, workflows and their schedule; unicode text, nulls, JSON null and nested JSON.
 */
async function fillSource(db: DbClient): Promise<void> {
  const repos = createRepositories(db);
  const t0 = new Date("2026-01-02T03:04:05.678Z");
  await db.user.create({
    data: { id: "user-jam", name: "Jam Ëditor ✓", email: "jam@example.com", emailVerified: true, role: "jam" },
  });
  await db.user.create({ data: { id: "user-ann", name: "Ann", email: "ann@example.com", image: null } });
  await db.session.create({
    data: {
      id: "s1",
      expiresAt: t0,
      token: "tok-1",
      createdAt: t0,
      updatedAt: t0,
      userId: "user-ann",
      ipAddress: "::1",
    },
  });
  await db.account.create({
    data: {
      id: "a1",
      accountId: "ann",
      providerId: "credential",
      userId: "user-ann",
      password: "scrypt$…",
      accessTokenExpiresAt: t0,
      createdAt: t0,
      updatedAt: t0,
    },
  });
  await db.verification.create({ data: { id: "v1", identifier: "ann@example.com", value: "123", expiresAt: t0 } });
  await repos.accounts.createToken(
    {
      userId: "user-jam",
      name: "CI bot",
      prefix: "sol_ab",
      tokenHash: "f".repeat(64),
      createdById: "user-jam",
      expiresAt: new Date(t0.getTime() + 90 * 86_400_000),
    },
    { ...EDITOR, action: "token.create" },
  );
  await repos.rateLimits.hit("turn:user-ann", { windowMs: 60_000, max: 10, now: t0 });

  // CFBs: one created with an audit event, many imported (ids CFB-0002 …), then changed.
  const first = await repos.cfbs.create(
    testCfb({
      title: "Grüße aus Köln: 東京 deploy window",
      summary: "Deploys wait for the ✓ from ops.",
      text: "Multi-line\ntext with 'quotes' and \"double\" ones.",
      tags: ["deploy", "ünïcode"],
      entities: ["Köln", "東京"],
      source_refs: ["ADR-7"],
      kind: "authoritative",
      trust_tier: "repo_adr",
      confidence: 1,
    }),
    EDITOR,
  );
  const imported = await repos.cfbs.import(
    Array.from({ length: 40 }, (_, i) =>
      testCfb({
        title: `Runbook step ${i}`,
        summary: `Step ${i} of the runbook.`,
        domain: i % 3 === 0 ? "data" : "ops",
        tags: i % 2 ? [`t${i}`] : [],
        text: i % 4 ? null : `Details ${i}`,
        confidence: 0.25 + i / 100,
      }),
    ),
  );
  const [a, b, c] = imported as [string, string, string];
  const edited = await repos.cfbs.update(
    a,
    1,
    testCfb({ title: "Runbook step 0, edited", summary: "Edited once.", tags: ["edited"] }),
    EDITOR,
  );
  await repos.cfbs.merge(
    {
      survivorId: edited.cfb_id,
      survivorVersion: edited.version,
      mergedId: b,
      mergedVersion: 1,
      draft: testCfb({ title: "Runbook steps 0 and 1", summary: "Merged.", tags: ["edited", "t1"] }),
    },
    EDITOR,
  );
  await repos.cfbs.setRetired(c, 1, true, EDITOR);

  // One chat turn with its whole trail: thread, packet, messages, transmission, attempts,
  // response and meta, proposals, usage, trace, memento.
  const stored = await repos.turns.record({
    callerId: "user-ann",
    ownerId: "user-ann",
    mayWriteAnyThread: false,
    requestId: "req-1",
    requestHash: "h".repeat(64),
    threadId: "thread-1",
    threadTitle: "Wann ist das Deploy-Fenster? 🚀",
    userMessageId: "msg-1",
    message: "When is the deploy window?",
    historyMessageIds: [],
    modeLabel: "System",
    routerDomain: "ops",
    model: "test-model",
    tokensIn: 120,
    tokensOut: null,
    latencyMs: 42,
    assistantText: "Deploys wait for ops.",
    meta: {
      modeLabel: "System",
      domainHints: ["ops"],
      used_cfb_ids: [first.cfb_id],
      ignored_cfb_ids: [],
      assumptions: [{ id: "as-1", text: "Times are UTC ⏰", severity: "low" }],
      unknowns: [],
      missing_cfb_queries: ["rollback window"],
      cfb_suggestions: [],
    },
    proposals: [
      {
        suggestionIndex: 0,
        op: "create",
        targetCfbId: null,
        title: "Rollback window",
        deltaSummary: "A new fact about rollbacks.",
        proposedCfb: { title: "Rollback window", summary: null, text: null, tags: [], entities: [], domain: "ops" },
        rationale: null,
        confidence: 0.7,
        fingerprint: "fp-rollback",
        warnings: [],
      },
    ],
    usage: { used: [first.cfb_id], ignored: [c], injected: [first.cfb_id, c] },
    trace: [{ actor: "router", phase: "route", status: "completed", summary: "ops", metadata: { score: 0.5 }, at: t0 }],
    attempts: [
      { n: 1, model: "test-model", tokensIn: 120, tokensOut: null, latencyMs: 42, outcome: "ok", reason: null },
    ],
    gate: [],
    memento: { expectedVersion: null, payload: { summary: "Deploy talk", open: [], nested: { a: [1, null] } } },
    claimCheck: null,
  });
  if (stored === "duplicate") throw new Error("the turn was stored twice");
  const proposalId = stored.proposals[0]?.proposal_id as string;

  // The rest through Prisma: every remaining table, nullable fields both set and null.
  await db.umbraResolveDecision.create({
    data: {
      id: "rd-1",
      proposalId,
      fingerprint: "fp-rollback",
      decision: "review",
      mergeCfbIds: Prisma.DbNull,
      scores: [{ cfb_id: first.cfb_id, score: 0.42 }],
      reasonCodes: ["low_score"],
      hysteresis: true,
      modelOp: "create",
    },
  });
  await db.promotionEvent.create({
    data: {
      id: "PE-0001",
      proposalId,
      responseId: stored.responseId,
      packetId: stored.packetId,
      transmissionId: stored.transmissionId,
      action: "reject",
      editor: "jam",
      decidedById: "user-jam",
      overrides: Prisma.JsonNull,
      reopenedAt: t0,
      reason: "Not ours to decide — ask Ünal.",
    },
  });
  await db.proposalComment.create({
    data: { id: "PC-0001", proposalId, authorId: "user-jam", kind: "request_changes", body: "Welche Zeitzone? 🕘" },
  });
  await db.umbraProposal.update({ where: { id: proposalId }, data: { assigneeId: "user-jam" } });
  await db.humanFeedback.createMany({
    data: [
      { id: "fb-1", responseId: stored.responseId, cfbId: first.cfb_id, polarity: "positive", comment: "👍 genau" },
      { id: "fb-2", responseId: stored.responseId, cfbId: null, polarity: "negative", tag: "wrong" },
    ],
  });
  await db.coverageGap.create({
    data: { id: "gap-1", routerDomain: "ops", kind: "missing_cfb_query", key: "rollback window", count: 3 },
  });
  await db.repetitionCounter.create({
    data: {
      id: "rep-1",
      kind: "missing_query",
      routerDomain: "ops",
      key: "rollback",
      label: "Rollback?",
      count: 5,
      triggeredAt: t0,
    },
  });
  await db.gateEvaluation.createMany({
    data: [
      {
        id: "gate-1",
        source: "turn",
        actorId: "user-ann",
        threadId: "thread-1",
        transmissionId: stored.transmissionId,
        attemptN: 1,
        delivered: true,
        mode: "lite",
        strict: false,
        status: "ALLOW",
        reasons: [],
        reasonCodes: [],
        metrics: { drift: 0.125, length: 42 },
        policies: [{ id: "p1", passed: true }],
      },
      {
        id: "gate-2",
        source: "api",
        mode: "full",
        strict: true,
        delivered: null,
        status: "BLOCK",
        reasons: ["contradiction"],
        reasonCodes: ["C1"],
        metrics: {},
        policies: [],
      },
    ],
  });
  await db.conversationContext.create({
    data: { threadId: "thread-1", systemId: "sys-1", state: { steps: [{ id: 1, done: false }] } },
  });
  await db.workflowRun.create({
    data: {
      id: "WR-0001",
      name: "umbra-beat",
      definition: "steps: []\n",
      status: "done",
      state: { ok: true },
      startedVia: "cli",
      finishedAt: t0,
    },
  });
  await db.workflowArtifact.create({
    data: { id: "art-1", runId: "WR-0001", path: "summary.md", content: "# Beat\n✓" },
  });
  await db.workflowSchedule.create({
    data: {
      workflow: "umbra-beat",
      enabled: true,
      cadence: "weekly",
      timeOfDay: "06:30",
      weekday: 1,
      nextRunAt: t0,
      updatedAt: t0,
    },
  });
  await db.workflowScheduleRun.create({
    data: { id: "wsr-1", workflow: "umbra-beat", dueAt: t0, outcome: "started", runId: "WR-0001" },
  });
  await db.resolveRule.create({
    data: {
      id: "RR-0001",
      rule: { weights: { text: 0.5 } },
      active: true,
      fittedOn: 40,
      checkedOn: 10,
      agreementBefore: 0.7,
      agreementAfter: 0.9,
      createdById: "user-ann",
      createdAt: t0,
    },
  });
  await db.routingExample.create({
    data: {
      id: "RX-0001",
      domain: "ops",
      text: "who is on call tonight",
      source: "manual",
      createdById: "user-ann",
      createdAt: t0,
    },
  });
  // Bytes: two models' vectors for five CFBs (a two-column primary key, across read batches).
  for (const [i, cfbId] of [first.cfb_id, ...imported.slice(3, 7)].entries())
    for (const model of ["mini", "large"])
      await db.cfbEmbedding.create({
        data: { cfbId, model, version: 1, dims: 3, vector: vector(i, -0.5, model === "mini" ? 1e-7 : 3.25) },
      });
}

// Every PostgreSQL database the file made, once all its tests are done.
afterAll(async () => {
  await withAdmin(async (client) => {
    for (const name of databases) await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });
});

describe("db:copy from SQLite to PostgreSQL and back", () => {
  let source: DbClient;
  let target: DbClient;
  let targetUrl: string;
  let expected: Record<string, unknown[]>;
  let result: TCopyResult;
  const progress: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "solserver-copy-"));
    sourceUrl = `file:${path.join(dir, "source.db")}`;
    await migrateDatabase(sourceUrl);
    source = await createPrismaClient(sourceUrl);
    await fillSource(source);
    expected = await snapshot(source, sourceUrl);
    targetUrl = newPostgresUrl("target");
    // Small read batches, so keyset paging crosses batches in every table with more than 7 rows.
    result = await copyDatabase({ from: sourceUrl, to: targetUrl, log: (l) => progress.push(l), batchRows: 7 });
    target = await createPrismaClient(targetUrl);
  }, 120_000);

  afterAll(async () => {
    await source?.$disconnect();
    await target?.$disconnect();
    rmSync(dir, { recursive: true, force: true });
  });

  it("the source holds rows in every table it copies (so the comparison below covers them all)", () => {
    const empty = Object.entries(expected)
      .filter(([, rows]) => rows.length === 0)
      .map(([model]) => model);
    expect(empty).toEqual([]);
    expect(Object.keys(expected)).toHaveLength(39);
  });

  it("copies every row of every table, field by field, and skips what the target derives", async () => {
    expect(await snapshot(target, targetUrl)).toEqual(expected);
    const copied = result.tables.map((t) => t.table);
    expect(copied).toHaveLength(39);
    expect(copied).not.toContain("CfbChange");
    expect(copied).not.toContain("WorkLease");
    expect(copied).not.toContain("Job");
    expect(copied).not.toContain("_prisma_migrations");
    for (const { table, rows } of result.tables) expect(rows, table).toBe(expected[table]?.length);
    expect(result.rows).toBe(Object.values(expected).reduce((n, rows) => n + rows.length, 0));
    expect(result.migrationsApplied).toBeGreaterThan(0);
  });

  it("keeps the merged CFB pointing at its survivor, and the retired one retired", async () => {
    const merged = await target.cfb.findUnique({ where: { id: "CFB-0003" } });
    expect(merged?.mergedIntoId).toBe("CFB-0002");
    expect((await target.cfb.findUnique({ where: { id: "CFB-0004" } }))?.retiredAt).toBeInstanceOf(Date);
    const vectors = await target.cfbEmbedding.findUnique({
      where: { cfbId_model: { cfbId: "CFB-0001", model: "mini" } },
    });
    expect(Array.from(new Float32Array(Uint8Array.from(vectors?.vector ?? []).buffer))).toEqual([
      0,
      -0.5,
      Math.fround(1e-7),
    ]);
  });

  it("reports progress per table in the order foreign keys need, then the verification", () => {
    expect(progress[0]).toMatch(
      /^copying .*source\.db into postgresql:\/\/postgres@127\.0\.0\.1:\d+\/solserver_copy_target_/,
    );
    expect(progress).toContain("Cfb: 41 rows (18/39 tables)");
    expect(progress).toContain(`IdSequence: ${expected.IdSequence?.length} rows (1/39 tables)`);
    const at = (table: string) => progress.findIndex((l) => l.startsWith(`${table}: `));
    for (const [child, parent] of [
      ["Session", "User"],
      ["CfbRevision", "Cfb"],
      ["Response", "DeliveryAttempt"],
      ["UmbraProposal", "Response"],
      ["PromotionEvent", "UmbraProposal"],
      ["ProposalComment", "UmbraProposal"],
      ["WorkflowScheduleRun", "WorkflowSchedule"],
    ] as const)
      expect(at(child), `${child} after ${parent}`).toBeGreaterThan(at(parent));
    expect(progress.at(-1)).toBe("verified: the row counts of all 39 tables match; the search index holds all 41 CFBs");
  });

  it("leaves the target's search index whole and its change log one entry per CFB", async () => {
    const health = await dialectFor(targetUrl).textIndexHealth(sqlDriverOf(target));
    expect(health).toMatchObject({ cfbs: 41, indexed: 41, ok: true });
    expect(await countOf(target, "CfbChange")).toBe(41);
    const repos = createRepositories(target);
    const found = await repos.cfbs.list({ query: "köln", limit: 10 });
    expect(found.items.map((c) => c.cfb_id)).toEqual(["CFB-0001"]);
  });

  it("gives a CFB created on the target the next id, and its change-log entry the next seq", async () => {
    const [before] = await sqlDriverOf(target).query<{ seq: number }>(
      Prisma.sql`SELECT MAX("seq") AS "seq" FROM "CfbChange"`,
    );
    const repos = createRepositories(target);
    const created = await repos.cfbs.create(testCfb({ title: "Written after the move", summary: "New." }));
    expect(created.cfb_id).toBe("CFB-0042");
    const [entry] = await sqlDriverOf(target).query<{ seq: number; cfbId: string }>(
      Prisma.sql`SELECT "seq", "cfbId" FROM "CfbChange" ORDER BY "seq" DESC LIMIT 1`,
    );
    expect(entry).toEqual({ seq: Number(before?.seq) + 1, cfbId: "CFB-0042" });
    // And the next turn's ids follow the copied ones.
    const [sequence] = await sqlDriverOf(target).query<{ value: number }>(
      Prisma.sql`SELECT "value" FROM "IdSequence" WHERE "name" = 'cfb'`,
    );
    expect(Number(sequence?.value)).toBe(42);
  });

  it("refuses a target that holds rows (exit 3), writing nothing, as a real command", async () => {
    const counts = async () => ({ cfb: await countOf(target, "Cfb"), log: await countOf(target, "CfbChange") });
    const before = await counts();
    const run = await runCli(["--from", sourceUrl, "--to", targetUrl]);
    expect(run.code).toBe(3);
    const lines = run.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^db:copy: --to already holds data \(table "IdSequence": \d+ rows\).*empty database/);
    expect(await counts()).toEqual(before);
  });

  it("refuses a --from SQLite file that does not exist without creating it (exit 2)", async () => {
    const missing = path.join(dir, "missing.db");
    const to = newPostgresUrl("never");
    await expect(copyDatabase({ from: `file:${missing}`, to })).rejects.toMatchObject({
      name: "CopyRefusal",
      exitCode: 2,
      message: expect.stringMatching(/^--from names a database that does not exist/),
    });
    expect(existsSync(missing)).toBe(false);
    const name = new URL(to).pathname.slice(1);
    const found = await withAdmin((client) => client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]));
    expect(found.rowCount).toBe(0);

    const run = await runCli(["--from", `file:${missing}`, "--to", `file:${path.join(dir, "never.db")}`]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(existsSync(missing)).toBe(false);
    expect(existsSync(path.join(dir, "never.db"))).toBe(false);
  });

  it("copies PostgreSQL back into a new SQLite file that matches the original (exit 0)", async () => {
    const backUrl = `file:${path.join(dir, "back.db")}`;
    // The target now also holds CFB-0042 (test above): compare against that.
    const now = await snapshot(target, targetUrl);
    const run = await runCli(["--to", backUrl, "--from", targetUrl]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^copying postgresql:\/\/.* into .*back\.db$/);
    expect(lines).toContain("Cfb: 42 rows (18/39 tables)");
    expect(lines.at(-1)).toMatch(/^copied \d{3} rows in 39 tables in \d+\.\d s$/);
    const back = await createPrismaClient(backUrl);
    try {
      expect(await snapshot(back, backUrl)).toEqual(now);
      expect((await dialectFor(backUrl).textIndexHealth(sqlDriverOf(back))).ok).toBe(true);
      // Without the CFB written on PostgreSQL, the round trip gives back the original.
      const original = { ...now, Cfb: now.Cfb?.filter((r) => (r as { id: string }).id !== "CFB-0042") };
      expect(original.Cfb).toEqual(expected.Cfb);
      expect(await countOf(back, "CfbChange")).toBe(42);
    } finally {
      await back.$disconnect();
    }
  });

  it("rolls everything back when a row cannot be copied: the target holds no rows", async () => {
    const brokenUrl = `file:${path.join(dir, "broken.db")}`;
    await migrateDatabase(brokenUrl);
    const broken = await createPrismaClient(brokenUrl);
    try {
      await createRepositories(broken).cfbs.create(testCfb({ title: "Fine", summary: "Copied first." }));
      // Text that is not JSON in a Json column (SQLite keeps whatever text it is given).
      await sqlDriverOf(broken).execute(
        Prisma.sql`INSERT INTO "WorkflowRun" ("id", "name", "definition", "status", "state", "startedVia", "createdAt", "updatedAt")
          VALUES ('WR-9', 'x', '', 'done', '{not json', 'cli', ${new Date()}, ${new Date()})`,
      );
    } finally {
      await broken.$disconnect();
    }
    const to = newPostgresUrl("rolled_back");
    await expect(copyDatabase({ from: brokenUrl, to })).rejects.toThrow(/"WorkflowRun"\."state" of row \(WR-9\)/);
    const after = await createPrismaClient(to);
    try {
      for (const table of ["Cfb", "CfbRevision", "IdSequence", "CfbChange", "CfbSearch"])
        expect(await countOf(after, table), table).toBe(0);
    } finally {
      await after.$disconnect();
    }
  });

  it("refuses bad arguments and one database twice before touching anything", async () => {
    await expect(copyDatabase({ from: sourceUrl, to: sourceUrl.replace("source.db", "./source.db") })).rejects.toThrow(
      CopyRefusal,
    );
    const same = await runCli(["--from", targetUrl, "--to", targetUrl.replace("postgres@", "postgres:secret@")]);
    expect(same.code).toBe(2);
    expect(same.stderr.trim()).toMatch(/^db:copy: --from and --to name the same database \(postgresql:\/\//);
  });
});

describe("db:copy's building blocks on scratch tables", () => {
  let scratchDir: string;
  let sqlite: DbClient;
  let postgres: DbClient;
  let postgresUrl: string;

  beforeAll(async () => {
    scratchDir = mkdtempSync(path.join(tmpdir(), "solserver-copy-scratch-"));
    // Plain databases, not migrated: only the tables each test makes.
    sqlite = await createPrismaClient(`file:${path.join(scratchDir, "scratch.db")}`);
    postgresUrl = newPostgresUrl("scratch");
    await withAdmin((client) => client.query(`CREATE DATABASE "${new URL(postgresUrl).pathname.slice(1)}"`));
    postgres = await createPrismaClient(postgresUrl);
  });
  afterAll(async () => {
    await sqlite?.$disconnect();
    await postgres?.$disconnect();
    rmSync(scratchDir, { recursive: true, force: true });
  });

  it("copies a table whose rows reference rows of the same table that come later in key order", async () => {
    const create = Prisma.sql`CREATE TABLE "Node" ("id" TEXT PRIMARY KEY, "label" TEXT NOT NULL,
      "parentId" TEXT REFERENCES "Node"("id"))`;
    await sqlDriverOf(sqlite).execute(create);
    await sqlDriverOf(postgres).execute(create);
    // a → c, b → a, c → nothing, d → d (itself): a's parent comes after it in key order.
    await sqlDriverOf(sqlite).execute(
      Prisma.sql`INSERT INTO "Node" ("id", "label", "parentId") VALUES ('c', 'root', NULL), ('a', 'A', 'c'), ('b', 'B', 'a'), ('d', 'D', 'd')`,
    );
    const step = {
      model: "Node",
      table: "Node",
      columns: [
        { name: "id", type: "String" as const },
        { name: "label", type: "String" as const },
        { name: "parentId", type: "String" as const },
      ],
    };
    const copy = (selfReferences: string[]) =>
      sqlDriverOf(sqlite).transaction((src) =>
        sqlDriverOf(postgres).transaction((tx) =>
          copyTable(src, tx, { ...step, selfReferences }, ["id"], copySupportFor(postgresUrl), 2),
        ),
      );
    // Inserted as they come, a's parent is not there yet: PostgreSQL checks each row at once.
    await expect(copy([])).rejects.toThrow(/foreign key/);
    expect(await copy(["parentId"])).toBe(4);
    const rows = await sqlDriverOf(postgres).query(
      Prisma.sql`SELECT "id", "label", "parentId" FROM "Node" ORDER BY "id"`,
    );
    expect(rows).toEqual([
      { id: "a", label: "A", parentId: "c" },
      { id: "b", label: "B", parentId: "a" },
      { id: "c", label: "root", parentId: null },
      { id: "d", label: "D", parentId: "d" },
    ]);
  });

  it("moves PostgreSQL sequences past the ids the copy inserted", async () => {
    const sql = sqlDriverOf(postgres);
    await sql.execute(Prisma.sql`CREATE TABLE "Counter" ("seq" SERIAL PRIMARY KEY, "note" TEXT NOT NULL)`);
    await sql.execute(Prisma.sql`CREATE TABLE "Empty" ("seq" SERIAL PRIMARY KEY)`);
    await sql.execute(Prisma.sql`INSERT INTO "Counter" ("seq", "note") VALUES (1, 'a'), (7, 'b'), (40, 'c')`);
    await sql.transaction((tx) => copySupportFor(postgresUrl).afterCopy(tx));
    const [next] = await sql.query<{ seq: number }>(
      Prisma.sql`INSERT INTO "Counter" ("note") VALUES ('new') RETURNING "seq"`,
    );
    expect(next?.seq).toBe(41);
    const [first] = await sql.query<{ seq: number }>(Prisma.sql`INSERT INTO "Empty" DEFAULT VALUES RETURNING "seq"`);
    expect(first?.seq).toBe(1);
  });

  it("reads primary keys in key order from both catalogs", async () => {
    const create = Prisma.sql`CREATE TABLE "Pair" ("b" TEXT NOT NULL, "a" TEXT NOT NULL, "x" INTEGER, PRIMARY KEY ("a", "b"))`;
    await sqlDriverOf(sqlite).execute(create);
    await sqlDriverOf(postgres).execute(create);
    for (const [db, url] of [
      [sqlite, `file:${path.join(scratchDir, "scratch.db")}`],
      [postgres, postgresUrl],
    ] as const)
      expect((await tableShapes(copySupportFor(url), sqlDriverOf(db))).get("Pair"), url).toEqual({
        columns: ["b", "a", "x"],
        primaryKey: ["a", "b"],
      });
  });
});
