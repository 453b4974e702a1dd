// The review desk (issue 23): queue cards carry their proposer, thread, the target's current text,
// assignee and discussion; counts follow the filters; per-domain queues; assignment (Jam editors,
// to Jam editors); comments and requests for changes, visible to the proposer in their thread;
// a rejection's reason kept with the decision.

import {
  ZPromoteRequest,
  ZProposalAssignRequest,
  ZProposalCommentRequest,
  ZProposalCommentsRequest,
  ZProposalListRequest,
} from "@solserver/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  assignProposals,
  commentOnProposal,
  listProposalComments,
  listProposals,
  parseInput,
  promoteProposal,
  proposalQueues,
  respondToTurn,
} from "../src/index";
import { openTestControlPlane, scriptedModel, type TTestActor, testCfb } from "../src/testing";

type TS = { title: string; tag: string; op?: "create" | "update"; target?: string };
let next: TS[] = [];
const scripted = scriptedModel(() => ({
  suggestions: next.map((s) => ({
    op: s.op ?? ("create" as const),
    ...(s.target ? { target_cfb_id: s.target } : {}),
    title: s.title,
    delta_summary: `${s.title} is now the rule.`,
    tags: [s.tag],
    entities: [],
    confidence: 0.7,
  })),
}));

let opened: Awaited<ReturnType<typeof openTestControlPlane>>;
let alice: TTestActor;
let bob: TTestActor;
let jam: TTestActor;
let jam2: TTestActor;
let targetId: string;
let n = 0;

async function propose(who: TTestActor, s: TS): Promise<{ proposal_id: string; thread_id: string }> {
  next = [s];
  const res = await respondToTurn(opened.as(who), { request_id: `desk-${++n}`, message: `We decided: ${s.title}.` });
  const preview = res.ui_hints.proposal_previews[0];
  if (!preview) throw new Error("no proposal");
  return { proposal_id: preview.proposal_id, thread_id: res.thread_id };
}

const list = (who: TTestActor, input: z.input<typeof ZProposalListRequest>) =>
  listProposals(opened.as(who), parseInput(ZProposalListRequest, input));

beforeAll(async () => {
  opened = await openTestControlPlane({ label: "review-desk", model: scripted, limits: { chatTurnsPerMinute: 1000 } });
  alice = await opened.account("user");
  bob = await opened.account("user");
  jam = await opened.account("jam");
  jam2 = await opened.account("jam");
  const cfb = await opened.repos.cfbs.create(
    testCfb({ title: "Pager rotation", summary: "The pager rotates every Monday at nine.", tags: ["ops"] }),
  );
  targetId = cfb.cfb_id;
});
afterAll(async () => opened?.close());

describe("queue cards", () => {
  it("carry the proposer, the thread, and the target's current text", async () => {
    const p = await propose(alice, {
      title: "Pager rotation moves to Tuesday",
      tag: "ops",
      op: "update",
      target: targetId,
    });
    const page = await list(jam, { limit: 100 });
    const item = page.items.find((i) => i.proposal_id === p.proposal_id);
    expect(item?.queue.proposer?.email).toBe(alice.email);
    expect(item?.queue.thread_title.length).toBeGreaterThan(0);
    expect(item?.queue.target).toMatchObject({
      cfb_id: targetId,
      title: "Pager rotation",
      summary: "The pager rotates every Monday at nine.",
      version: 1,
    });
    expect(item?.queue.assignee).toBeNull();
    expect(item?.queue.comment_count).toBe(0);
  });

  it("a new CFB's card has no target", async () => {
    const p = await propose(alice, { title: "Badges are blue", tag: "office" });
    const item = (await list(jam, { limit: 100 })).items.find((i) => i.proposal_id === p.proposal_id);
    expect(item?.queue.target).toBeNull();
  });
});

