// The tRPC API end to end through the app router (createCaller), on one migrated temp SQLite file
// for this test file: chat turn -> proposals -> promotion -> CFB, idempotency (per caller),
// conflicts, ownership of threads and their proposals, Jam-only edit_then_approve, input errors,
// server-side derivation of proposals from an untrusted model, traces and error masking.
// Callers act as accounts: `alice` (a user, owner of the threads she starts), `bob` (another
// user) and `jam` (a Jam editor).
import type { TPromoteRequest } from "@solserver/contracts";
import {
  createOfflineModel,
  openControlPlane,
  type TActor,
  type TModelProvider,
  type TServiceDeps,
} from "@solserver/control-plane";
import { openTestControlPlane, type TTestActor } from "@solserver/control-plane/testing";
import type { DbClient } from "@solserver/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createInnerContext, type TInnerContext } from "@/server/trpc/init";
import { createCaller } from "@/server/trpc/root";
import {
  ANONYMOUS,
  cfbDraft,
  clientShape,
  envelopeModel,
  only,
  rowCounts,
  throwingModel,
  trpcError,
  trpcOverHttp,
} from "./helpers";

type TCaller = ReturnType<typeof createCaller>;
type TOpened = Awaited<ReturnType<typeof openTestControlPlane>>;

// Every suite here makes many turns as one account: far above the per-minute budget's default.
const LIMITS = { chatTurnsPerMinute: 100_000 };

let main: TOpened;
let alice: TTestActor;
let bob: TTestActor;
let jam: TTestActor;
let ctx: TInnerContext;
let caller: TCaller;
let bobCaller: TCaller;
let jamCaller: TCaller;
const extraClients: DbClient[] = [];

function callerAs(actor: TActor, deps: TServiceDeps = main.deps): TCaller {
  return createCaller(createInnerContext({ deps, actor }));
}

beforeAll(async () => {
  main = await openTestControlPlane({ label: "web-routers", limits: LIMITS });
  alice = await main.account("user", "alice@routers.test");
  bob = await main.account("user", "bob@routers.test");
  jam = await main.account("jam", "jam@routers.test");
  ctx = createInnerContext({ deps: main.deps, actor: alice });
  caller = createCaller(ctx);
  bobCaller = callerAs(bob);
  jamCaller = callerAs(jam);
});

afterAll(async () => {
  for (const client of extraClients) await client.$disconnect();
  await main?.close();
});

/** A second control plane on the same database file, answering with another model. */
async function callerWithModel(
  model: TModelProvider,
  actor: TActor = alice,
): Promise<{ caller: TCaller; ctx: TInnerContext }> {
  const opened = await openControlPlane({ databaseUrl: main.database.url, model, limits: LIMITS });
  extraClients.push(opened.db);
  const modelCtx = createInnerContext({ deps: opened.deps, actor });
  return { caller: createCaller(modelCtx), ctx: modelCtx };
}

/** A turn whose message the offline model turns into exactly one proposal. */
async function turnWithProposal(requestId: string, message: string, as: TCaller = caller) {
  const turn = await as.chat.respond({ request_id: requestId, message });
  const preview = only(turn.ui_hints.proposal_previews);
  return { turn, proposalId: preview.proposal_id };
}

async function pendingIds(): Promise<string[]> {
  return (await caller.proposals.list({ status: "pending", limit: 100 })).items.map((p) => p.proposal_id);
}

async function cfbIds(): Promise<string[]> {
  return (await caller.cfbs.list({ limit: 100 })).items.map((c) => c.cfb_id);
}

const POSTGRES = "We decided to use Postgres for the analytics store.";

describe("the knowledge loop: chat.respond -> proposals -> promotion.promote -> cfbs", () => {
  it("stores the turn, previews its proposal, and approve_create turns it into a user-approved CFB", async () => {
    const turn = await caller.chat.respond({ request_id: "loop-1", message: POSTGRES });
    expect(turn.packet_id).toMatch(/^P-\d+$/);
    expect(turn.transmission_id).toMatch(/^T-\d+$/);
    expect(turn.attempt_id).toMatch(/^A-\d+$/);
    expect(turn.response_id).toMatch(/^R-\d+$/);
    expect(turn.replayed).toBe(false);
    expect(turn.assistant_text).toContain("Use Postgres for the analytics store");
    expect(turn.ui_hints.has_proposals).toBe(true);
    const preview = only(turn.ui_hints.proposal_previews);
    expect(preview).toMatchObject({
      op: "create",
      target_cfb_id: null,
      title: "Use Postgres for the analytics store",
      delta_summary: "Use Postgres for the analytics store.",
      confidence: 0.8,
      warnings: [],
    });
    expect(preview.proposal_id).toMatch(/^UP-\d+$/);

    // Packet -> Transmission -> DeliveryAttempt -> Response -> ResponseMeta, all linked (seed §3.4).
    const packet = await main.db.packet.findUniqueOrThrow({ where: { id: turn.packet_id } });
    expect(packet).toMatchObject({ requestId: "loop-1", threadId: turn.thread_id, message: POSTGRES });
    const transmission = await main.db.transmission.findUniqueOrThrow({ where: { id: turn.transmission_id } });
    expect(transmission).toMatchObject({ packetId: turn.packet_id, status: "done" });
    const attempt = await main.db.deliveryAttempt.findUniqueOrThrow({ where: { id: turn.attempt_id } });
    expect(attempt).toMatchObject({ transmissionId: turn.transmission_id, step: "main", n: 1 });
    const response = await main.db.response.findUniqueOrThrow({ where: { id: turn.response_id } });
    expect(response).toMatchObject({ transmissionId: turn.transmission_id, attemptId: turn.attempt_id });
    expect(response.assistantText).toBe(turn.assistant_text);
    const meta = await main.db.responseMeta.findUniqueOrThrow({ where: { responseId: turn.response_id } });
    expect(meta.cfbSuggestions).toHaveLength(1);

    const pending = await caller.proposals.list({ status: "pending" });
    expect(pending.items.map((p) => p.proposal_id)).toContain(preview.proposal_id);

    const proposal = await caller.proposals.get({ proposal_id: preview.proposal_id });
    expect(proposal).toMatchObject({
      proposal_id: preview.proposal_id,
      response_id: turn.response_id,
      thread_id: turn.thread_id,
      status: "pending",
      op: "create",
      decided_ts: null,
      promotion: null,
      proposed_cfb: { title: "Use Postgres for the analytics store", summary: "Use Postgres for the analytics store." },
    });
    expect(proposal.proposed_cfb.entities).toContain("Postgres");

    const cfbsBefore = await cfbIds();
    const promoted = await caller.promotion.promote({
      proposal_id: preview.proposal_id,
      response_id: turn.response_id,
      action: "approve_create",
    });
    expect(promoted).toMatchObject({ proposal_id: preview.proposal_id, action: "approve_create", status: "approved" });
    expect(promoted.promotion_id).toMatch(/^PE-\d+$/);
    expect(promoted.final_cfb_id).toMatch(/^CFB-\d{4}$/);
    expect(cfbsBefore).not.toContain(promoted.final_cfb_id);
    const cfb = promoted.cfb;
    expect(cfb).not.toBeNull();
    expect(cfb).toMatchObject({
      cfb_id: promoted.final_cfb_id,
      title: "Use Postgres for the analytics store",
      summary: "Use Postgres for the analytics store.",
      trust_tier: "user_approved",
      kind: "heuristic",
      // A CFB's confidence is how solid it is, not the model's 0.8: one approval makes a heuristic at 0.7.
      confidence: 0.7,
      version: 1,
    });
    expect(cfb?.source_refs).toEqual(
      expect.arrayContaining([
        `proposal:${preview.proposal_id}`,
        `thread:${turn.thread_id}#response:${turn.response_id}`,
      ]),
    );

    const finalId = promoted.final_cfb_id ?? "";
    const detail = await caller.cfbs.get({ cfb_id: finalId });
    expect(detail).toMatchObject({ cfb_id: finalId, trust_tier: "user_approved", title: cfb?.title });
    const revision = only(detail.revisions);
    expect(revision).toMatchObject({ version: 1, change_kind: "create", promotion_id: promoted.promotion_id });
    expect(await cfbIds()).toContain(finalId);
    expect(await main.db.cfbStats.findUnique({ where: { cfbId: finalId } })).not.toBeNull();

    // The promotion is recorded once and keyed back to the run that produced the proposal.
    const event = await main.db.promotionEvent.findUniqueOrThrow({ where: { id: promoted.promotion_id } });
    expect(event).toMatchObject({
      proposalId: preview.proposal_id,
      responseId: turn.response_id,
      packetId: turn.packet_id,
      transmissionId: turn.transmission_id,
      action: "approve_create",
      finalCfbId: finalId,
      editor: "user",
      decidedById: alice.userId,
    });
    // The thread belongs to the account that started it; the audit log says who decided what.
    expect(await main.db.thread.findUniqueOrThrow({ where: { id: turn.thread_id } })).toMatchObject({
      ownerId: alice.userId,
    });
    const audit = await main.db.auditEvent.findMany({
      where: { OR: [{ targetId: preview.proposal_id }, { targetId: finalId }] },
      orderBy: { action: "asc" },
    });
    expect(audit.map((a) => [a.action, a.targetType, a.targetId, a.actorEmail, a.actorUserId])).toEqual([
      ["cfb.create", "cfb", finalId, alice.email, alice.userId],
      ["proposal.approve_create", "proposal", preview.proposal_id, alice.email, alice.userId],
    ]);

    expect(await pendingIds()).not.toContain(preview.proposal_id);
    const approved = await caller.proposals.list({ status: "approved", limit: 100 });
    const listed = approved.items.find((p) => p.proposal_id === preview.proposal_id);
    expect(listed).toMatchObject({
      status: "approved",
      promotion: {
        promotion_id: promoted.promotion_id,
        action: "approve_create",
        final_cfb_id: finalId,
        editor: "user",
      },
    });
    expect(listed?.decided_ts).not.toBeNull();
    expect(approved.counts.approved).toBeGreaterThanOrEqual(1);
  });

  it("reject records the decision, writes no CFB and leaves the pending queue", async () => {
    const { turn, proposalId } = await turnWithProposal(
      "reject-1",
      "From now on, release notes are written before every deploy.",
    );
    expect(await pendingIds()).toContain(proposalId);
    const cfbsBefore = await cfbIds();
    const revisionsBefore = await main.db.cfbRevision.count();

    const result = await caller.promotion.promote({ proposal_id: proposalId, action: "reject" });
    expect(result).toMatchObject({ proposal_id: proposalId, action: "reject", status: "rejected", final_cfb_id: null });
    expect(result.cfb).toBeNull();

    expect(await cfbIds()).toEqual(cfbsBefore);
    expect(await main.db.cfbRevision.count()).toBe(revisionsBefore);
    expect(await pendingIds()).not.toContain(proposalId);
    const rejected = await caller.proposals.list({ status: "rejected", response_id: turn.response_id });
    expect(only(rejected.items)).toMatchObject({
      proposal_id: proposalId,
      status: "rejected",
      promotion: { promotion_id: result.promotion_id, action: "reject", final_cfb_id: null },
    });
    expect(rejected.counts).toEqual({ pending: 0, approved: 0, rejected: 1, duplicate: 0 });
  });
});

