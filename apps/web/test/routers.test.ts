// The tRPC API end to end through the app router (createCaller), on one migrated temp SQLite file
// for this test file: chat turn -> proposals -> promotion -> CFB, idempotency, conflicts, input
// errors, server-side derivation of proposals from an untrusted model, traces and error masking.
import type { TPromoteRequest } from "@solserver/contracts";
import {
  createOfflineModel,
  openControlPlane,
  type TControlPlane,
  type TModelProvider,
} from "@solserver/control-plane";
import type { DbClient, TRepositories } from "@solserver/db";
import { createTestDatabase, type TTestDatabase } from "@solserver/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createInnerContext, type TInnerContext } from "@/server/trpc/init";
import { createCaller } from "@/server/trpc/root";
import {
  cfbDraft,
  clientShape,
  envelopeModel,
  LOCAL_ACTOR,
  only,
  rowCounts,
  throwingModel,
  trpcError,
  trpcOverHttp,
} from "./helpers";

type TCaller = ReturnType<typeof createCaller>;
type TOpened = { controlPlane: TControlPlane; repos: TRepositories; db: DbClient };

let tdb: TTestDatabase;
let main: TOpened;
let ctx: TInnerContext;
let caller: TCaller;
const extraClients: DbClient[] = [];

beforeAll(async () => {
  tdb = await createTestDatabase("web-routers");
  main = await openControlPlane({ databaseUrl: tdb.url });
  ctx = createInnerContext({ controlPlane: main.controlPlane, actor: LOCAL_ACTOR });
  caller = createCaller(ctx);
});

afterAll(async () => {
  for (const client of extraClients) await client.$disconnect();
  await main?.db.$disconnect();
  tdb?.cleanup();
});

/** A second control plane on the same database file, answering with another model. */
async function callerWithModel(model: TModelProvider): Promise<{ caller: TCaller; ctx: TInnerContext }> {
  const opened = await openControlPlane({ databaseUrl: tdb.url, model });
  extraClients.push(opened.db);
  const modelCtx = createInnerContext({ controlPlane: opened.controlPlane, actor: LOCAL_ACTOR });
  return { caller: createCaller(modelCtx), ctx: modelCtx };
}

