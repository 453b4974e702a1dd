// Twin proposals (issue 19, point 4): the same suggestion made twice is one card in the queue
// ("and N more like it"), one decision folds the others (status duplicate, linked to the one
// decided), and a create that restates a CFB approved since it was made is refused with CONFLICT.
// The phrasings below were written before the matcher: restatements a person would call "the
// same thing", and near misses that share most words but not the facts.

import { type TCfbSuggestion, ZProposalListRequest } from "@solserver/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getProposal, listProposals, parseInput, promoteProposal, reopenProposal, respondToTurn } from "../src/index";
import { openTestControlPlane, scriptedModel, type TTestActor, testCfb } from "../src/testing";

let next: TCfbSuggestion[] = [];
const scripted = scriptedModel(() => ({ suggestions: next }));

let opened: Awaited<ReturnType<typeof openTestControlPlane>>;
let alice: TTestActor;
let bob: TTestActor;
let jam: TTestActor;
let n = 0;

const create = (title: string, delta: string, tags: string[] = ["api"]): TCfbSuggestion => ({
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
    request_id: `twins-${++n}`,
    message: "We decided this.",
    ...(threadId ? { thread_id: threadId } : {}),
  });
  return { threadId: turn.thread_id, ids: turn.ui_hints.proposal_previews.map((p) => p.proposal_id) };
}

const get = (who: TTestActor, id: string) => getProposal(opened.as(who), { proposal_id: id });
const pending = (who: TTestActor, threadId?: string) =>
  listProposals(
    opened.as(who),
    parseInput(ZProposalListRequest, { status: "pending", limit: 100, ...(threadId ? { thread_id: threadId } : {}) }),
  );

beforeAll(async () => {
  opened = await openTestControlPlane({ label: "twins", model: scripted, limits: { chatTurnsPerMinute: 1000 } });
  alice = await opened.account("user", "alice@twins.test");
  bob = await opened.account("user", "bob@twins.test");
  jam = await opened.account("jam", "editor2@twins.test");
});
afterAll(async () => opened?.close());