describe("deciding a proposal twice", () => {
  const decided: { approved?: string; rejected?: string } = {};

  beforeAll(async () => {
    const a = await turnWithProposal("twice-approve", "Remember that the staging cluster lives in Frankfurt.");
    await caller.promotion.promote({ proposal_id: a.proposalId, action: "approve_create" });
    decided.approved = a.proposalId;
    const r = await turnWithProposal("twice-reject", "We agreed to rotate the on-call pager weekly.");
    await caller.promotion.promote({ proposal_id: r.proposalId, action: "reject" });
    decided.rejected = r.proposalId;
  });

  const cases: { state: "approved" | "rejected"; action: TPromoteRequest["action"] }[] = [
    { state: "approved", action: "approve_create" },
    { state: "approved", action: "reject" },
    { state: "rejected", action: "approve_create" },
    { state: "rejected", action: "reject" },
    // The state check comes first: an already-decided proposal is a conflict whatever the action.
    { state: "approved", action: "approve_update" },
  ];

  it.each(cases)("$action on an $state proposal is CONFLICT and writes nothing", async ({ state, action }) => {
    const proposalId = decided[state] ?? "";
    const before = await rowCounts(main.db);
    const cfbsBefore = await cfbIds();

    const error = await trpcError(caller.promotion.promote({ proposal_id: proposalId, action }));
    expect(error.code).toBe("CONFLICT");
    // It names who decided and when, and says there is nothing left to do.
    expect(error.message).toMatch(
      new RegExp(
        `^proposal ${proposalId} was already ${state} by alice@routers\\.test at \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC`,
      ),
    );
    expect(error.message).toContain("nothing left to decide");
    const shape = clientShape(ctx, error, "promotion.promote");
    expect(shape.data).toMatchObject({
      code: "CONFLICT",
      httpStatus: 409,
      domainCode: "CONFLICT",
      field: "proposal_id",
    });

    expect(await rowCounts(main.db)).toEqual(before);
    expect(await cfbIds()).toEqual(cfbsBefore);
    expect((await caller.proposals.get({ proposal_id: proposalId })).status).toBe(state);
  });

  it("two concurrent approvals: exactly one lands, the other is CONFLICT", async () => {
    const { proposalId } = await turnWithProposal("race-approve", "We decided to store invoices in object storage.");
    const before = await rowCounts(main.db);

    const results = await Promise.allSettled([
      caller.promotion.promote({ proposal_id: proposalId, action: "approve_create" }),
      caller.promotion.promote({ proposal_id: proposalId, action: "approve_create" }),
    ]);
    const fulfilled = results.filter((r) => r.status === "fulfilled");
    const rejected = results.filter((r) => r.status === "rejected");
    expect(fulfilled).toHaveLength(1);
    expect(rejected).toHaveLength(1);
    const reason = only(rejected).reason;
    expect(reason).toMatchObject({ code: "CONFLICT" });

    expect(await main.db.promotionEvent.count({ where: { proposalId } })).toBe(1);
    const after = await rowCounts(main.db);
    expect(after.PromotionEvent).toBe(before.PromotionEvent + 1);
    expect(after.Cfb).toBe(before.Cfb + 1);
    expect(after.CfbRevision).toBe(before.CfbRevision + 1);
    const winner = only(fulfilled).value;
    expect((await caller.proposals.get({ proposal_id: proposalId })).promotion?.final_cfb_id).toBe(winner.final_cfb_id);
  });

  it("a concurrent approve and reject: one wins and the stored state agrees with it", async () => {
    const { proposalId } = await turnWithProposal(
      "race-mixed",
      "Our policy is that every migration ships with a rollback script.",
    );
    const before = await rowCounts(main.db);
    const results = await Promise.allSettled([
      caller.promotion.promote({ proposal_id: proposalId, action: "approve_create" }),
      caller.promotion.promote({ proposal_id: proposalId, action: "reject" }),
    ]);
    const winner = only(results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : [])));
    const loser = only(results.flatMap((r) => (r.status === "rejected" ? [r.reason] : [])));
    expect(loser).toMatchObject({ code: "CONFLICT" });

    const stored = await caller.proposals.get({ proposal_id: proposalId });
    expect(stored.status).toBe(winner.status);
    expect(stored.promotion?.promotion_id).toBe(winner.promotion_id);
    const after = await rowCounts(main.db);
    expect(after.PromotionEvent).toBe(before.PromotionEvent + 1);
    expect(after.Cfb).toBe(before.Cfb + (winner.status === "approved" ? 1 : 0));
  });
});

