// The thread, audit and gate lists and the retention batches, on this database (the suite runs on
// PostgreSQL too): filters, a search's LIKE wildcards taken literally, keyset pages, Json and
// boolean columns read back, and prunes that take the oldest rows first.
import type { TGateDecision } from "@solserver/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient, createRepositories, type DbClient, type TRepositories } from "../src";
import { sqlDriverOf } from "../src/client";
import { insertAudit, type TAuditWrite } from "../src/repositories/audit";
import { insertGateEvaluations } from "../src/repositories/gate";
import { createTestDatabase, type TTestDatabase } from "../src/testing";

let database: TTestDatabase;
let db: DbClient;
let repos: TRepositories;

beforeAll(async () => {
  database = await createTestDatabase("lists");
  db = await createPrismaClient(database.url);
  repos = createRepositories(db);
});
afterAll(async () => {
  await db.$disconnect();
  database.cleanup();
});

const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1) + minutes * 60_000);

describe("threads.list", () => {
  beforeAll(async () => {
    await db.user.create({ data: { id: "u-ann", name: "Ann", email: "Ann@Example.com" } });
    await db.user.create({ data: { id: "u-bob", name: "Bob", email: "bob_x@example.com" } });
    const threads = [
      { id: "th-1", title: "Budget 100% done", ownerId: "u-ann" },
      { id: "th-2", title: "budget100 x done", ownerId: "u-bob" },
      { id: "th-3", title: "Order sheet", ownerId: null },
      { id: "th-4", title: "under_score", ownerId: "u-ann" },
    ];
    for (const [i, t] of threads.entries()) await db.thread.create({ data: { ...t, updatedAt: at(i) } });
  });

  const ids = async (q: Parameters<TRepositories["threads"]["list"]>[0]) =>
    (await repos.threads.list(q)).items.map((t) => t.thread_id);

  it("pages every thread newest first, with the owner's email", async () => {
    const first = await repos.threads.list({ ownerId: undefined, limit: 2 });
    expect(first.items.map((t) => [t.thread_id, t.owner_email])).toEqual([
      ["th-4", "Ann@Example.com"],
      ["th-3", null],
    ]);
    expect(first.next_cursor).toBe("th-3");
    const second = await repos.threads.list({ ownerId: undefined, limit: 2, cursor: "th-3" });
    expect(second.items.map((t) => t.thread_id)).toEqual(["th-2", "th-1"]);
    expect(second.next_cursor).toBeNull();
    expect(second.items[1]?.updated_ts).toBe(at(0).toISOString());
  });

  it("filters by owner, and searches titles and emails in any case, wildcards literally, or an id", async () => {
    expect(await ids({ ownerId: "u-ann", limit: 10 })).toEqual(["th-4", "th-1"]);
    expect(await ids({ ownerId: undefined, limit: 10, search: "100%" })).toEqual(["th-1"]);
    expect(await ids({ ownerId: undefined, limit: 10, search: "r_s" })).toEqual(["th-4"]);
    expect(await ids({ ownerId: undefined, limit: 10, search: "BOB_X" })).toEqual(["th-2"]);
    expect(await ids({ ownerId: undefined, limit: 10, search: "th-3" })).toEqual(["th-3"]);
    expect(await ids({ ownerId: "u-bob", limit: 10, search: "budget" })).toEqual(["th-2"]);
  });
});

describe("audit.list", () => {
  beforeAll(async () => {
    const event = (targetType: TAuditWrite["targetType"], targetId: string): TAuditWrite => ({
      actorUserId: null,
      actorEmail: "system@local",
      via: "system",
      action: `${targetType}.touch`,
      targetType,
      targetId,
      details: { targetId, nested: { n: 1 } },
    });
    const sql = sqlDriverOf(db);
    await insertAudit(sql, [event("cfb", "C-1"), event("token", "K-1")], at(0));
    await insertAudit(sql, [event("cfb", "C-2")], at(1));
    await insertAudit(sql, [event("cfb", "C-1")], at(2));
  });

  it("pages a target type's events newest first, with their details", async () => {
    const first = await repos.audit.list({ targetType: "cfb", limit: 2 });
    expect(first.items.map((e) => [e.target_id, e.created_ts])).toEqual([
      ["C-1", at(2).toISOString()],
      ["C-2", at(1).toISOString()],
    ]);
    expect(first.items[0]?.details).toEqual({ targetId: "C-1", nested: { n: 1 } });
    const second = await repos.audit.list({ targetType: "cfb", limit: 2, cursor: first.next_cursor ?? undefined });
    expect(second.items.map((e) => [e.target_id, e.action])).toEqual([["C-1", "cfb.touch"]]);
    expect(second.next_cursor).toBeNull();
  });

  it("filters by target, or lists everything", async () => {
    expect((await repos.audit.list({ targetId: "C-1", limit: 10 })).items).toHaveLength(2);
    expect((await repos.audit.list({ targetType: "token", targetId: "K-1", limit: 10 })).items).toHaveLength(1);
    expect((await repos.audit.list({ limit: 10 })).items).toHaveLength(4);
  });
});