describe("counts follow the filters", () => {
  it("a domain filter counts that domain only; no filter counts everything", async () => {
    const all = await list(jam, { limit: 1 });
    const queues = await proposalQueues(opened.as(jam));
    expect(queues.domains.reduce((sum, d) => sum + d.pending, 0)).toBe(all.counts.pending);
    for (const d of queues.domains) {
      const filtered = await list(jam, { domain: d.domain || undefined, limit: 1 });
      if (d.domain) expect(filtered.counts.pending).toBe(d.pending);
    }
    const none = await list(jam, { min_confidence: 0.99, limit: 1 });
    expect(none.counts).toEqual({ pending: 0, approved: 0, rejected: 0, duplicate: 0 });
  });

  it("a user's queues count their own threads only", async () => {
    await propose(bob, { title: "Bob's private rule", tag: "bobstuff" });
    const mine = await proposalQueues(opened.as(alice));
    const everyone = await proposalQueues(opened.as(jam));
    const sum = (q: typeof mine) => q.domains.reduce((s, d) => s + d.pending, 0);
    expect(sum(everyone)).toBeGreaterThan(sum(mine));
    expect((await list(alice, { limit: 100 })).counts.pending).toBe(sum(mine));
  });
});

describe("assignment", () => {
  const assign = (who: TTestActor, input: z.input<typeof ZProposalAssignRequest>) =>
    assignProposals(opened.as(who), parseInput(ZProposalAssignRequest, input));

  it("a Jam editor assigns to a Jam editor; 'assigned to me' lists them; unassign clears", async () => {
    const a = await propose(alice, { title: "Standups at ten", tag: "team" });
    const b = await propose(alice, { title: "Retros on Fridays", tag: "team" });
    const result = await assign(jam, { proposal_ids: [a.proposal_id, b.proposal_id], assignee_id: jam2.userId });
    expect(result).toMatchObject({ assigned: 2, assignee: { email: jam2.email } });
    const mine = await list(jam2, { assignee: "me", limit: 100 });
    expect(mine.items.map((i) => i.proposal_id).sort()).toEqual([a.proposal_id, b.proposal_id].sort());
    expect(mine.counts.pending).toBe(2);
    expect(mine.items[0]?.queue.assignee?.email).toBe(jam2.email);
    expect((await proposalQueues(opened.as(jam2))).assigned_to_me).toBe(2);
    expect((await list(jam, { assignee: "me", limit: 100 })).items).toHaveLength(0);
    await assign(jam, { proposal_ids: [a.proposal_id], assignee_id: null });
    expect((await list(jam2, { assignee: "me", limit: 100 })).items.map((i) => i.proposal_id)).toEqual([b.proposal_id]);
    const audit = await opened.repos.audit.list({ limit: 50 });
    expect(audit.items.some((e) => e.action === "proposal.assign" && e.target_id === a.proposal_id)).toBe(true);
    expect(audit.items.some((e) => e.action === "proposal.unassign" && e.target_id === a.proposal_id)).toBe(true);
  });

  it("refuses users, a user as assignee, and an unknown account; decided proposals are left alone", async () => {
    const p = await propose(alice, { title: "Lunch at noon", tag: "team" });
    await expect(assign(alice, { proposal_ids: [p.proposal_id], assignee_id: jam.userId })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(assign(jam, { proposal_ids: [p.proposal_id], assignee_id: alice.userId })).rejects.toMatchObject({
      code: "BAD_INPUT",
      field: "assignee_id",
    });
    await expect(assign(jam, { proposal_ids: [p.proposal_id], assignee_id: "no-such-user" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await promoteProposal(
      opened.as(jam),
      parseInput(ZPromoteRequest, { proposal_id: p.proposal_id, action: "reject" }),
    );
    expect((await assign(jam, { proposal_ids: [p.proposal_id], assignee_id: jam.userId })).assigned).toBe(0);
  });

  it("rejects an empty or oversized list with the field named", () => {
    expect(() => parseInput(ZProposalAssignRequest, { proposal_ids: [], assignee_id: null })).toThrow(/proposal_ids/);
    const many = Array.from({ length: 101 }, (_, i) => `UP-${i + 1}`);
    expect(() => parseInput(ZProposalAssignRequest, { proposal_ids: many, assignee_id: null })).toThrow(/proposal_ids/);
  });
});

describe("discussion", () => {
  const comment = (who: TTestActor, input: z.input<typeof ZProposalCommentRequest>) =>
    commentOnProposal(opened.as(who), parseInput(ZProposalCommentRequest, input));
  const comments = (who: TTestActor, input: z.input<typeof ZProposalCommentsRequest>) =>
    listProposalComments(opened.as(who), parseInput(ZProposalCommentsRequest, input));

  it("a request for changes reaches the proposer in their thread, and their answer closes it", async () => {
    const p = await propose(alice, { title: "Deploys on Thursdays", tag: "ops" });
    await comment(jam, { proposal_id: p.proposal_id, kind: "request_changes", body: "Which time zone?" });
    let card = (await list(jam, { limit: 100 })).items.find((i) => i.proposal_id === p.proposal_id);
    expect(card?.queue).toMatchObject({ comment_count: 1, changes_requested: true });
    const inThread = await comments(alice, { thread_id: p.thread_id });
    expect(inThread.items).toEqual([
      expect.objectContaining({
        kind: "request_changes",
        body: "Which time zone?",
        author: expect.objectContaining({ email: jam.email }),
      }),
    ]);
    await comment(alice, { proposal_id: p.proposal_id, body: "UTC." });
    card = (await list(jam, { limit: 100 })).items.find((i) => i.proposal_id === p.proposal_id);
    expect(card?.queue).toMatchObject({ comment_count: 2, changes_requested: false });
  });

  it("only Jam editors request changes, only on pending proposals; others' threads are FORBIDDEN", async () => {
    const p = await propose(alice, { title: "Coffee is free", tag: "office" });
    await expect(
      comment(alice, { proposal_id: p.proposal_id, kind: "request_changes", body: "x" }),
    ).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(comment(bob, { proposal_id: p.proposal_id, body: "mine now" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(comments(bob, { thread_id: p.thread_id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await promoteProposal(
      opened.as(jam),
      parseInput(ZPromoteRequest, { proposal_id: p.proposal_id, action: "reject" }),
    );
    await expect(
      comment(jam, { proposal_id: p.proposal_id, kind: "request_changes", body: "late" }),
    ).rejects.toMatchObject({
      code: "CONFLICT",
    });
    expect((await comment(jam, { proposal_id: p.proposal_id, body: "for the record" })).kind).toBe("comment");
  });

  it("an empty note is refused naming the field; exactly one of proposal_id and thread_id", () => {
    expect(() => parseInput(ZProposalCommentRequest, { proposal_id: "UP-1", body: "   " })).toThrow(/body/);
    expect(() => parseInput(ZProposalCommentsRequest, {})).toThrow(/proposal_id/);
    expect(() => parseInput(ZProposalCommentsRequest, { proposal_id: "UP-1", thread_id: "t" })).toThrow(/proposal_id/);
  });

  it("a long discussion shows its latest 500 notes, oldest of them first", async () => {
    const p = await propose(alice, { title: "Lunch is at noon", tag: "office" });
    const at = (i: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, i));
    await opened.db.proposalComment.createMany({
      data: Array.from({ length: 505 }, (_, i) => ({
        id: `PC-long-${String(i).padStart(3, "0")}`,
        proposalId: p.proposal_id,
        authorId: jam.userId,
        kind: "comment",
        body: `note ${i}`,
        createdAt: at(i),
      })),
    });
    const items = (await comments(alice, { proposal_id: p.proposal_id })).items;
    expect(items).toHaveLength(500);
    expect(items[0]?.body).toBe("note 5");
    expect(items.at(-1)?.body).toBe("note 504");
  });

  it("a rejection's reason is kept with the decision and shown in the discussion", async () => {
    const p = await propose(alice, { title: "Tabs over spaces", tag: "style" });
    await promoteProposal(
      opened.as(jam),
      parseInput(ZPromoteRequest, {
        proposal_id: p.proposal_id,
        action: "reject",
        reason: "We use the formatter's default.",
      }),
    );
    const items = (await comments(alice, { proposal_id: p.proposal_id })).items;
    expect(items).toEqual([
      expect.objectContaining({ kind: "reject_reason", body: "We use the formatter's default." }),
    ]);
    expect(() =>
      parseInput(ZPromoteRequest, { proposal_id: p.proposal_id, action: "approve_create", reason: "nope" }),
    ).toThrow(/reason/);
  });
});