describe("chat.respond idempotency (request_id)", () => {
  const MESSAGE = "We settled on Vitest for the integration suite.";

  it("a retry with the same request_id and body replays the stored answer and writes nothing", async () => {
    const first = await caller.chat.respond({ request_id: "idem-1", message: MESSAGE });
    const before = await rowCounts(main.db);
    const second = await caller.chat.respond({ request_id: "idem-1", message: MESSAGE });

    expect(first.replayed).toBe(false);
    expect(second.replayed).toBe(true);
    expect({ ...second, replayed: false }).toEqual(first);
    const after = await rowCounts(main.db);
    for (const table of ["Packet", "Response", "UmbraProposal", "Message", "TraceRun"] as const) {
      expect(after[table], table).toBe(before[table]);
    }
    expect(after).toEqual(before);
  });

  it("the same request_id with a different message is CONFLICT naming request_id, with nothing written", async () => {
    await caller.chat.respond({ request_id: "idem-2", message: "We decided to pin Node to version 20." });
    const before = await rowCounts(main.db);

    const error = await trpcError(
      caller.chat.respond({ request_id: "idem-2", message: "We decided to pin Node to version 22." }),
    );
    expect(error.code).toBe("CONFLICT");
    expect(error.message).toContain("request_id");
    expect(error.message).toContain("idem-2");
    expect(clientShape(ctx, error, "chat.respond").data).toMatchObject({ field: "request_id", domainCode: "CONFLICT" });
    expect(await rowCounts(main.db)).toEqual(before);
  });

  it("the same request_id with another thread_id is a different request (CONFLICT)", async () => {
    const first = await caller.chat.respond({ request_id: "idem-3", message: "Remember that invoices are net 30." });
    const before = await rowCounts(main.db);
    const error = await trpcError(
      caller.chat.respond({
        request_id: "idem-3",
        thread_id: first.thread_id,
        message: "Remember that invoices are net 30.",
      }),
    );
    expect(error.code).toBe("CONFLICT");
    expect(await rowCounts(main.db)).toEqual(before);
  });

  it("request_ids are per caller: the same key from two accounts is two turns, each replayed to its owner", async () => {
    const input = { request_id: "idem-shared", message: "We decided that every team owns its dashboards." };
    const before = await rowCounts(main.db);
    const mine = await caller.chat.respond(input);
    const theirs = await bobCaller.chat.respond(input);
    expect([mine.replayed, theirs.replayed]).toEqual([false, false]);
    expect(theirs.packet_id).not.toBe(mine.packet_id);
    expect(theirs.response_id).not.toBe(mine.response_id);
    expect(theirs.thread_id).not.toBe(mine.thread_id);
    const after = await rowCounts(main.db);
    expect(after.Packet).toBe(before.Packet + 2);
    expect(after.Thread).toBe(before.Thread + 2);
    const packets = await main.db.packet.findMany({ where: { requestId: "idem-shared" }, orderBy: { id: "asc" } });
    expect(packets.map((p) => [p.id, p.callerId])).toEqual([
      [mine.packet_id, alice.userId],
      [theirs.packet_id, bob.userId],
    ]);
    // Each retry replays the caller's own turn, never the other account's.
    expect(await caller.chat.respond(input)).toEqual({ ...mine, replayed: true });
    expect(await bobCaller.chat.respond(input)).toEqual({ ...theirs, replayed: true });
    // Another account's key does not make a different body a conflict for this one.
    const jamTurn = await jamCaller.chat.respond({ request_id: "idem-shared", message: "Remember the jam rota." });
    expect(jamTurn.replayed).toBe(false);
    expect((await rowCounts(main.db)).Packet).toBe(before.Packet + 3);
  });

  it("two concurrent identical calls store one turn and answer both with it", async () => {
    const before = await rowCounts(main.db);
    const input = { request_id: "idem-4", message: "We decided to deploy from the main branch only." };
    const [a, b] = await Promise.all([caller.chat.respond(input), caller.chat.respond(input)]);
    expect(a.response_id).toBe(b.response_id);
    expect(a.packet_id).toBe(b.packet_id);
    expect(a.ui_hints).toEqual(b.ui_hints);
    expect([a.replayed, b.replayed].sort()).toEqual([false, true]);
    expect(await main.db.packet.count({ where: { requestId: "idem-4" } })).toBe(1);
    const after = await rowCounts(main.db);
    expect(after.Packet).toBe(before.Packet + 1);
    expect(after.Response).toBe(before.Response + 1);
  });

  it("a duplicate sent while the first is in the model waits for it: one model call, one turn", async () => {
    // Across processes the unique request_id decides instead (multi-process.test.ts: a loser's
    // write is rolled back and its ids given back).
    const offline = createOfflineModel();
    let calls = 0;
    let release: () => void = () => {};
    let entered: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const inModel = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const gated = await callerWithModel({
      name: "gated-offline",
      async generate(modelInput) {
        calls++;
        entered();
        await held;
        return offline.generate(modelInput);
      },
    });
    const before = await rowCounts(main.db);
    const input = { request_id: "idem-5", message: "We decided to keep audit logs for seven years." };
    const first = gated.caller.chat.respond(input);
    const second = gated.caller.chat.respond(input);
    // The first is inside the model (a barrier, not a sleep); the duplicate waits for it.
    await inModel;
    release();
    const [a, b] = await Promise.all([first, second]);
    expect(calls).toBe(1);
    expect(a.response_id).toBe(b.response_id);
    expect([a.replayed, b.replayed]).toEqual([false, true]);
    const after = await rowCounts(main.db);
    expect(after.Packet).toBe(before.Packet + 1);
    expect(after.UmbraProposal).toBe(before.UmbraProposal + 1);
    expect(after.Message).toBe(before.Message + 2);
    expect(after.TraceRun).toBe(before.TraceRun + 1);
    expect(after.IdSequence.packet).toBe((before.IdSequence.packet ?? 0) + 1);
  });
});

describe("thread ownership under concurrency", () => {
  it("a turn that passed the check cannot land in a thread another user created meanwhile", async () => {
    // Alice's turn waits inside the model after the service found no thread "th-shared"; Bob
    // creates that thread; then Alice's turn is released and must not write into Bob's thread.
    const offline = createOfflineModel();
    let release: () => void = () => undefined;
    let reached: () => void = () => undefined;
    const modelReached = new Promise<void>((resolve) => {
      reached = resolve;
    });
    const gated = await callerWithModel({
      name: "gated-offline",
      async generate(modelInput) {
        reached();
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        return offline.generate(modelInput);
      },
    });
    const pending = gated.caller.chat.respond({
      request_id: "race-thread-a",
      thread_id: "th-shared",
      message: "Remember that my salary is 90k.",
    });
    await modelReached;
    await bobCaller.chat.respond({
      request_id: "race-thread-b",
      thread_id: "th-shared",
      message: "We decided to use Redis.",
    });
    const before = await rowCounts(main.db);
    release();
    const error = await trpcError(pending);
    expect(error.code).toBe("FORBIDDEN");
    expect(error.message).toBe("you may not access thread th-shared");
    // Nothing written. The id counters: SQLite gives the refused turn's ids back; PostgreSQL takes
    // ids outside the transaction, like a sequence, so they only move forward.
    const { IdSequence: idsAfter, ...after } = await rowCounts(main.db);
    const { IdSequence: idsBefore, ...rest } = before;
    expect(after).toEqual(rest);
    if (main.database.dialect === "sqlite") expect(idsAfter).toEqual(idsBefore);
    else for (const [name, value] of Object.entries(idsBefore)) expect(idsAfter[name]).toBeGreaterThanOrEqual(value);
    const thread = await bobCaller.threads.get({ thread_id: "th-shared" });
    expect(thread.messages.map((m) => m.content)).not.toContain("Remember that my salary is 90k.");
  });
});

describe("listing and concurrency", () => {
  it("distinct concurrent turns each get their own consecutive ids", async () => {
    const before = await rowCounts(main.db);
    const turns = await Promise.all(
      ["Kafka", "Redis", "Nginx", "Caddy", "Envoy"].map((name, i) =>
        caller.chat.respond({ request_id: `many-${i}`, message: `We decided to adopt ${name} for the edge tier.` }),
      ),
    );
    const packetNumbers = turns.map((t) => Number(t.packet_id.slice(2))).sort((a, b) => a - b);
    const first = (before.IdSequence.packet ?? 0) + 1;
    expect(packetNumbers).toEqual([first, first + 1, first + 2, first + 3, first + 4]);
    expect(new Set(turns.map((t) => t.response_id)).size).toBe(5);
    expect(new Set(turns.flatMap((t) => t.ui_hints.proposal_previews.map((p) => p.proposal_id))).size).toBe(5);
    const after = await rowCounts(main.db);
    expect(after.Packet).toBe(before.Packet + 5);
    expect(after.UmbraProposal).toBe(before.UmbraProposal + 5);
  });

  it("paging proposals and CFBs with next_cursor visits every item once, newest first", async () => {
    const everything = await caller.proposals.list({ status: "all", limit: 100 });
    expect(everything.next_cursor).toBeNull();
    expect(everything.items.length).toBeGreaterThan(5);
    const paged: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 100; page++) {
      const result = await caller.proposals.list({ status: "all", limit: 2, ...(cursor ? { cursor } : {}) });
      expect(result.items.length).toBeLessThanOrEqual(2);
      paged.push(...result.items.map((p) => p.proposal_id));
      if (result.next_cursor === null) break;
      expect(result.next_cursor).toBe(result.items.at(-1)?.proposal_id);
      cursor = result.next_cursor;
    }
    expect(paged).toEqual(everything.items.map((p) => p.proposal_id));
    const { pending, approved, rejected } = everything.counts;
    expect(pending + approved + rejected).toBe(everything.items.length);

    const allCfbs = await caller.cfbs.list({ limit: 100 });
    const pagedCfbs: string[] = [];
    cursor = undefined;
    for (let page = 0; page < 100; page++) {
      const result = await caller.cfbs.list({ limit: 2, ...(cursor ? { cursor } : {}) });
      pagedCfbs.push(...result.items.map((c) => c.cfb_id));
      if (result.next_cursor === null) break;
      cursor = result.next_cursor;
    }
    expect(pagedCfbs).toEqual(allCfbs.items.map((c) => c.cfb_id));
    expect(new Set(pagedCfbs).size).toBe(pagedCfbs.length);
  });

  it("a page after a cursor that was decided meanwhile still starts right after it", async () => {
    const ids: string[] = [];
    for (const [i, name] of ["Alpha", "Bravo", "Charlie", "Delta"].entries()) {
      const turn = await caller.chat.respond({
        request_id: `keyset-${i}`,
        message: `We decided to name the ${name} cluster.`,
      });
      ids.push(only(turn.ui_hints.proposal_previews).proposal_id);
    }
    const newestFirst = [...ids].reverse();
    const page1 = await caller.proposals.list({ status: "pending", limit: 2 });
    expect(page1.items.map((p) => p.proposal_id)).toEqual(newestFirst.slice(0, 2));
    // Another reviewer decides the cursor row: it leaves the pending filter.
    await caller.promotion.promote({ proposal_id: page1.next_cursor as string, action: "reject" });
    const page2 = await caller.proposals.list({ status: "pending", limit: 2, cursor: page1.next_cursor as string });
    expect(page2.items.map((p) => p.proposal_id)).toEqual(newestFirst.slice(2, 4));
  });

  it("an unknown cursor is NOT_FOUND, not an empty last page", async () => {
    const error = await trpcError(caller.proposals.list({ status: "pending", cursor: "UP-9999" }));
    expect(error.code).toBe("NOT_FOUND");
    expect(error.message).toBe("cursor: proposal UP-9999 does not exist");
    expect((await trpcError(caller.cfbs.list({ cursor: "CFB-9999" }))).code).toBe("NOT_FOUND");
  });
});