describe("grouping twins as they are proposed", () => {
  it("groups the same sentence said again in the same thread, and the queue shows it once", async () => {
    const s = create("API timestamps are UTC", "Every API timestamp is stored in UTC.");
    const first = await say(alice, [s]);
    const again = await say(alice, [s], first.threadId);
    const [lead] = first.ids;
    const [twin] = again.ids;
    expect((await get(alice, twin as string)).twin_of_id).toBe(lead);
    const queue = await pending(alice, first.threadId);
    expect(queue.items.map((p) => p.proposal_id)).toEqual([lead]);
    expect(queue.items[0]?.twin_count).toBe(1);
    // The count says what the list shows.
    expect(queue.counts.pending).toBe(1);
  });

  it("groups a twin within one turn, and across the owner's threads by fingerprint", async () => {
    const s = create("Deploys freeze on Fridays", "No production deploys after 15:00 on Fridays.", ["deploy"]);
    const one = await say(alice, [s, s]);
    expect((await get(alice, one.ids[1] as string)).twin_of_id).toBe(one.ids[0]);
    const elsewhere = await say(alice, [s]);
    expect(elsewhere.threadId).not.toBe(one.threadId);
    expect((await get(alice, elsewhere.ids[0] as string)).twin_of_id).toBe(one.ids[0]);
    expect((await get(alice, one.ids[0] as string)).twin_count).toBe(2);
    // Another person's proposal is theirs to decide: never hidden under alice's.
    const bobs = await say(bob, [s]);
    expect((await get(bob, bobs.ids[0] as string)).twin_of_id).toBeNull();
  });

  it.each([
    [
      "the same facts in other words",
      true,
      create("Store API timestamps in UTC", "All timestamps of the API are kept in UTC."),
      create("API stores UTC timestamps", "Every API timestamp is stored in UTC."),
    ],
    [
      "the same sentence, cased and spaced otherwise",
      true,
      create("Rotate TLS certificates", "Rotate the TLS certificates every 60 days.", ["tls"]),
      create("rotate tls certificates ", "rotate the TLS  certificates every 60 days.", ["TLS"]),
    ],
    [
      "a passive restatement",
      true,
      create("TLS certificate rotation", "Rotate the TLS certificates every 60 days.", ["tls"]),
      create("TLS certificate rotation", "TLS certificates are rotated every 60 days.", ["tls"]),
    ],
    [
      "another number",
      false,
      create("Request timeout", "The request timeout is 30 seconds.", ["http"]),
      create("Request timeout", "The request timeout is 60 seconds.", ["http"]),
    ],
    [
      "a fact added",
      false,
      create("Nightly backups", "Backups run nightly at 02:00 UTC.", ["backup"]),
      create("Nightly backups", "Backups run nightly at 02:00 UTC and are kept for 30 days.", ["backup"]),
    ],
    [
      "another subject",
      false,
      create("Staging database", "The staging database is refreshed every Monday.", ["db"]),
      create("Staging cache", "The staging cache is flushed on every deploy.", ["cache"]),
    ],
  ] as const)("in one thread, %s: twins %s", async (_, twins, a, b) => {
    const first = await say(alice, [a]);
    const second = await say(alice, [b], first.threadId);
    expect((await get(alice, second.ids[0] as string)).twin_of_id).toBe(twins ? first.ids[0] : null);
  });

  it("never groups an update of one CFB with an update of another, however alike", async () => {
    const x = await opened.repos.cfbs.create(
      testCfb({ title: "Worker pool A", summary: "Pool A has 8 workers.", tags: ["pool"] }),
    );
    const y = await opened.repos.cfbs.create(
      testCfb({ title: "Worker pool B", summary: "Pool B has 8 workers.", tags: ["pool"] }),
    );
    const upd = (target: string): TCfbSuggestion => ({
      ...create("Worker pools", "Worker pools now have 16 workers.", ["pool"]),
      op: "update",
      target_cfb_id: target,
    });
    const turn = await say(alice, [upd(x.cfb_id), upd(y.cfb_id)]);
    expect((await get(alice, turn.ids[1] as string)).twin_of_id).toBeNull();
  });
});