/** A turn whose message the offline model turns into exactly one proposal. */
async function turnWithProposal(requestId: string, message: string) {
  const turn = await caller.chat.respond({ request_id: requestId, message });
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
    });

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
    expect(rejected.counts).toEqual({ pending: 0, approved: 0, rejected: 1 });
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
    expect(error.message).toBe(`proposal ${proposalId} was already ${state}`);
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

  it("concurrent duplicates that both reach the model: the loser's write is undone and its ids given back", async () => {
    // The gate holds both calls inside the model until both have arrived, so both pass the
    // request_id lookup and both try to store: the unique request_id must decide.
    const offline = createOfflineModel();
    let arrived: (() => void)[] = [];
    const gated = await callerWithModel({
      name: "gated-offline",
      async generate(modelInput) {
        await new Promise<void>((resolve) => {
          arrived.push(resolve);
          if (arrived.length === 2) {
            for (const release of arrived) release();
            arrived = [];
          }
        });
        return offline.generate(modelInput);
      },
    });
    const before = await rowCounts(main.db);
    const input = { request_id: "idem-5", message: "We decided to keep audit logs for seven years." };
    const [a, b] = await Promise.all([gated.caller.chat.respond(input), gated.caller.chat.respond(input)]);
    expect(a.response_id).toBe(b.response_id);
    expect([a.replayed, b.replayed].sort()).toEqual([false, true]);
    const after = await rowCounts(main.db);
    expect(after.Packet).toBe(before.Packet + 1);
    expect(after.UmbraProposal).toBe(before.UmbraProposal + 1);
    expect(after.Message).toBe(before.Message + 2);
    expect(after.TraceRun).toBe(before.TraceRun + 1);
    // The rolled-back transaction gave its ids back: the next turn continues the sequence.
    expect(after.IdSequence.packet).toBe((before.IdSequence.packet ?? 0) + 1);
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
    input: () => TPromoteRequest;
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
      name: "approve_update (not available yet)",
      input: () => ({ proposal_id: pendingProposal.proposalId, action: "approve_update" }),
      domainCode: "UNSUPPORTED",
      field: "action",
      message: /not available yet/,
    },
    {
      name: "edit_then_approve (not available yet)",
      input: () => ({
        proposal_id: pendingProposal.proposalId,
        action: "edit_then_approve",
        editorial_overrides: { tags_add: ["ops"] },
      }),
      domainCode: "UNSUPPORTED",
      field: "action",
      message: /not available yet/,
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

  it.each(pendingCases)("promotion.promote with $name -> BAD_REQUEST, proposal stays pending", async (c) => {
    const before = await rowCounts(main.db);
    const error = await trpcError(caller.promotion.promote(c.input()));
    expect(error.code).toBe("BAD_REQUEST");
    expect(error.message).toMatch(c.message);
    expect(clientShape(ctx, error, "promotion.promote").data).toMatchObject({
      httpStatus: 400,
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
    const outsider = createCaller(
      createInnerContext({ controlPlane: main.controlPlane, actor: { kind: "anonymous" } }),
    );
    const before = await rowCounts(main.db);
    const error = await trpcError(outsider.chat.respond({ request_id: "outsider-1", message: POSTGRES }));
    expect(error.code).toBe("UNAUTHORIZED");
    expect(error.message).toBe("sign in to review knowledge");
    for (const call of [
      outsider.proposals.list({}),
      outsider.proposals.get({ proposal_id: "UP-0001" }),
      outsider.promotion.promote({ proposal_id: "UP-0001", action: "reject" }),
      outsider.cfbs.list({}),
      outsider.cfbs.get({ cfb_id: "CFB-0001" }),
    ]) {
      expect((await trpcError(call)).code).toBe("UNAUTHORIZED");
    }
    expect(await rowCounts(main.db)).toEqual(before);
    expect(await outsider.system.health()).toEqual({ status: "ok", model: "offline-heuristic-v1", cfbs: before.Cfb });
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
    expect(events.map((e) => [e.cfbId, e.kind])).toEqual([[cfb.cfb_id, "used"]]);
  });
});

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
    expect(events.map((e) => e.phase)).toEqual(["packet", "retrieval", "model", "proposals"]);
    expect(events.map((e) => e.seq)).toEqual([0, 1, 2, 3]);
    expect(events.every((e) => e.status === "completed" && e.actor === "solserver")).toBe(true);
    expect(events[0]?.metadata).toMatchObject({ request_id: "trace-1", thread_id: turn.thread_id });
    expect(events[3]?.summary).toMatch(/\b1 proposal/);

    // A promotion appends its own run, keyed to the same transmission.
    await caller.promotion.promote({ proposal_id: proposalId, action: "reject" });
    const all = await main.repos.traces.forTransmission(turn.transmission_id);
    expect(all.map((e) => e.phase)).toEqual(["packet", "retrieval", "model", "proposals", "promotion", "promotion"]);
    const runs = await main.db.traceRun.findMany({
      where: { transmissionId: turn.transmission_id },
      orderBy: { startedAt: "asc" },
    });
    expect(runs.map((r) => [r.kind, r.status])).toEqual([
      ["turn", "completed"],
      ["promotion", "completed"],
    ]);
  });
});

describe("unexpected errors are masked", () => {
  const boom = async (): Promise<never> => {
    throw new Error("secret detail: /var/lib/solserver password=hunter2");
  };
  const brokenPlane: TControlPlane = {
    chat: { respond: boom },
    proposals: { list: boom, get: boom },
    promotion: { promote: boom },
    cfbs: { list: boom, get: boom },
    system: { health: boom },
  };
  const brokenCtx = () => createInnerContext({ controlPlane: brokenPlane, actor: LOCAL_ACTOR });

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