describe("bad input is refused with the field named, and nothing is written", () => {
  let pendingProposal: { proposalId: string; responseId: string };

  beforeAll(async () => {
    const { turn, proposalId } = await turnWithProposal("bad-input-setup", "We chose Grafana for the ops dashboards.");
    pendingProposal = { proposalId, responseId: turn.response_id };
  });

  const validationCases: {
    name: string;
    path: string;
    call: () => Promise<unknown>;
    field: string;
    message: RegExp;
  }[] = [
    {
      name: "chat.respond without message",
      path: "chat.respond",
      call: () => caller.chat.respond({ request_id: "bad-1" } as never),
      field: "message",
      message: /^message: is required/,
    },
    {
      name: "chat.respond with a blank message",
      path: "chat.respond",
      call: () => caller.chat.respond({ request_id: "bad-2", message: "   " }),
      field: "message",
      message: /^message: must not be empty$/,
    },
    {
      name: "chat.respond with a message over 8000 characters",
      path: "chat.respond",
      call: () => caller.chat.respond({ request_id: "bad-3", message: "x".repeat(8001) }),
      field: "message",
      message: /^message: must be at most 8000 characters$/,
    },
    {
      name: "chat.respond without request_id",
      path: "chat.respond",
      call: () => caller.chat.respond({ message: "We decided nothing at all today." } as never),
      field: "request_id",
      message: /^request_id: /,
    },
    {
      name: "chat.respond with a malformed thread_id",
      path: "chat.respond",
      call: () => caller.chat.respond({ request_id: "bad-4", thread_id: "no spaces allowed", message: "hello there" }),
      field: "thread_id",
      message: /^thread_id: /,
    },
    {
      name: "chat.respond with an extra unknown key",
      path: "chat.respond",
      call: () => caller.chat.respond({ request_id: "bad-5", message: "We decided on extras.", extra: true } as never),
      field: "extra",
      message: /^extra: is not a known field$/,
    },
    {
      name: "promotion.promote with an unknown key inside editorial_overrides",
      path: "promotion.promote",
      call: () =>
        caller.promotion.promote({
          proposal_id: pendingProposal.proposalId,
          action: "edit_then_approve",
          editorial_overrides: { colour: "red" },
        } as never),
      field: "editorial_overrides.colour",
      message: /^editorial_overrides\.colour: is not a known field$/,
    },
    {
      name: "promotion.promote with an unknown action",
      path: "promotion.promote",
      call: () => caller.promotion.promote({ proposal_id: pendingProposal.proposalId, action: "approve_all" } as never),
      field: "action",
      message: /^action: /,
    },
    {
      name: "promotion.promote with a malformed proposal id",
      path: "promotion.promote",
      call: () => caller.promotion.promote({ proposal_id: "x", action: "approve_create" }),
      field: "proposal_id",
      message: /^proposal_id: must be a proposal id like UP-0001$/,
    },
    {
      name: "proposals.get with a malformed proposal id",
      path: "proposals.get",
      call: () => caller.proposals.get({ proposal_id: "x" }),
      field: "proposal_id",
      message: /^proposal_id: must be a proposal id like UP-0001$/,
    },
    {
      name: "cfbs.get with a malformed CFB id",
      path: "cfbs.get",
      call: () => caller.cfbs.get({ cfb_id: "CFB-abc" }),
      field: "cfb_id",
      message: /^cfb_id: must be a CFB id like CFB-0001$/,
    },
    {
      name: "proposals.list with an unknown status",
      path: "proposals.list",
      call: () => caller.proposals.list({ status: "maybe" } as never),
      field: "status",
      message: /^status: /,
    },
  ];

  it.each(validationCases)("$name -> BAD_REQUEST naming $field", async ({ path, call, field, message }) => {
    const before = await rowCounts(main.db);
    const error = await trpcError(call());
    expect(error.code).toBe("BAD_REQUEST");
    const shape = clientShape(ctx, error, path);
    expect(shape.message).toMatch(message);
    expect(shape.data).toMatchObject({ code: "BAD_REQUEST", httpStatus: 400, field, domainCode: null });
    expect(await rowCounts(main.db)).toEqual(before);
  });

  it("a well-formed but unknown proposal id is NOT_FOUND on proposals.get and promotion.promote", async () => {
    const before = await rowCounts(main.db);
    const getError = await trpcError(caller.proposals.get({ proposal_id: "UP-9999" }));
    expect(getError.code).toBe("NOT_FOUND");
    expect(getError.message).toBe("proposal UP-9999 does not exist");
    expect(clientShape(ctx, getError, "proposals.get").data).toMatchObject({
      httpStatus: 404,
      domainCode: "NOT_FOUND",
      field: "proposal_id",
    });
    const promoteError = await trpcError(
      caller.promotion.promote({ proposal_id: "UP-9999", action: "approve_create" }),
    );
    expect(promoteError.code).toBe("NOT_FOUND");
    expect(promoteError.message).toContain("UP-9999");
    expect(await rowCounts(main.db)).toEqual(before);
  });

  it("an unknown CFB id is NOT_FOUND on cfbs.get", async () => {
    const error = await trpcError(caller.cfbs.get({ cfb_id: "CFB-9999" }));
    expect(error.code).toBe("NOT_FOUND");
    expect(error.message).toBe("CFB CFB-9999 does not exist");
    expect(clientShape(ctx, error, "cfbs.get").data).toMatchObject({ field: "cfb_id", domainCode: "NOT_FOUND" });
  });

  const pendingCases: {
    name: string;
    /** Who sends it: the owner (default) or a Jam editor. */
    as?: "jam";
    input: () => TPromoteRequest;
    code?: "BAD_REQUEST" | "FORBIDDEN";
    domainCode: string;
    field: string;
    message: RegExp;
  }[] = [
    {
      name: "a response_id the proposal does not belong to",
      input: () => ({ proposal_id: pendingProposal.proposalId, response_id: "R-9999", action: "approve_create" }),
      domainCode: "BAD_INPUT",
      field: "response_id",
      message: /^response_id: proposal UP-\d+ belongs to R-\d+, not R-9999$/,
    },
    {
      name: "approve_update of a create proposal resolve matched to nothing",
      input: () => ({ proposal_id: pendingProposal.proposalId, action: "approve_update" }),
      domainCode: "BAD_INPUT",
      field: "action",
      message:
        /^action: proposal UP-\d+ names no CFB to update and resolve found none close enough; use approve_create or reject$/,
    },
    {
      name: "edit_then_approve from a user, even the owner (Jam-only)",
      input: () => ({
        proposal_id: pendingProposal.proposalId,
        action: "edit_then_approve",
        editorial_overrides: { tags_add: ["ops"] },
      }),
      code: "FORBIDDEN",
      domainCode: "FORBIDDEN",
      field: "action",
      message: /^only Jam editors may edit_then_approve$/,
    },
    {
      name: "edit_then_approve from a Jam editor without editorial_overrides",
      as: "jam",
      input: () => ({ proposal_id: pendingProposal.proposalId, action: "edit_then_approve" }),
      domainCode: "BAD_INPUT",
      field: "editorial_overrides",
      message: /^editorial_overrides: required with action edit_then_approve$/,
    },
    {
      name: "editorial_overrides with reject from a Jam editor",
      as: "jam",
      input: () => ({
        proposal_id: pendingProposal.proposalId,
        action: "reject",
        editorial_overrides: { title_edit: "Grafana dashboards" },
      }),
      domainCode: "BAD_INPUT",
      field: "editorial_overrides",
      message: /^editorial_overrides: only allowed with action edit_then_approve$/,
    },
    {
      name: "editorial_overrides with approve_create",
      input: () => ({
        proposal_id: pendingProposal.proposalId,
        action: "approve_create",
        editorial_overrides: { summary_edit: "Grafana, always." },
      }),
      domainCode: "BAD_INPUT",
      field: "editorial_overrides",
      message: /^editorial_overrides: /,
    },
  ];

  it.each(pendingCases)("promotion.promote with $name -> refused, proposal stays pending", async (c) => {
    const before = await rowCounts(main.db);
    const error = await trpcError((c.as === "jam" ? jamCaller : caller).promotion.promote(c.input()));
    const code = c.code ?? "BAD_REQUEST";
    expect(error.code).toBe(code);
    expect(error.message).toMatch(c.message);
    expect(clientShape(ctx, error, "promotion.promote").data).toMatchObject({
      httpStatus: code === "FORBIDDEN" ? 403 : 400,
      domainCode: c.domainCode,
      field: c.field,
    });
    expect(await rowCounts(main.db)).toEqual(before);
    const proposal = await caller.proposals.get({ proposal_id: pendingProposal.proposalId });
    expect(proposal.status).toBe("pending");
    expect(proposal.promotion).toBeNull();
  });

  it("the refused proposal can still be approved with its own response_id afterwards", async () => {
    const result = await caller.promotion.promote({
      proposal_id: pendingProposal.proposalId,
      response_id: pendingProposal.responseId,
      action: "approve_create",
    });
    expect(result.status).toBe("approved");
  });

  it("an anonymous caller is refused before anything runs; the health probe stays public", async () => {
    const outsider = callerAs(ANONYMOUS);
    const before = await rowCounts(main.db);
    const error = await trpcError(outsider.chat.respond({ request_id: "outsider-1", message: POSTGRES }));
    expect(error.code).toBe("UNAUTHORIZED");
    expect(error.message).toBe("sign in (or send an API token) to use this");
    expect(clientShape(createInnerContext({ deps: main.deps, actor: ANONYMOUS }), error, "x").data).toMatchObject({
      httpStatus: 401,
      domainCode: "UNAUTHENTICATED",
    });
    for (const call of [
      outsider.proposals.list({}),
      outsider.proposals.get({ proposal_id: "UP-0001" }),
      outsider.promotion.promote({ proposal_id: "UP-0001", action: "reject" }),
      outsider.cfbs.list({}),
      outsider.cfbs.get({ cfb_id: "CFB-0001" }),
      outsider.threads.list({}),
      outsider.me.get(),
    ]) {
      expect((await trpcError(call)).code).toBe("UNAUTHORIZED");
    }
    expect(await rowCounts(main.db)).toEqual(before);
    expect(await outsider.system.health()).toEqual({ status: "ok", model: "offline-heuristic-v1", cfbs: before.Cfb });
  });

  it("the tier's check comes before the input: a bad field tells a user or a stranger nothing", async () => {
    // workflows.setSchedule: the role is checked before the body is read, so a user learns
    // nothing from a bad field (FORBIDDEN, not BAD_REQUEST naming it), nor does anyone signed out.
    const bad = { enabled: true, cadence: "daily", time_of_day: "99:99" } as const;
    const asUser = await trpcError(bobCaller.workflows.setSchedule(bad));
    expect(asUser.code).toBe("FORBIDDEN");
    expect(asUser.message).not.toContain("time_of_day");
    expect((await trpcError(callerAs(ANONYMOUS).workflows.setSchedule(bad))).code).toBe("UNAUTHORIZED");
    // A Jam editor gets the field named.
    const asJam = await trpcError(jamCaller.workflows.setSchedule(bad));
    expect(asJam.code).toBe("BAD_REQUEST");
    expect(clientShape(ctx, asJam, "workflows.setSchedule").data).toMatchObject({ field: "time_of_day" });
  });
});

