// The review queue's counts (issue 20, point 7): kept by every write that changes a proposal's
// status (ProposalCount, packages/db/src/repositories/proposal-counts.ts) instead of counted over
// the whole queue on each read. After every kind of change (creation, twins, approvals,
// rejections, folds, reopen, a decision that lost a race or failed half-way) they must equal a
// full recount, for each caller's scope: a user's own threads, every thread for a Jam editor.

import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { type TCfbSuggestion, ZProposalListRequest } from "@solserver/contracts";
import { repositoryRoot } from "@solserver/db";
import { proposalCountDrift } from "@solserver/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listProposals, parseInput, promoteProposal, reopenProposal, respondToTurn } from "../src/index";
import { openTestControlPlane, scriptedModel, type TTestActor, testCfb } from "../src/testing";

let next: TCfbSuggestion[] = [];
const scripted = scriptedModel(() => ({ suggestions: next }));

let opened: Awaited<ReturnType<typeof openTestControlPlane>>;
let alice: TTestActor;
let bob: TTestActor;
let jam: TTestActor;
let n = 0;
/** A thread from before accounts (no owner): only Jam editors see its proposals. */
const ORPHAN_THREAD = "th-before-accounts";

const suggestion = (title: string, delta: string, tags: string[] = ["ops"]): TCfbSuggestion => ({
  op: "create",
  title,
  delta_summary: delta,
  tags,
  entities: [],
  confidence: 0.8,
});

/** One chat turn suggesting `suggestions`; its proposals' ids in order. */
async function say(who: TTestActor, suggestions: TCfbSuggestion[], threadId?: string) {
  next = suggestions;
  const turn = await respondToTurn(opened.as(who), {
    request_id: `counts-${++n}`,
    message: "We decided this.",
    ...(threadId ? { thread_id: threadId } : {}),
  });
  return {
    threadId: turn.thread_id,
    responseId: turn.response_id,
    ids: turn.ui_hints.proposal_previews.map((p) => p.proposal_id),
  };
}

const list = (who: TTestActor, input: Record<string, unknown> = {}) =>
  listProposals(opened.as(who), parseInput(ZProposalListRequest, { status: "pending", limit: 100, ...input }));

/** The counts as the lists define them, counted from every proposal the caller may see. */
async function recount(who: TTestActor, domain?: string) {
  const rows = await opened.db.umbraProposal.findMany({
    where: {
      ...(who.role === "jam" ? {} : { thread: { ownerId: who.userId } }),
      ...(domain === undefined ? {} : { domain }),
    },
    select: { status: true, twinOfId: true, echo: true },
  });
  const counts = { pending: 0, approved: 0, rejected: 0, duplicate: 0 };
  for (const r of rows) {
    // A twin is in its lead's count; an echo too in the Jam queue, and a lead in its owner's.
    if (r.status === "pending" && r.twinOfId !== null && (who.role === "jam" || !r.echo)) continue;
    counts[r.status as keyof typeof counts]++;
  }
  return counts;
}

/** Stored counts equal a recount, for every owner and every caller, whatever the list's filters. */
async function expectExact() {
  expect(await proposalCountDrift(opened.db)).toEqual([]);
  for (const who of [alice, bob, jam]) {
    const expected = await recount(who);
    // Status and sort choose the page, not the counts: those are of the caller's whole queue...
    for (const input of [{}, { status: "all" }, { status: "rejected", sort: "oldest" }]) {
      expect((await list(who, input)).counts).toEqual(expected);
    }
    // ...and the narrowing filters (here a domain) narrow the counts too (issue 23).
    expect((await list(who, { domain: "security" })).counts).toEqual(await recount(who, "security"));
  }
}

beforeAll(async () => {
  opened = await openTestControlPlane({ label: "queue-counts", model: scripted, limits: { chatTurnsPerMinute: 1000 } });
  alice = await opened.account("user", "alice@counts.test");
  bob = await opened.account("user", "bob@counts.test");
  jam = await opened.account("jam", "editor@counts.test");
  await opened.db.thread.create({ data: { id: ORPHAN_THREAD, title: "From before accounts" } });
});
afterAll(async () => opened?.close());