const decision = (status: TGateDecision["status"], strict: boolean): TGateDecision => ({
  status,
  reasons: status === "ALLOW" ? [] : ["longer"],
  reason_codes: status === "ALLOW" ? [] : ["LENGTH"],
  metrics: { length_delta_pct: 12.5 },
  metadata: { mode: "lite", strict, baseline_model: null, candidate_model: null, policies: [] },
  policies: [],
});

describe("gate.list", () => {
  beforeAll(async () => {
    const sql = sqlDriverOf(db);
    const row = (actorId: string | null, source: "turn" | "api", d: TGateDecision, delivered: boolean | null) => ({
      source,
      actorId,
      label: source === "api" ? "compare" : null,
      threadId: null,
      transmissionId: null,
      attemptN: source === "turn" ? 2 : null,
      delivered,
      decision: d,
    });
    await insertGateEvaluations(sql, [row("u-1", "api", decision("WARN", true), null)], at(0));
    await insertGateEvaluations(sql, [row("u-1", "turn", decision("ALLOW", false), true)], at(1));
    await insertGateEvaluations(sql, [row("u-2", "api", decision("WARN", false), null)], at(2));
  });

  it("filters by actor, status and source, newest first, with the decision read back", async () => {
    const mine = await repos.gate.list({ actorId: "u-1", limit: 10 });
    expect(mine.items.map((e) => [e.source, e.status, e.strict, e.delivered, e.attempt_n])).toEqual([
      ["turn", "ALLOW", false, true, 2],
      ["api", "WARN", true, null, null],
    ]);
    expect(mine.items[1]).toMatchObject({ label: "compare", reasons: ["longer"], reason_codes: ["LENGTH"] });
    expect(mine.items[1]?.metrics).toEqual({ length_delta_pct: 12.5 });
    const warned = await repos.gate.list({ status: "WARN", source: "api", limit: 1 });
    expect(warned.items.map((e) => e.created_ts)).toEqual([at(2).toISOString()]);
    const rest = await repos.gate.list({ status: "WARN", source: "api", limit: 1, cursor: warned.next_cursor ?? "" });
    expect(rest.items.map((e) => e.created_ts)).toEqual([at(0).toISOString()]);
    expect(rest.next_cursor).toBeNull();
  });
});

describe("retention", () => {
  const cutoff = at(100);

  beforeAll(async () => {
    for (const [i, minutes] of [10, 20, 200].entries()) {
      await db.traceRun.create({
        data: {
          id: `run-${i}`,
          kind: "turn",
          status: "completed",
          startedAt: at(minutes),
          events: {
            create: [1, 2].map((seq) => ({
              id: `ev-${i}-${seq}`,
              seq,
              actor: "test",
              phase: "p",
              status: "completed",
              summary: "s",
              metadata: {},
              createdAt: at(minutes),
            })),
          },
        },
      });
    }
    await insertGateEvaluations(
      sqlDriverOf(db),
      [0, 1].map(() => ({
        source: "api" as const,
        actorId: "u-old",
        label: null,
        threadId: null,
        transmissionId: null,
        attemptN: null,
        delivered: null,
        decision: decision("ALLOW", false),
      })),
      at(50),
    );
    for (const [key, minutes] of [
      ["old-1", 10],
      ["old-2", 20],
      ["live", 200],
    ] as const) {
      await db.rateLimitBucket.create({ data: { key, windowStart: at(minutes), count: 1 } });
    }
  });

  it("counts what a prune would delete, then deletes the oldest runs first, with their events", async () => {
    // (the gate list's three evaluations, recorded at 0-2 minutes, are old too)
    expect(await repos.retention.count({ traces: cutoff, gate: cutoff })).toEqual({
      traceRuns: 2,
      traceEvents: 4,
      gateEvaluations: 5,
    });
    expect(await repos.retention.count({ traces: null, gate: null })).toEqual({
      traceRuns: 0,
      traceEvents: 0,
      gateEvaluations: 0,
    });
    expect(await repos.retention.pruneTraceBatch(cutoff, 1)).toEqual({ runs: 1, events: 2 });
    expect((await db.traceRun.findMany({ select: { id: true }, orderBy: { id: "asc" } })).map((r) => r.id)).toEqual([
      "run-1",
      "run-2",
    ]);
    expect(await repos.retention.pruneTraceBatch(cutoff, 10)).toEqual({ runs: 1, events: 2 });
    expect(await repos.retention.pruneTraceBatch(cutoff, 10)).toEqual({ runs: 0, events: 0 });
    expect(await db.traceEvent.count()).toBe(2);
  });

  it("deletes old gate decisions and expired limit state in batches", async () => {
    expect(await repos.retention.pruneGateBatch(cutoff, 3)).toBe(3);
    expect(await repos.retention.pruneGateBatch(cutoff, 3)).toBe(2);
    expect(await db.gateEvaluation.count()).toBe(0);
    expect(await repos.retention.countLimitStates(cutoff)).toBe(2);
    expect(await repos.retention.pruneLimitStateBatch(cutoff, 1)).toBe(1);
    expect(await repos.retention.pruneLimitStateBatch(cutoff, 10)).toBe(1);
    expect((await db.rateLimitBucket.findMany({ select: { key: true } })).map((b) => b.key)).toEqual(["live"]);
  });
});