describe("proposals are derived by the server, not trusted from the model", () => {
  const envelope = (cfb_suggestions: unknown[]) => ({
    assistant_text: "Answer from a test model.",
    meta: { modeLabel: "Test", cfb_suggestions },
  });

  it("flags a missing target and a clamped confidence, keeping the target the model named", async () => {
    const model = await callerWithModel(
      envelopeModel(
        envelope([
          {
            op: "update",
            target_cfb_id: "CFB-0999",
            title: "Cache invalidation rules",
            delta_summary: "Add: caches are flushed on deploy.",
            tags: ["cache"],
            entities: ["Redis"],
            confidence: 1.7,
            // The model does not get to pick server-side fields.
            proposal_id: "UP-7777",
            warnings: [],
          },
        ]),
      ),
    );
    const turn = await model.caller.chat.respond({ request_id: "derive-1", message: "How do we invalidate caches?" });
    expect(turn.assistant_text).toBe("Answer from a test model.");
    const preview = only(turn.ui_hints.proposal_previews);
    expect(preview).toMatchObject({
      op: "update",
      target_cfb_id: "CFB-0999",
      confidence: 1,
      warnings: ["target_cfb_missing", "confidence_clamped"],
    });
    expect(preview.proposal_id).not.toBe("UP-7777");
    expect(await main.db.cfb.count({ where: { id: "CFB-0999" } })).toBe(0);

    const proposal = await caller.proposals.get({ proposal_id: preview.proposal_id });
    expect(proposal).toMatchObject({ confidence: 1, warnings: ["target_cfb_missing", "confidence_clamped"] });
    // The meta is stored as the model sent it, for audit; only the proposal is normalised.
    const meta = await main.db.responseMeta.findUniqueOrThrow({ where: { responseId: turn.response_id } });
    expect(meta.cfbSuggestions).toMatchObject([{ confidence: 1.7, target_cfb_id: "CFB-0999" }]);
  });

  it("takes the domain from a real target, requires a target for update, and ignores one for create", async () => {
    const seeded = await main.repos.cfbs.create(
      cfbDraft({ domain: "billing", title: "Invoice numbering", summary: "Invoices are numbered per year." }),
    );
    const model = await callerWithModel(
      envelopeModel(
        envelope([
          {
            op: "update",
            target_cfb_id: seeded.cfb_id,
            title: "Invoice numbering",
            delta_summary: "Add: numbering restarts each January.",
            confidence: -0.2,
          },
          { op: "update", title: "Orphan update", delta_summary: "Update with no target.", confidence: 0.4 },
          {
            op: "create",
            target_cfb_id: seeded.cfb_id,
            title: "Credit notes",
            delta_summary: "Credit notes get their own series.",
            confidence: 0.6,
          },
        ]),
      ),
    );
    const turn = await model.caller.chat.respond({ request_id: "derive-2", message: "Tell me about invoices." });
    const previews = turn.ui_hints.proposal_previews;
    expect(previews.map((p) => [p.op, p.target_cfb_id, p.confidence, p.warnings])).toEqual([
      ["update", seeded.cfb_id, 0, ["confidence_clamped"]],
      ["update", null, 0.4, ["target_cfb_required"]],
      ["create", null, 0.6, []],
    ]);
    const [first] = previews;
    const targeted = await caller.proposals.get({ proposal_id: first?.proposal_id ?? "UP-0" });
    expect(targeted.proposed_cfb.domain).toBe("billing");
    // Previews are in suggestion order and their ids are consecutive server ids.
    const numbers = previews.map((p) => Number(p.proposal_id.slice(3)));
    expect(numbers).toEqual([numbers[0], (numbers[0] ?? 0) + 1, (numbers[0] ?? 0) + 2]);
  });

  it("an envelope without assistant_text is BAD_GATEWAY and stores no turn", async () => {
    const model = await callerWithModel(envelopeModel({ meta: { cfb_suggestions: [] } }, "no-assistant-text"));
    const before = await rowCounts(main.db);
    const error = await trpcError(model.caller.chat.respond({ request_id: "upstream-1", message: POSTGRES }));
    expect(error.code).toBe("BAD_GATEWAY");
    expect(error.message).toContain("assistant_text");
    expect(clientShape(model.ctx, error, "chat.respond").data).toMatchObject({
      httpStatus: 502,
      domainCode: "UPSTREAM",
    });
    const after = await rowCounts(main.db);
    expect(after.Packet).toBe(before.Packet);
    expect({ ...after, TraceRun: 0, TraceEvent: 0 }).toEqual({ ...before, TraceRun: 0, TraceEvent: 0 });
    // The failure itself is traced (no transmission exists to key it to).
    const failed = await main.db.traceRun.findFirstOrThrow({
      where: { kind: "turn", status: "failed" },
      orderBy: { startedAt: "desc" },
      include: { events: { orderBy: { seq: "asc" } } },
    });
    expect(failed.transmissionId).toBeNull();
    expect(failed.events.at(-1)).toMatchObject({ phase: "model", status: "failed" });
    // The request_id was not burnt: a retry once the model works is a fresh turn.
    const retry = await caller.chat.respond({ request_id: "upstream-1", message: POSTGRES });
    expect(retry.replayed).toBe(false);
  });

  it("an envelope that breaks the suggestion schema is BAD_GATEWAY naming the field", async () => {
    const model = await callerWithModel(
      envelopeModel(envelope([{ op: "rewrite", title: "x", delta_summary: "y", confidence: 0.5 }]), "bad-op"),
    );
    const before = await rowCounts(main.db);
    const error = await trpcError(model.caller.chat.respond({ request_id: "upstream-2", message: POSTGRES }));
    expect(error.code).toBe("BAD_GATEWAY");
    expect(error.message).toContain("meta.cfb_suggestions.0.op");
    expect((await rowCounts(main.db)).Packet).toBe(before.Packet);
  });

  it("a model that throws is BAD_GATEWAY without leaking the provider's error text", async () => {
    const model = await callerWithModel(throwingModel(new Error("provider said: api key sk-test-123 rejected")));
    const before = await rowCounts(main.db);
    const error = await trpcError(model.caller.chat.respond({ request_id: "upstream-3", message: POSTGRES }));
    expect(error.code).toBe("BAD_GATEWAY");
    const shape = clientShape(model.ctx, error, "chat.respond");
    expect(shape.message).toBe("model throwing-test failed to answer");
    expect(JSON.stringify(shape)).not.toContain("sk-test-123");
    expect((await rowCounts(main.db)).Packet).toBe(before.Packet);
    // The failed trace keeps the error's kind, not its text (which may carry secrets).
    const failed = await main.db.traceRun.findFirstOrThrow({
      where: { kind: "turn", status: "failed" },
      orderBy: { startedAt: "desc" },
      include: { events: { orderBy: { seq: "asc" } } },
    });
    expect(failed.events.at(-1)?.metadata).toEqual({ error: "Error" });
    expect(JSON.stringify(failed.events)).not.toContain("sk-test-123");
  });
});