describe("the same proposal from several people (×N people)", () => {
  const s = () => create(`Incident channel ${++n}`, `Incidents are discussed in #incident-${n} only.`, ["incident"]);

  it("is one item for Jam editors, and a lead in each person's own queue", async () => {
    const said = s();
    const a = await say(alice, [said]);
    const b = await say(bob, [said]);
    const again = await say(bob, [said], b.threadId);
    const [lead, echo, bobsTwin] = [a.ids[0] as string, b.ids[0] as string, again.ids[0] as string];
    // Jam editors: alice's stands for both people and all three proposals.
    const jamQueue = await pending(jam);
    const item = jamQueue.items.find((p) => p.proposal_id === lead);
    expect(item).toMatchObject({ people: 2, twin_count: 2 });
    expect(jamQueue.items.map((p) => p.proposal_id)).not.toContain(echo);
    // Bob: his own proposal leads, with his twin under it; alice's is not his to see.
    const bobs = await pending(bob);
    expect(bobs.items.map((p) => p.proposal_id)).toContain(echo);
    expect(bobs.items.map((p) => p.proposal_id)).not.toContain(lead);
    expect(await get(bob, echo)).toMatchObject({ twin_of_id: null, echo_of_id: lead, twin_count: 1 });
    expect((await get(bob, bobsTwin)).twin_of_id).toBe(echo);
    // In bob's thread, even for a Jam editor, his proposal is listed.
    expect((await pending(jam, b.threadId)).items.map((p) => p.proposal_id)).toEqual([echo]);
  });

  it("a Jam editor's decision covers every person's proposal: one CFB, the rest folded", async () => {
    const said = s();
    const a = await say(alice, [said]);
    const b = await say(bob, [said, said]);
    const cfbsBefore = await opened.db.cfb.count();
    const decided = await promoteProposal(opened.as(jam), {
      proposal_id: a.ids[0] as string,
      action: "approve_create",
    });
    expect(decided.folded_proposal_ids).toEqual(b.ids);
    expect(await opened.db.cfb.count()).toBe(cfbsBefore + 1);
    for (const id of b.ids)
      expect(await get(bob, id)).toMatchObject({ status: "duplicate", twin_of_id: a.ids[0], echo_of_id: null });
    expect(await get(jam, a.ids[0] as string)).toMatchObject({ people: 2, twin_count: 2 });
    expect((await pending(bob)).items.map((p) => p.proposal_id)).not.toContain(b.ids[0]);
  });

  it("a Jam editor deciding the echo instead folds the other person's lead and the echo's own twin", async () => {
    const said = s();
    const a = await say(alice, [said]);
    const b = await say(bob, [said, said]);
    const [echo, echoTwin] = b.ids as [string, string];
    const decided = await promoteProposal(opened.as(jam), { proposal_id: echo, action: "reject" });
    expect(decided.folded_proposal_ids).toEqual([a.ids[0], echoTwin]);
    for (const [who, id] of [
      [alice, a.ids[0]],
      [bob, echoTwin],
    ] as const)
      expect(await get(who, id as string)).toMatchObject({ status: "duplicate", twin_of_id: echo });
    expect(await get(jam, echo)).toMatchObject({ people: 2, twin_count: 2, echo_of_id: null });
  });

  it("an owner's own view counts only their own twins: another person's decides nothing of theirs", async () => {
    const said = s();
    const a = await say(alice, [said]);
    await say(bob, [said, said]);
    expect(await get(alice, a.ids[0] as string)).toMatchObject({ people: 1, twin_count: 0 });
    expect(await get(jam, a.ids[0] as string)).toMatchObject({ people: 2, twin_count: 2 });
  });

  it("a person's own decision covers only theirs: another person's proposal then leads", async () => {
    const carol = await opened.account("user", `carol-${++n}@twins.test`);
    const said = s();
    const a = await say(alice, [said]);
    const b = await say(bob, [said]);
    const c = await say(carol, [said]);
    const decided = await promoteProposal(opened.as(alice), { proposal_id: a.ids[0] as string, action: "reject" });
    expect(decided.folded_proposal_ids).toEqual([]);
    expect(await get(bob, b.ids[0] as string)).toMatchObject({ status: "pending", twin_of_id: null, echo_of_id: null });
    expect(await get(carol, c.ids[0] as string)).toMatchObject({ status: "pending", echo_of_id: b.ids[0] });
    const jamQueue = await pending(jam);
    expect(jamQueue.items.find((p) => p.proposal_id === b.ids[0])).toMatchObject({ people: 2 });
    expect(jamQueue.items.map((p) => p.proposal_id)).not.toContain(c.ids[0]);
    // Bob deciding his own leaves carol's to her (and to Jam editors).
    await promoteProposal(opened.as(bob), { proposal_id: b.ids[0] as string, action: "approve_create" });
    expect(await get(carol, c.ids[0] as string)).toMatchObject({ status: "pending", echo_of_id: null });
    expect((await pending(jam)).items.map((p) => p.proposal_id)).toContain(c.ids[0]);
  });

  it("only the same fingerprint groups across people, never a restatement in other words", async () => {
    const a = await say(alice, [create("Store API timestamps in UTC", `All API timestamps are UTC (${++n}).`)]);
    const b = await say(bob, [create("API stores UTC timestamps", `Every API timestamp is stored in UTC (${n}).`)]);
    expect((await get(bob, b.ids[0] as string)).echo_of_id).toBeNull();
    expect((await get(jam, a.ids[0] as string)).people).toBe(1);
  });
});