describe("the queue's counts stay equal to a full recount", () => {
  it("start at zero, and count creations in each owner's scope, twins apart", async () => {
    expect((await list(jam)).counts).toEqual({ pending: 0, approved: 0, rejected: 0, duplicate: 0 });
    await expectExact();
    const s = suggestion("Deploy window", "Deploys happen between 09:00 and 16:00.");
    // Twins within one turn, and in the same thread a turn later.
    const first = await say(alice, [s, s, suggestion("Pager rota", "The pager rotates weekly.", ["oncall"])]);
    await say(alice, [s], first.threadId);
    await say(bob, [suggestion("Bob's cache", "The cache holds 10 minutes of data.", ["cache"])]);
    await say(jam, [suggestion("Old thread fact", "The legacy importer runs at midnight.", ["legacy"])], ORPHAN_THREAD);
    expect((await list(alice)).counts).toEqual({ pending: 2, approved: 0, rejected: 0, duplicate: 0 });
    expect((await list(bob)).counts).toEqual({ pending: 1, approved: 0, rejected: 0, duplicate: 0 });
    expect((await list(jam)).counts).toEqual({ pending: 4, approved: 0, rejected: 0, duplicate: 0 });
    await expectExact();
  });

  it("approving a lead folds its twins: pending down, approved and duplicate up", async () => {
    const s = suggestion("Backup window", "Nightly backups run between 01:00 and 03:00 UTC.", ["backup"]);
    const a = await say(alice, [s]);
    await say(alice, [s], a.threadId);
    await say(alice, [s], a.threadId);
    const before = (await list(alice)).counts;
    const decided = await promoteProposal(opened.as(alice), {
      proposal_id: a.ids[0] as string,
      action: "approve_create",
    });
    expect(decided.folded_proposal_ids).toHaveLength(2);
    expect((await list(alice)).counts).toEqual({
      ...before,
      pending: before.pending - 1,
      approved: before.approved + 1,
      duplicate: before.duplicate + 2,
    });
    await expectExact();
  });

  it("rejecting a twin folds its lead and the others into it", async () => {
    const s = suggestion("Escalation", "Pages escalate to the secondary after 15 minutes.", ["oncall"]);
    const a = await say(alice, [s]);
    const b = await say(alice, [s], a.threadId);
    await say(alice, [s], a.threadId);
    const decided = await promoteProposal(opened.as(jam), { proposal_id: b.ids[0] as string, action: "reject" });
    expect(decided.folded_proposal_ids).toHaveLength(2);
    await expectExact();
  });

  it("reopening a rejection and deciding again", async () => {
    const one = await say(bob, [suggestion("Log retention", "Logs are kept for 14 days.", ["logs"])]);
    const id = one.ids[0] as string;
    await promoteProposal(opened.as(jam), { proposal_id: id, action: "reject" });
    await expectExact();
    const before = (await list(bob)).counts;
    await reopenProposal(opened.as(jam), { proposal_id: id });
    expect((await list(bob)).counts).toEqual({ ...before, pending: before.pending + 1, rejected: before.rejected - 1 });
    await expectExact();
    await promoteProposal(opened.as(bob), { proposal_id: id, action: "approve_create" });
    await expectExact();
  });

  it("a reopened lead whose twins were folded: they stay duplicate, its next decision counts once", async () => {
    const s = suggestion("Cert rotation", "TLS certificates rotate every 60 days.", ["tls"]);
    const a = await say(alice, [s]);
    await say(alice, [s], a.threadId);
    await promoteProposal(opened.as(jam), { proposal_id: a.ids[0] as string, action: "reject" });
    await reopenProposal(opened.as(jam), { proposal_id: a.ids[0] as string });
    await expectExact();
    await promoteProposal(opened.as(jam), { proposal_id: a.ids[0] as string, action: "approve_create" });
    await expectExact();
  });

  it("the same proposal from two people: one item for Jam editors, a lead in each owner's queue", async () => {
    const s = suggestion("Status page", "Incidents are posted on the status page within 10 minutes.", ["incident"]);
    const a = await say(alice, [s]);
    const before = { jam: (await list(jam)).counts, bob: (await list(bob)).counts };
    const b = await say(bob, [s, s]);
    expect((await list(jam)).counts).toEqual(before.jam);
    expect((await list(bob)).counts).toEqual({ ...before.bob, pending: before.bob.pending + 1 });
    await expectExact();
    // Alice's own decision covers hers: bob's then leads the group for Jam editors too.
    await promoteProposal(opened.as(alice), { proposal_id: a.ids[0] as string, action: "reject" });
    expect((await list(jam)).counts.pending).toBe(before.jam.pending);
    await expectExact();
    // A Jam editor's decision covers bob's twin with it.
    await promoteProposal(opened.as(jam), { proposal_id: b.ids[0] as string, action: "approve_create" });
    await expectExact();
  });

  it("a decision in a thread from before accounts counts for Jam editors only", async () => {
    const turn = await say(
      jam,
      [suggestion("Legacy export", "The export runs on Sundays.", ["legacy"])],
      ORPHAN_THREAD,
    );
    const users = [(await list(alice)).counts, (await list(bob)).counts];
    await promoteProposal(opened.as(jam), { proposal_id: turn.ids[0] as string, action: "approve_create" });
    expect([(await list(alice)).counts, (await list(bob)).counts]).toEqual(users);
    await expectExact();
  });

  it("two decisions at once on one proposal: one lands, and it is counted once", async () => {
    const one = await say(alice, [suggestion("Race", "Only one decision wins.", ["race"])]);
    const id = one.ids[0] as string;
    const settled = await Promise.allSettled([
      promoteProposal(opened.as(alice), { proposal_id: id, action: "approve_create" }),
      promoteProposal(opened.as(jam), { proposal_id: id, action: "reject" }),
      promoteProposal(opened.as(jam), { proposal_id: id, action: "approve_create" }),
    ]);
    expect(settled.filter((s) => s.status === "fulfilled")).toHaveLength(1);
    await expectExact();
  });

  it("a decision that fails after its counts were written rolls them back with it", async () => {
    const cfb = await promoteProposal(opened.as(alice), {
      proposal_id: (await say(alice, [suggestion("Pool size", "The pool has 8 workers.", ["pool"])])).ids[0] as string,
      action: "approve_create",
    });
    const s = suggestion("Pool size", "The pool has 16 workers.", ["pool"]);
    const turn = await say(alice, [{ ...s, op: "update", target_cfb_id: cfb.final_cfb_id as string }]);
    const before = (await list(alice)).counts;
    // The CFB moved on between the checks and the write: the write's conditional rewrite is
    // CONFLICT after the status flip and its counts, and the transaction takes them back.
    await expect(
      opened.repos.proposals.applyPromotion({
        proposalId: turn.ids[0] as string,
        action: "approve_update",
        editor: "user",
        audit: { actorUserId: alice.userId, actorEmail: alice.email, via: "cookie" },
        cfbDraft: null,
        cfbUpdate: {
          cfbId: cfb.final_cfb_id as string,
          expectedVersion: 99,
          draft: testCfb({ title: s.title, summary: s.delta_summary }),
          mergedId: null,
        },
        overrides: null,
        trace: [],
      }),
    ).rejects.toMatchObject({ code: "CONFLICT" });
    expect(await opened.db.umbraProposal.findUnique({ where: { id: turn.ids[0] }, select: { status: true } })).toEqual({
      status: "pending",
    });
    expect((await list(alice)).counts).toEqual(before);
    await expectExact();
  });

  it("counts of one response: that response's proposals, as before", async () => {
    const s = suggestion("Response scope", "Counts follow the response.", ["scope"]);
    const turn = await say(alice, [s, s, suggestion("Other", "Another fact.", ["other"])]);
    await promoteProposal(opened.as(alice), { proposal_id: turn.ids[2] as string, action: "reject" });
    for (const who of [alice, jam]) {
      expect((await list(who, { response_id: turn.responseId, status: "all" })).counts).toEqual({
        pending: 1,
        approved: 0,
        rejected: 1,
        duplicate: 0,
      });
    }
  });
});

describe("the migration that added the counts", () => {
  it("counts existing proposals the same way (its backfill run on the data above)", async () => {
    const dir = path.join(repositoryRoot(), "prisma", "migrations");
    const name = readdirSync(dir).find((d) => d.endsWith("_proposal_counts"));
    expect(name).toBeDefined();
    const migration = readFileSync(path.join(dir, name as string, "migration.sql"), "utf8");
    const backfill = migration.slice(migration.indexOf("-- Backfill"));
    expect(backfill).toMatch(/INSERT INTO "ProposalCount"/);
    await opened.db.proposalCount.deleteMany();
    await opened.db.$executeRawUnsafe(backfill);
    expect(await proposalCountDrift(opened.db)).toEqual([]);
    await expectExact();
  });
});