describe("approving an update as new knowledge", () => {
  it("is refused for an update of a real CFB, which stays pending and can still be rejected", async () => {
    const target = await main.repos.cfbs.create(
      cfbDraft({ title: "Release train cadence", summary: "Releases leave every second Tuesday.", tags: ["release"] }),
    );
    const turn = await caller.chat.respond({
      request_id: "update-as-new-1",
      message: "We decided the release train cadence stays every second Tuesday.",
    });
    const preview = only(turn.ui_hints.proposal_previews);
    expect(preview).toMatchObject({ op: "update", target_cfb_id: target.cfb_id, warnings: [] });
    const before = await rowCounts(main.db);
    const error = await trpcError(
      caller.promotion.promote({ proposal_id: preview.proposal_id, action: "approve_create" }),
    );
    expect(error.code).toBe("BAD_REQUEST");
    expect(error.message).toContain(`approve_create does not apply to update proposal ${preview.proposal_id}`);
    expect(await rowCounts(main.db)).toEqual(before);
    expect((await caller.proposals.get({ proposal_id: preview.proposal_id })).status).toBe("pending");
    const rejected = await caller.promotion.promote({ proposal_id: preview.proposal_id, action: "reject" });
    expect(rejected.status).toBe("rejected");
  });

  it("is allowed when the update names a CFB that does not exist", async () => {
    const model = await callerWithModel(
      envelopeModel({
        assistant_text: "Noted.",
        meta: {
          cfb_suggestions: [
            {
              op: "update",
              target_cfb_id: "CFB-0888",
              title: "Queue retries",
              delta_summary: "Retry three times.",
              confidence: 0.6,
            },
          ],
        },
      }),
    );
    const turn = await model.caller.chat.respond({ request_id: "update-as-new-2", message: "Queue retries?" });
    const preview = only(turn.ui_hints.proposal_previews);
    expect(preview.warnings).toEqual(["target_cfb_missing"]);
    const approved = await caller.promotion.promote({ proposal_id: preview.proposal_id, action: "approve_create" });
    expect(approved.cfb).toMatchObject({ title: "Queue retries", kind: "heuristic", confidence: 0.7 });
  });
});

describe("every proposal says what this caller may do (actions)", () => {
  it("in the chat answer, the queue, proposals.get and proposals.review, per caller, until it is decided", async () => {
    const target = await main.repos.cfbs.create(
      // Not curated knowledge (a repository ADR is Jam editors' to change): the user may update it.
      cfbDraft({
        title: "Standup time",
        summary: "The standup starts at 09:30.",
        tags: ["standup"],
        trust_tier: "user_approved",
      }),
    );
    const turn = await caller.chat.respond({
      request_id: "actions-1",
      message: "We decided the standup time stays at 09:30 sharp.",
    });
    const preview = only(turn.ui_hints.proposal_previews);
    expect(preview).toMatchObject({ op: "update", target_cfb_id: target.cfb_id });
    const forAlice = {
      allowed: ["approve_update", "reject"],
      primary: "approve_update",
      update: { cfb_id: target.cfb_id, version: 1, merge_cfb_id: null },
      edit: null,
    };
    expect(preview.actions).toMatchObject({ ...forAlice, basis: "stored" });
    const listed = await caller.proposals.list({ response_id: turn.response_id });
    expect(only(listed.items).actions).toEqual(preview.actions);
    const got = await caller.proposals.get({ proposal_id: preview.proposal_id });
    expect(got.actions).toEqual({ ...preview.actions, basis: "current" });
    // A Jam editor may also edit it, into the same CFB.
    const forJam = await jamCaller.proposals.get({ proposal_id: preview.proposal_id });
    expect(forJam.actions).toMatchObject({
      allowed: ["approve_update", "reject", "edit_then_approve"],
      edit: "update",
      update: forAlice.update,
    });
    // The proposal page's actions come from the same resolve as its preview.
    const review = await caller.proposals.review({ proposal_id: preview.proposal_id });
    expect(review.proposal.actions).toEqual(got.actions);
    expect(review.preview.update?.target.cfb_id).toBe(got.actions.update?.cfb_id);
    // Over HTTP the field is there as well.
    const http = await trpcOverHttp(ctx, "proposals.get", { proposal_id: preview.proposal_id }, "GET");
    expect(http.status).toBe(200);
    expect((http.body as { result: { data: { actions: unknown } } }).result.data.actions).toEqual(got.actions);

    await caller.promotion.promote({ proposal_id: preview.proposal_id, action: "reject" });
    const decided = await caller.proposals.get({ proposal_id: preview.proposal_id });
    expect(decided.actions).toMatchObject({ allowed: [], primary: null, update: null, edit: null });
  });
});

describe("curated knowledge (authoritative, repo_adr) is changed by Jam editors only", () => {
  it("a user's approve_update is FORBIDDEN over tRPC, as the actions said; a Jam editor's lands and keeps the tier", async () => {
    const target = await main.repos.cfbs.create(
      cfbDraft({ title: "Release train", summary: "The release train leaves every Wednesday.", tags: ["release"] }),
    );
    expect(target.trust_tier).toBe("repo_adr");
    const turn = await caller.chat.respond({
      request_id: "curated-1",
      message: "We decided the release train leaves every Wednesday at 14:00.",
    });
    const preview = only(turn.ui_hints.proposal_previews);
    expect(preview).toMatchObject({ op: "update", target_cfb_id: target.cfb_id });
    const why = `only a Jam editor may change ${target.cfb_id}: ${target.cfb_id} is a repository ADR (repo_adr); reject the proposal or leave it to a Jam editor`;
    expect(preview.actions.unavailable).toContainEqual({ action: "approve_update", code: "FORBIDDEN", reason: why });
    expect(preview.actions.protection?.cfb_id).toBe(target.cfb_id);

    const before = await rowCounts(main.db);
    const error = await trpcError(
      caller.promotion.promote({ proposal_id: preview.proposal_id, action: "approve_update" }),
    );
    expect(error.code).toBe("FORBIDDEN");
    expect(clientShape(ctx, error, "promotion.promote")).toMatchObject({
      message: why,
      data: { httpStatus: 403, domainCode: "FORBIDDEN", field: "action" },
    });
    expect(await rowCounts(main.db)).toEqual(before);

    const landed = await jamCaller.promotion.promote({ proposal_id: preview.proposal_id, action: "approve_update" });
    expect(landed.cfb).toMatchObject({ cfb_id: target.cfb_id, version: 2, trust_tier: "repo_adr" });
  });
});

describe("usage events", () => {
  it("count each injected CFB once per response, 'used' winning over 'ignored'", async () => {
    const cfb = await main.repos.cfbs.create(
      cfbDraft({ title: "Vault rotation", summary: "Vault tokens rotate daily." }),
    );
    const model = await callerWithModel(
      envelopeModel({
        assistant_text: "Vault tokens rotate daily.",
        meta: {
          used_cfb_ids: [cfb.cfb_id, cfb.cfb_id, cfb.cfb_id],
          ignored_cfb_ids: [cfb.cfb_id, "CFB-0777"],
        },
      }),
    );
    const turn = await model.caller.chat.respond({
      request_id: "usage-1",
      message: "How often do vault tokens rotate?",
    });
    const events = await main.db.cfbUsageEvent.findMany({ where: { responseId: turn.response_id } });
    // One "injected" event for being in the prompt, and one "used" (never also "ignored").
    expect(events.map((e) => [e.cfbId, e.kind]).sort()).toEqual([
      [cfb.cfb_id, "injected"],
      [cfb.cfb_id, "used"],
    ]);
  });
});

/** The trace of a turn, in seed 000's orchestrator order. */
const TURN_PHASES = [
  "packet",
  "breakpoint",
  "selector",
  "retrieval",
  "attempt",
  "gate",
  "model",
  "claims",
  "proposals",
  "resolve",
  "memento",
  "store",
];