describe("one decision covers the group", () => {
  it("approving the lead folds its twins: one CFB, the twins duplicate, linked and audited", async () => {
    const s = create("Vault rotates keys", "Vault rotates the signing keys every 90 days.", ["vault"]);
    const a = await say(alice, [s]);
    const b = await say(alice, [s], a.threadId);
    const c = await say(alice, [s], a.threadId);
    const cfbsBefore = await opened.db.cfb.count();
    const decided = await promoteProposal(opened.as(alice), {
      proposal_id: a.ids[0] as string,
      action: "approve_create",
    });
    expect(decided.folded_proposal_ids).toEqual([b.ids[0], c.ids[0]]);
    expect(decided.decided_by).toBe("alice@twins.test");
    expect(await opened.db.cfb.count()).toBe(cfbsBefore + 1);
    for (const id of [b.ids[0], c.ids[0]] as string[]) {
      const folded = await get(alice, id);
      expect(folded).toMatchObject({ status: "duplicate", twin_of_id: a.ids[0], decided_by: "alice@twins.test" });
      expect(folded.actions.allowed).toEqual([]);
      const audit = await opened.repos.audit.list({ targetType: "proposal", targetId: id, limit: 5 });
      expect(audit.items.map((e) => e.action)).toEqual(["proposal.fold"]);
    }
    expect((await get(alice, a.ids[0] as string)).twin_count).toBe(2);
    // The folded twin cannot be decided on its own: CONFLICT naming the twin and who decided it.
    await expect(
      promoteProposal(opened.as(alice), { proposal_id: b.ids[0] as string, action: "approve_create" }),
    ).rejects.toMatchObject({
      code: "CONFLICT",
      field: "proposal_id",
      message: expect.stringMatching(
        new RegExp(
          `^proposal ${b.ids[0]} was already folded into its twin ${a.ids[0]}, decided by alice@twins\\.test at .* UTC`,
        ),
      ),
    });
    expect(await opened.db.cfb.count()).toBe(cfbsBefore + 1);
    const counts = (await pending(alice)).counts;
    expect(counts.duplicate).toBeGreaterThanOrEqual(2);
  });

  it("deciding a twin instead of its lead folds the lead and the others into it", async () => {
    const s = create("Pager escalation", "Pages escalate to the secondary after 15 minutes.", ["oncall"]);
    const a = await say(alice, [s]);
    const b = await say(alice, [s], a.threadId);
    const c = await say(alice, [s], a.threadId);
    const decided = await promoteProposal(opened.as(jam), { proposal_id: b.ids[0] as string, action: "reject" });
    expect(decided.folded_proposal_ids).toEqual([a.ids[0], c.ids[0]]);
    expect(await get(alice, b.ids[0] as string)).toMatchObject({ status: "rejected", twin_of_id: null, twin_count: 2 });
    expect(await get(alice, a.ids[0] as string)).toMatchObject({
      status: "duplicate",
      twin_of_id: b.ids[0],
      decided_by: "editor2@twins.test",
    });
    expect((await pending(alice, a.threadId)).items.map((p) => p.proposal_id)).not.toContain(a.ids[0]);
  });

  it("reopening a rejected lead keeps its twins folded under it; its next decision covers them", async () => {
    const s = create("Backup window", "Nightly backups run between 01:00 and 03:00 UTC.", ["backup"]);
    const a = await say(alice, [s]);
    const b = await say(alice, [s], a.threadId);
    const lead = a.ids[0] as string;
    const twin = b.ids[0] as string;
    await promoteProposal(opened.as(jam), { proposal_id: lead, action: "reject" });
    const reopened = await reopenProposal(opened.as(jam), { proposal_id: lead });
    expect(reopened).toMatchObject({ status: "pending", twin_count: 1, decided_by: null, promotion: null });
    // The twin was settled by the rejection and stays with its lead: not a second card to decide.
    expect(await get(alice, twin)).toMatchObject({ status: "duplicate", twin_of_id: lead, decided_by: null });
    expect((await pending(alice, a.threadId)).items.map((p) => p.proposal_id)).toEqual([lead]);
    const approved = await promoteProposal(opened.as(jam), { proposal_id: lead, action: "approve_create" });
    expect(approved.folded_proposal_ids).toEqual([]);
    expect(await get(alice, twin)).toMatchObject({ status: "duplicate", decided_by: "editor2@twins.test" });
    const decided = await get(alice, lead);
    expect(decided.promotion?.action).toBe("approve_create");
    expect(decided.earlier_decisions.map((d) => d.action)).toEqual(["reject"]);
  });

  it("a restatement proposed after its twin was decided stands on its own, resolved against the CFB", async () => {
    const s = create("Log retention", "Application logs are kept for 14 days.", ["logs"]);
    const a = await say(alice, [s]);
    const approved = await promoteProposal(opened.as(alice), {
      proposal_id: a.ids[0] as string,
      action: "approve_create",
    });
    const later = await say(alice, [s], a.threadId);
    const id = later.ids[0] as string;
    const proposal = await get(alice, id);
    expect(proposal.twin_of_id).toBeNull();
    expect((await pending(alice, a.threadId)).items.map((p) => p.proposal_id)).toContain(id);
    // Resolve, at creation, already sees the CFB its twin became, and the update of it is offered.
    expect(proposal.resolve).toMatchObject({ decision: "update", target_cfb_id: approved.final_cfb_id });
    expect(proposal.actions.update?.cfb_id).toBe(approved.final_cfb_id);
  });
});