describe("traces", () => {
  it("a turn writes one completed 'turn' run whose ordered events are keyed by the transmission", async () => {
    const { turn, proposalId } = await turnWithProposal("trace-1", "Note that the backup job runs at midnight UTC.");
    const run = await main.db.traceRun.findFirstOrThrow({ where: { transmissionId: turn.transmission_id } });
    expect(run).toMatchObject({
      kind: "turn",
      status: "completed",
      packetId: turn.packet_id,
      threadId: turn.thread_id,
    });
    expect(await main.db.traceRun.count({ where: { transmissionId: turn.transmission_id } })).toBe(1);

    const events = await main.repos.traces.forTransmission(turn.transmission_id);
    expect(events.map((e) => e.phase)).toEqual(TURN_PHASES);
    expect(events.map((e) => e.seq)).toEqual(TURN_PHASES.map((_, i) => i));
    expect(events.every((e) => e.status === "completed" && e.actor === "solserver")).toBe(true);
    expect(events[0]?.metadata).toMatchObject({ request_id: "trace-1", thread_id: turn.thread_id });
    // The seed's breakpoint event: summary and metadata exactly as seed 000 shows them.
    expect(events[1]?.summary).toBe("Breakpoint decision: SHOULD");
    expect(events[1]?.metadata).toMatchObject({
      kind: "breakpoint_engine",
      decision: "should",
      peakGuardrailActive: false,
      source: "none",
    });
    expect(events.find((e) => e.phase === "proposals")?.summary).toMatch(/\b1 proposal/);

    // A promotion appends its own run, keyed to the same transmission.
    await caller.promotion.promote({ proposal_id: proposalId, action: "reject" });
    const all = await main.repos.traces.forTransmission(turn.transmission_id);
    expect(all.map((e) => e.phase)).toEqual([...TURN_PHASES, "promotion", "resolve", "promotion"]);
    const runs = await main.db.traceRun.findMany({
      where: { transmissionId: turn.transmission_id },
      orderBy: { startedAt: "asc" },
    });
    expect(runs.map((r) => [r.kind, r.status])).toEqual([
      ["turn", "completed"],
      ["promotion", "completed"],
    ]);
  });

  it("threads.get shows the owner (and a Jam editor) the thread's messages and each turn's trace", async () => {
    const first = await caller.chat.respond({
      request_id: "trace-thread-1",
      message: "Note that builds run on arm64.",
    });
    const second = await caller.chat.respond({
      request_id: "trace-thread-2",
      thread_id: first.thread_id,
      message: "Remember that the arm64 runners live in Oslo.",
    });
    expect(second.thread_id).toBe(first.thread_id);
    const detail = await caller.threads.get({ thread_id: first.thread_id });
    expect(detail).toMatchObject({ thread_id: first.thread_id, owner_email: alice.email });
    expect(detail).not.toHaveProperty("owner_id");
    expect(detail.messages.map((m) => [m.role, m.content])).toEqual([
      ["user", "Note that builds run on arm64."],
      ["assistant", first.assistant_text],
      ["user", "Remember that the arm64 runners live in Oslo."],
      ["assistant", second.assistant_text],
    ]);
    expect(detail.turns.map((t) => [t.packet_id, t.transmission_id])).toEqual([
      [first.packet_id, first.transmission_id],
      [second.packet_id, second.transmission_id],
    ]);
    for (const turn of detail.turns) {
      expect(turn.trace.map((e) => e.phase)).toEqual(TURN_PHASES);
    }
    expect(await jamCaller.threads.get({ thread_id: first.thread_id })).toEqual(detail);
    const listed = await caller.threads.list({ limit: 100 });
    expect(listed.items.map((t) => t.thread_id)).toContain(first.thread_id);
  });
});

describe("ownership: a user sees and decides only their own threads' proposals", () => {
  const BOB_MESSAGE = "We decided that the payroll export runs on the 25th of each month.";
  let bobTurn: Awaited<ReturnType<typeof turnWithProposal>>["turn"];
  let bobProposal: string;
  let bobTitle: string;
  let aliceProposal: string;

  beforeAll(async () => {
    const b = await turnWithProposal("own-bob-1", BOB_MESSAGE, bobCaller);
    bobTurn = b.turn;
    bobProposal = b.proposalId;
    bobTitle = only(b.turn.ui_hints.proposal_previews).title;
    aliceProposal = (await turnWithProposal("own-alice-1", "Remember that the VPN rotates keys on Fridays."))
      .proposalId;
  });

  /** Bob's data that must never appear in an error alice gets (beyond the id she asked about). */
  function bobSecrets(except: string): string[] {
    return [bobTurn.thread_id, bobTurn.response_id, bobTurn.packet_id, bobTitle, BOB_MESSAGE, bob.email, bob.userId]
      .filter((secret) => secret !== except)
      .concat(["payroll"]);
  }

  const forbiddenCalls: { name: string; path: string; requested: () => string; call: () => Promise<unknown> }[] = [
    {
      name: "proposals.get of bob's proposal",
      path: "proposals.get",
      requested: () => bobProposal,
      call: () => caller.proposals.get({ proposal_id: bobProposal }),
    },
    {
      name: "proposals.list of bob's response",
      path: "proposals.list",
      requested: () => bobTurn.response_id,
      call: () => caller.proposals.list({ response_id: bobTurn.response_id }),
    },
    {
      name: "promotion.promote approve_create of bob's proposal",
      path: "promotion.promote",
      requested: () => bobProposal,
      call: () => caller.promotion.promote({ proposal_id: bobProposal, action: "approve_create" }),
    },
    {
      name: "promotion.promote reject of bob's proposal",
      path: "promotion.promote",
      requested: () => bobProposal,
      call: () => caller.promotion.promote({ proposal_id: bobProposal, action: "reject" }),
    },
    {
      name: "threads.get of bob's thread",
      path: "threads.get",
      requested: () => bobTurn.thread_id,
      call: () => caller.threads.get({ thread_id: bobTurn.thread_id }),
    },
    {
      name: "chat.respond into bob's thread",
      path: "chat.respond",
      requested: () => bobTurn.thread_id,
      call: () =>
        caller.chat.respond({ request_id: "own-intrude-1", thread_id: bobTurn.thread_id, message: "What is due?" }),
    },
  ];

  it.each(forbiddenCalls)("$name is FORBIDDEN, writes nothing and leaks nothing", async ({ path, requested, call }) => {
    const before = await rowCounts(main.db);
    const error = await trpcError(call());
    expect(error.code).toBe("FORBIDDEN");
    const shape = clientShape(ctx, error, path);
    expect(shape.data).toMatchObject({ httpStatus: 403, domainCode: "FORBIDDEN" });
    expect(shape.message).toMatch(/^you may not access (proposal|response|thread) [A-Za-z0-9_-]+$/);
    expect(shape.message).toContain(requested());
    const text = JSON.stringify(shape);
    for (const secret of bobSecrets(requested())) expect(text).not.toContain(secret);
    expect(await rowCounts(main.db)).toEqual(before);
    // Bob's proposal and thread are as they were.
    expect((await bobCaller.proposals.get({ proposal_id: bobProposal })).status).toBe("pending");
    expect((await bobCaller.threads.get({ thread_id: bobTurn.thread_id })).messages).toHaveLength(2);
  });

  it("a proposal that does not exist is NOT_FOUND for a user too (checked before ownership)", async () => {
    expect((await trpcError(caller.proposals.get({ proposal_id: "UP-99999" }))).code).toBe("NOT_FOUND");
    expect((await trpcError(caller.threads.get({ thread_id: "th-no-such-thread" }))).code).toBe("NOT_FOUND");
  });

  it("lists show a user only their own threads' proposals and threads; a Jam editor sees all", async () => {
    const aliceIds = (await caller.proposals.list({ status: "all", limit: 100 })).items.map((p) => p.proposal_id);
    expect(aliceIds).toContain(aliceProposal);
    expect(aliceIds).not.toContain(bobProposal);
    const bobList = await bobCaller.proposals.list({ status: "all", limit: 100 });
    expect(bobList.items.map((p) => p.proposal_id)).toContain(bobProposal);
    expect(bobList.items.map((p) => p.proposal_id)).not.toContain(aliceProposal);
    // Counts are of the caller's own proposals too.
    const bobOwned = await main.db.umbraProposal.count({ where: { thread: { ownerId: bob.userId } } });
    const { pending, approved, rejected } = bobList.counts;
    expect(pending + approved + rejected).toBe(bobOwned);

    const jamIds = (await jamCaller.proposals.list({ status: "all", limit: 100 })).items.map((p) => p.proposal_id);
    expect(jamIds).toEqual(expect.arrayContaining([aliceProposal, bobProposal]));
    expect((await jamCaller.proposals.get({ proposal_id: bobProposal })).thread_id).toBe(bobTurn.thread_id);

    const aliceThreads = (await caller.threads.list({ limit: 100 })).items;
    expect(aliceThreads.map((t) => t.thread_id)).not.toContain(bobTurn.thread_id);
    expect(aliceThreads.every((t) => t.owner_email === alice.email)).toBe(true);
    const jamThreads = (await jamCaller.threads.list({ limit: 100 })).items;
    expect(jamThreads).toContainEqual(
      expect.objectContaining({ thread_id: bobTurn.thread_id, owner_email: bob.email }),
    );

    // Search: by the owner's email (any case) or the thread's id; a user's search stays in their threads.
    const byEmail = (await jamCaller.threads.list({ limit: 100, query: bob.email.toUpperCase() })).items;
    expect(byEmail.length).toBeGreaterThan(0);
    expect(byEmail.every((t) => t.owner_email === bob.email)).toBe(true);
    expect((await jamCaller.threads.list({ query: bobTurn.thread_id })).items.map((t) => t.thread_id)).toEqual([
      bobTurn.thread_id,
    ]);
    expect((await caller.threads.list({ query: bobTurn.thread_id })).items).toEqual([]);
    expect((await jamCaller.threads.list({ query: "100%_" })).items).toEqual([]);
  });

  it("the owner decides their own proposal as a user; a Jam editor may decide anyone's", async () => {
    const byOwner = await bobCaller.promotion.promote({ proposal_id: bobProposal, action: "reject" });
    expect(byOwner.status).toBe("rejected");
    const ownEvent = await main.db.promotionEvent.findUniqueOrThrow({ where: { id: byOwner.promotion_id } });
    expect(ownEvent).toMatchObject({ editor: "user", decidedById: bob.userId });

    const byJam = await jamCaller.promotion.promote({ proposal_id: aliceProposal, action: "approve_create" });
    expect(byJam.status).toBe("approved");
    const jamEvent = await main.db.promotionEvent.findUniqueOrThrow({ where: { id: byJam.promotion_id } });
    expect(jamEvent).toMatchObject({ editor: "jam", decidedById: jam.userId });
    expect((await caller.proposals.get({ proposal_id: aliceProposal })).promotion?.editor).toBe("jam");
  });
});

describe("edit_then_approve (Jam editors only)", () => {
  const suggestion = {
    op: "create",
    title: "Use Postgres for analytics",
    delta_summary: "Analytics data lives in Postgres.",
    tags: ["postgres", "analytics", "storage"],
    entities: ["Postgres"],
    confidence: 0.8,
  };
  const overrides = {
    title_edit: "Analytics store: Postgres 16",
    summary_edit: "The analytics store is Postgres 16 on the shared cluster.",
    text_edit: "Chosen in the Q3 review; ClickHouse was the runner-up.",
    tags_add: ["reviewed", "POSTGRES"],
    tags_remove: ["Analytics"],
  };

  async function pendingEditable(requestId: string) {
    const model = await callerWithModel(
      envelopeModel({ assistant_text: "Noted.", meta: { cfb_suggestions: [suggestion] } }, "editable"),
    );
    const turn = await model.caller.chat.respond({ request_id: requestId, message: "Where does analytics live?" });
    return { turn, proposalId: only(turn.ui_hints.proposal_previews).proposal_id };
  }

  it("applies every override, records the Jam editor as the decider and writes the audit log", async () => {
    const { turn, proposalId } = await pendingEditable("edit-1");
    const before = await rowCounts(main.db);
    const result = await jamCaller.promotion.promote({
      proposal_id: proposalId,
      response_id: turn.response_id,
      action: "edit_then_approve",
      editorial_overrides: overrides,
    });
    expect(result).toMatchObject({ proposal_id: proposalId, action: "edit_then_approve", status: "approved" });
    expect(result.cfb).toMatchObject({
      cfb_id: result.final_cfb_id,
      title: overrides.title_edit,
      summary: overrides.summary_edit,
      text: overrides.text_edit,
      // Removal and duplicates are case-insensitive; tags are written one per meaning (the
      // shipped alias writes "postgres" as "postgresql", docs/tags.md).
      tags: ["postgresql", "storage", "reviewed"],
      entities: ["Postgres"],
      trust_tier: "user_approved",
      kind: "heuristic",
    });
    const after = await rowCounts(main.db);
    expect(after.Cfb).toBe(before.Cfb + 1);
    expect(after.PromotionEvent).toBe(before.PromotionEvent + 1);
    expect(after.AuditEvent).toBe(before.AuditEvent + 2);

    const event = await main.db.promotionEvent.findUniqueOrThrow({ where: { id: result.promotion_id } });
    expect(event).toMatchObject({
      proposalId,
      action: "edit_then_approve",
      editor: "jam",
      decidedById: jam.userId,
      finalCfbId: result.final_cfb_id,
      overrides,
    });
    const proposal = await caller.proposals.get({ proposal_id: proposalId });
    expect(proposal).toMatchObject({
      status: "approved",
      promotion: { action: "edit_then_approve", editor: "jam", final_cfb_id: result.final_cfb_id },
    });
    const detail = await caller.cfbs.get({ cfb_id: result.final_cfb_id ?? "" });
    expect(detail.title).toBe(overrides.title_edit);

    const audit = await jamCaller.audit.list({ target_type: "proposal", target_id: proposalId });
    expect(only(audit.items)).toMatchObject({
      action: "proposal.edit_then_approve",
      actor_email: jam.email,
      actor_user_id: jam.userId,
      via: "cookie",
      target_type: "proposal",
      target_id: proposalId,
      details: { promotion_id: result.promotion_id, final_cfb_id: result.final_cfb_id, overrides },
    });
    const cfbAudit = await jamCaller.audit.list({ target_type: "cfb", target_id: result.final_cfb_id ?? "" });
    expect(only(cfbAudit.items)).toMatchObject({ action: "cfb.create", actor_email: jam.email });
  });

  it("a single override leaves the rest of the proposal as the model proposed it", async () => {
    const { proposalId } = await pendingEditable("edit-2");
    const result = await jamCaller.promotion.promote({
      proposal_id: proposalId,
      action: "edit_then_approve",
      editorial_overrides: { tags_remove: ["storage"] },
    });
    expect(result.cfb).toMatchObject({
      title: suggestion.title,
      summary: suggestion.delta_summary,
      text: null,
      tags: ["postgresql", "analytics"],
    });
  });

  it("is FORBIDDEN for a user, even on their own proposal, and nothing is written", async () => {
    const { proposalId } = await pendingEditable("edit-3");
    const before = await rowCounts(main.db);
    const error = await trpcError(
      caller.promotion.promote({
        proposal_id: proposalId,
        action: "edit_then_approve",
        editorial_overrides: overrides,
      }),
    );
    expect(error.code).toBe("FORBIDDEN");
    expect(error.message).toBe("only Jam editors may edit_then_approve");
    expect(await rowCounts(main.db)).toEqual(before);
    expect((await caller.proposals.get({ proposal_id: proposalId })).status).toBe("pending");
  });

  it("requires editorial_overrides, and refuses a proposal that was already decided", async () => {
    const { proposalId } = await pendingEditable("edit-4");
    const before = await rowCounts(main.db);
    const missing = await trpcError(
      jamCaller.promotion.promote({ proposal_id: proposalId, action: "edit_then_approve" }),
    );
    expect(missing.code).toBe("BAD_REQUEST");
    expect(clientShape(ctx, missing, "promotion.promote").data).toMatchObject({ field: "editorial_overrides" });
    expect(await rowCounts(main.db)).toEqual(before);
    await caller.promotion.promote({ proposal_id: proposalId, action: "reject" });
    const late = await trpcError(
      jamCaller.promotion.promote({
        proposal_id: proposalId,
        action: "edit_then_approve",
        editorial_overrides: overrides,
      }),
    );
    expect(late.code).toBe("CONFLICT");
    expect(late.message).toMatch(new RegExp(`^proposal ${proposalId} was already rejected by \\S+@\\S+ at .* UTC`));
  });
});

describe("unexpected errors are masked", () => {
  const boom = async (): Promise<never> => {
    throw new Error("secret detail: /var/lib/solserver password=hunter2");
  };
  /** The repositories' shape with every query replaced by `boom`. */
  function broken(value: unknown): unknown {
    if (typeof value === "function") return boom;
    if (value && typeof value === "object") {
      return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, broken(inner)]));
    }
    return value;
  }
  const brokenCtx = () =>
    createInnerContext({
      deps: { ...main.deps, repos: broken(main.deps.repos) as TServiceDeps["repos"] },
      actor: alice,
    });

  it("through createCaller the error is INTERNAL_SERVER_ERROR and the formatter masks it", async () => {
    const error = await trpcError(createCaller(brokenCtx()).proposals.list({}));
    expect(error.code).toBe("INTERNAL_SERVER_ERROR");
    const shape = clientShape(brokenCtx(), error, "proposals.list");
    expect(shape.message).toBe("Internal server error");
    expect(JSON.stringify(shape)).not.toContain("secret detail");
    expect(shape.data).not.toHaveProperty("stack");
    expect(shape.data).toMatchObject({ code: "INTERNAL_SERVER_ERROR", httpStatus: 500, domainCode: null, field: null });
  });

  it("over HTTP (fetch adapter) a query answers 500 'Internal server error' without the detail", async () => {
    const res = await trpcOverHttp(brokenCtx(), "proposals.list", { status: "pending" }, "GET");
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({
      error: { message: "Internal server error", data: { code: "INTERNAL_SERVER_ERROR" } },
    });
    expect(res.text).not.toContain("secret detail");
    expect(res.text).not.toContain("hunter2");
    expect(res.text).not.toContain("stack");
  });

  it("over HTTP a mutation is masked the same way", async () => {
    const res = await trpcOverHttp(
      brokenCtx(),
      "chat.respond",
      { request_id: "masked-1", message: "We decided to hide secrets." },
      "POST",
    );
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ error: { message: "Internal server error" } });
    expect(res.text).not.toContain("secret detail");
  });

  it("over HTTP, domain and validation errors keep their message, status and field", async () => {
    const notFound = await trpcOverHttp(ctx, "proposals.get", { proposal_id: "UP-9999" }, "GET");
    expect(notFound.status).toBe(404);
    expect(notFound.body).toMatchObject({
      error: { message: "proposal UP-9999 does not exist", data: { domainCode: "NOT_FOUND", field: "proposal_id" } },
    });
    const invalid = await trpcOverHttp(
      ctx,
      "promotion.promote",
      { proposal_id: "x", action: "approve_create" },
      "POST",
    );
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({
      error: { message: "proposal_id: must be a proposal id like UP-0001", data: { field: "proposal_id" } },
    });
    expect(invalid.text).not.toContain("stack");
  });
});