describe("a create that restates a CFB approved since it was made", () => {
  it("is CONFLICT naming that CFB, writes nothing, and the update it offers goes through", async () => {
    // In other words: the same sentence from two people is one group, decided once (above).
    const mine = await say(alice, [
      create("Backups are encrypted", "Backups are encrypted with AES-256 at rest.", ["backup"]),
    ]);
    const theirs = await say(bob, [
      create("Backups are encrypted", "Backups are encrypted at rest with AES-256.", ["backup"]),
    ]);
    expect((await get(bob, theirs.ids[0] as string)).echo_of_id).toBeNull();
    // A Jam editor approves bob's: shared knowledge, made after alice's proposal.
    const approved = await promoteProposal(opened.as(jam), {
      proposal_id: theirs.ids[0] as string,
      action: "approve_create",
    });
    const cfb = approved.final_cfb_id as string;
    const before = await opened.db.cfb.count();
    await expect(
      promoteProposal(opened.as(alice), { proposal_id: mine.ids[0] as string, action: "approve_create" }),
    ).rejects.toMatchObject({ code: "CONFLICT", field: "action", message: expect.stringContaining(`restates ${cfb}`) });
    expect(await opened.db.cfb.count()).toBe(before);
    expect((await get(alice, mine.ids[0] as string)).status).toBe("pending");
    const updated = await promoteProposal(opened.as(alice), {
      proposal_id: mine.ids[0] as string,
      action: "approve_update",
    });
    expect(updated.final_cfb_id).toBe(cfb);
    expect(await opened.db.cfb.count()).toBe(before);
  });

  it("still approves as new a proposal whose facts differ from the CFB approved since", async () => {
    const mine = await say(alice, [create("Region 1 cluster", "Region 1 runs on its own cluster.", ["region"])]);
    const theirs = await say(bob, [create("Region 0 cluster", "Region 0 runs on its own cluster.", ["region"])]);
    await promoteProposal(opened.as(jam), { proposal_id: theirs.ids[0] as string, action: "approve_create" });
    const approved = await promoteProposal(opened.as(alice), {
      proposal_id: mine.ids[0] as string,
      action: "approve_create",
    });
    expect(approved.status).toBe("approved");
  });
});
