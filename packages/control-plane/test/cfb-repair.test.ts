// Undo and repair of knowledge (issue 19) on a real SQLite file, through the services a Jam editor's
// dashboard calls: revert restores an earlier version's content as a new version with its
// revision and audit event (a stale one is CONFLICT, nothing written); retire takes a CFB out of
// retrieval, resolve's candidates and the list while its page and history stay, and restore
// brings it back; merge points the other CFB at the survivor as a promotion's merge does; a
// rejected proposal reopens to pending, keeps its rejection, and can be approved.
import { isDomainError, type TCfbDraft, ZCfbMergeRequest, ZCfbRevertRequest } from "@solserver/contracts";
import { nonCanonicalTimestamps } from "@solserver/db/testing";
import { termSet } from "@solserver/text";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  getCfb,
  getProposal,
  listAudit,
  listCfbs,
  listProposals,
  mergeCfbs,
  parseInput,
  promoteProposal,
  reopenProposal,
  respondToTurn,
  restoreCfb,
  retireCfb,
  revertCfb,
  reviewProposal,
  updateCfb,
} from "../src/index";
import { openTestControlPlane, scriptedModel, type TTestActor, type TTestSuggestion, testCfb } from "../src/testing";

let next: TTestSuggestion[] = [];
const scripted = scriptedModel(() => ({ suggestions: next.map((s) => ({ ...s, confidence: 0.8 })) }));

let opened: Awaited<ReturnType<typeof openTestControlPlane>>;
let user: TTestActor;
let jam: TTestActor;
let n = 0;

const draft = (title: string, summary: string, extra: Partial<TCfbDraft> = {}): TCfbDraft =>
  testCfb({ domain: "general", title, summary, text: "Full text.", ...extra });

/** A turn of the user; its response id. */
async function turn(message: string, suggestions: TTestSuggestion[] = []) {
  next = suggestions;
  return respondToTurn(opened.as(user), { request_id: `repair-${++n}`, message });
}

/** A fresh pending proposal from one scripted suggestion (no labels unless given); its id. */
async function propose(s: Omit<TTestSuggestion, "tags" | "entities"> & Partial<TTestSuggestion>): Promise<string> {
  const res = await turn("We decided.", [{ tags: [], entities: [], ...s }]);
  return res.ui_hints.proposal_previews[0]?.proposal_id as string;
}

/** Whether a turn asking `message` hands the CFB to the model. */
async function injects(cfbId: string, message: string): Promise<boolean> {
  const res = await turn(message);
  return (await opened.db.cfbUsageEvent.count({ where: { responseId: res.response_id, cfbId, kind: "injected" } })) > 0;
}

/** The ids of resolve's candidates for a text. */
async function candidates(text: string): Promise<string[]> {
  return (await opened.repos.cfbs.candidates({ terms: [...termSet(text)] })).map((c) => c.cfb_id);
}

/** The ids the default CFB list (or the retired one) shows for a search. */
async function listed(query: string, state: "live" | "retired" = "live"): Promise<string[]> {
  return (await listCfbs(opened.as(user), { query, state, limit: 100 })).items.map((c) => c.cfb_id);
}

async function auditOf(cfbOrProposal: string) {
  return (await listAudit(opened.as(jam), { target_id: cfbOrProposal, limit: 50 })).items;
}

const refusal = (e: unknown) => (isDomainError(e) ? { code: e.code, field: e.field, message: e.message } : e);

beforeAll(async () => {
  opened = await openTestControlPlane({ label: "cfb-repair", model: scripted, limits: { chatTurnsPerMinute: 1000 } });
  user = await opened.account("user");
  jam = await opened.account("jam");
});
afterAll(async () => opened?.close());

describe("cfbs.revert", () => {
  it("restores an earlier version's content as a new version, with a revert revision and an audit event", async () => {
    const v1 = await opened.repos.cfbs.create(
      draft("Pager rotation", "The pager rotates every Tuesday.", { tags: ["oncall"] }),
    );
    const v2 = await updateCfb(opened.as(jam), {
      cfb_id: v1.cfb_id,
      version: 1,
      ...draft("Pager rotation", "The pager rotates every Wednesday.", { tags: ["oncall", "pager"] }),
    });
    const reverted = await revertCfb(opened.as(jam), { cfb_id: v1.cfb_id, version: v2.version, to_version: 1 });
    expect(reverted).toMatchObject({
      cfb_id: v1.cfb_id,
      version: 3,
      summary: "The pager rotates every Tuesday.",
      tags: ["oncall"],
    });

    const page = await getCfb(opened.as(jam), { cfb_id: v1.cfb_id });
    expect(page.revisions.map((r) => [r.version, r.change_kind])).toEqual([
      [3, "revert"],
      [2, "edit"],
      [1, "create"],
    ]);
    expect(page.revisions[0]?.changes.map((c) => c.field).sort()).toEqual(["summary", "tags"]);
    // Version 1 now holds the current content: nothing to revert to there; version 2 can be.
    expect(page.revisions.map((r) => r.same_as_current)).toEqual([true, false, true]);
    expect(page.actions).toEqual({ allowed: ["revert", "retire", "merge"], revert_to: [2] });
    // A user reads the page and may do nothing to it.
    expect((await getCfb(opened.as(user), { cfb_id: v1.cfb_id })).actions).toEqual({ allowed: [], revert_to: [] });

    const [event] = await auditOf(v1.cfb_id);
    expect(event).toMatchObject({
      action: "cfb.revert",
      actor_email: jam.email,
      details: { from_version: 2, to_version: 1, version: 3 },
    });
  });

  it("is CONFLICT naming what changed when the CFB moved since the editor saw it, and writes nothing", async () => {
    const v1 = await opened.repos.cfbs.create(draft("Deploy window", "Deploys happen before noon."));
    await updateCfb(opened.as(jam), { cfb_id: v1.cfb_id, version: 1, ...draft("Deploy window", "Before 11:00.") });
    // The editor looked at version 2; someone edits it to version 3 meanwhile.
    await updateCfb(opened.as(jam), { cfb_id: v1.cfb_id, version: 2, ...draft("Deploy window", "Before 10:00.") });
    const audits = (await auditOf(v1.cfb_id)).length;

    const stale = await revertCfb(opened.as(jam), { cfb_id: v1.cfb_id, version: 2, to_version: 1 }).catch(refusal);
    expect(stale).toEqual({
      code: "CONFLICT",
      field: "version",
      message: `CFB ${v1.cfb_id} is at version 3, not 2: summary changed; review it again`,
    });
    const after = await getCfb(opened.as(jam), { cfb_id: v1.cfb_id });
    expect(after).toMatchObject({ version: 3, summary: "Before 10:00." });
    expect(after.revisions).toHaveLength(3);
    expect(await auditOf(v1.cfb_id)).toHaveLength(audits);
  });

  it("names the field of bad input: a later version, one with the same content, one that does not exist", async () => {
    const v1 = await opened.repos.cfbs.create(draft("Lunch hour", "Lunch is at noon."));
    const later = await (async () => parseInput(ZCfbRevertRequest, { cfb_id: v1.cfb_id, version: 1, to_version: 1 }))()
      .then(() => null)
      .catch(refusal);
    expect(later).toMatchObject({ code: "BAD_INPUT", field: "to_version" });
    expect((later as { message: string }).message).toBe("to_version: must be an earlier version than version");

    const v2 = await retireCfb(opened.as(jam), { cfb_id: v1.cfb_id, version: 1 });
    const same = await revertCfb(opened.as(jam), { cfb_id: v1.cfb_id, version: v2.version, to_version: 1 }).catch(
      refusal,
    );
    expect(same).toMatchObject({ code: "BAD_INPUT", field: "to_version" });
    expect((same as { message: string }).message).toContain("holds the same content as version 2");

    const missing = await revertCfb(opened.as(jam), { cfb_id: "CFB-999999", version: 3, to_version: 1 }).catch(refusal);
    expect(missing).toMatchObject({ code: "NOT_FOUND", field: "cfb_id" });
  });

  it("is Jam-only", async () => {
    const v1 = await opened.repos.cfbs.create(draft("Coffee machine", "Descale monthly."));
    const refused = await revertCfb(opened.as(user), { cfb_id: v1.cfb_id, version: 2, to_version: 1 }).catch(refusal);
    expect(refused).toMatchObject({ code: "FORBIDDEN" });
  });
});

describe("cfbs.retire and cfbs.restore", () => {
  it("takes the CFB out of retrieval, resolve and the list; its page and history stay; restore brings it back", async () => {
    const cfb = await opened.repos.cfbs.create(
      draft("Quarantine bucket retention", "Files in the quarantine bucket are deleted after 14 days.", {
        tags: ["quarantine"],
      }),
    );
    const question = "How long are files kept in the quarantine bucket?";
    expect(await injects(cfb.cfb_id, question)).toBe(true);
    expect(await candidates("quarantine bucket files deleted")).toContain(cfb.cfb_id);
    expect(await listed("quarantine")).toContain(cfb.cfb_id);

    const retired = await retireCfb(opened.as(jam), { cfb_id: cfb.cfb_id, version: cfb.version });
    expect(retired).toMatchObject({ cfb_id: cfb.cfb_id, version: 2, retired_ts: expect.any(String) });
    expect(await injects(cfb.cfb_id, question)).toBe(false);
    expect(await candidates("quarantine bucket files deleted")).not.toContain(cfb.cfb_id);
    expect(await opened.repos.cfbs.retrievable([cfb.cfb_id])).toEqual([]);
    expect(await listed("quarantine")).not.toContain(cfb.cfb_id);
    expect(await listed("quarantine", "retired")).toEqual([cfb.cfb_id]);
    // The page and its history stay, and say it is retired.
    const page = await getCfb(opened.as(jam), { cfb_id: cfb.cfb_id });
    expect(page).toMatchObject({ version: 2, retired_ts: retired.retired_ts, summary: cfb.summary });
    expect(page.revisions.map((r) => r.change_kind)).toEqual(["retire", "create"]);
    expect(page.revisions[0]?.changes).toEqual([]);
    expect(page.actions.allowed).toEqual(["restore"]);
    expect((await auditOf(cfb.cfb_id))[0]).toMatchObject({ action: "cfb.retire", details: { version: 2 } });

    const again = await retireCfb(opened.as(jam), { cfb_id: cfb.cfb_id, version: 2 }).catch(refusal);
    expect(again).toEqual({
      code: "CONFLICT",
      field: "cfb_id",
      message: `CFB ${cfb.cfb_id} is already retired; restore it to bring it back`,
    });

    const restored = await restoreCfb(opened.as(jam), { cfb_id: cfb.cfb_id, version: 2 });
    expect(restored).toEqual({ cfb_id: cfb.cfb_id, version: 3, retired_ts: null });
    expect(await injects(cfb.cfb_id, question)).toBe(true);
    expect(await candidates("quarantine bucket files deleted")).toContain(cfb.cfb_id);
    expect(await listed("quarantine")).toContain(cfb.cfb_id);
    expect((await auditOf(cfb.cfb_id))[0]).toMatchObject({ action: "cfb.restore", details: { version: 3 } });

    const notRetired = await restoreCfb(opened.as(jam), { cfb_id: cfb.cfb_id, version: 3 }).catch(refusal);
    expect(notRetired).toEqual({
      code: "CONFLICT",
      field: "cfb_id",
      message: `CFB ${cfb.cfb_id} is not retired: nothing to restore`,
    });
  });

  it("is CONFLICT on a stale version, and FORBIDDEN to a user", async () => {
    const cfb = await opened.repos.cfbs.create(draft("Badge colours", "Visitors wear red badges."));
    await updateCfb(opened.as(jam), { cfb_id: cfb.cfb_id, version: 1, ...draft("Badge colours", "Visitors: red.") });
    expect(await retireCfb(opened.as(jam), { cfb_id: cfb.cfb_id, version: 1 }).catch(refusal)).toMatchObject({
      code: "CONFLICT",
      field: "version",
      message: `CFB ${cfb.cfb_id} is at version 2, not 1: summary changed; review it again`,
    });
    expect(await retireCfb(opened.as(user), { cfb_id: cfb.cfb_id, version: 2 }).catch(refusal)).toMatchObject({
      code: "FORBIDDEN",
    });
    expect((await getCfb(opened.as(jam), { cfb_id: cfb.cfb_id })).retired_ts).toBeNull();
  });

  it("an update proposal of a retired CFB cannot be approved until it is restored", async () => {
    const cfb = await opened.repos.cfbs.create(draft("Printer toner", "Order toner when it is at 10%."));
    const id = await propose({
      op: "update",
      target_cfb_id: cfb.cfb_id,
      title: "Printer toner",
      delta_summary: "Change the toner threshold to 20%.",
      summary: "Order toner when it is at 20%.",
    });
    await retireCfb(opened.as(jam), { cfb_id: cfb.cfb_id, version: 1 });
    const proposal = await getProposal(opened.as(jam), { proposal_id: id });
    expect(proposal.actions.allowed).toEqual(["reject"]);
    expect(proposal.actions.unavailable.find((u) => u.action === "approve_update")).toEqual({
      action: "approve_update",
      code: "CONFLICT",
      reason: `CFB ${cfb.cfb_id} is retired; restore it on its page first to approve this update, or reject the proposal`,
    });
    const refused = await promoteProposal(opened.as(jam), { proposal_id: id, action: "approve_update" }).catch(refusal);
    expect(refused).toMatchObject({ code: "CONFLICT", field: "action" });
    expect((await getCfb(opened.as(jam), { cfb_id: cfb.cfb_id })).version).toBe(2);

    await restoreCfb(opened.as(jam), { cfb_id: cfb.cfb_id, version: 2 });
    const landed = await promoteProposal(opened.as(jam), { proposal_id: id, action: "approve_update" });
    expect(landed).toMatchObject({
      final_cfb_id: cfb.cfb_id,
      cfb: { version: 4, summary: "Order toner when it is at 20%." },
    });
  });
});

describe("cfbs.merge", () => {
  it("folds the other CFB into the survivor as a promotion's merge does: both ids resolve, history kept", async () => {
    const survivor = await opened.repos.cfbs.create(
      draft("VPN client", "Staff connect through the WireGuard VPN.", {
        tags: ["vpn"],
        entities: ["WireGuard"],
        source_refs: ["file:vpn.md"],
      }),
    );
    const other = await opened.repos.cfbs.create(
      draft("VPN access", "Staff use the WireGuard VPN from home.", {
        // Near-duplicate tags are written once; the stronger kind and trust tier are kept.
        tags: ["remote-work", "VPNs", "Remote Work"],
        entities: ["WireGuard", "Okta"],
        source_refs: ["file:remote.md"],
        kind: "authoritative",
        trust_tier: "repo_adr",
      }),
    );
    const res = await mergeCfbs(opened.as(jam), {
      cfb_id: survivor.cfb_id,
      version: 1,
      merge_cfb_id: other.cfb_id,
      merge_version: 1,
    });
    expect(res.merged_cfb_id).toBe(other.cfb_id);
    expect(res.cfb).toMatchObject({
      cfb_id: survivor.cfb_id,
      version: 2,
      title: "VPN client",
      summary: "Staff connect through the WireGuard VPN.",
      tags: ["vpn", "remote-work"],
      entities: ["WireGuard", "Okta"],
      source_refs: ["file:vpn.md", "file:remote.md", `merged:${other.cfb_id}`],
      kind: "authoritative",
      trust_tier: "repo_adr",
    });

    const merged = await getCfb(opened.as(jam), { cfb_id: other.cfb_id });
    expect(merged).toMatchObject({ merged_into_cfb_id: survivor.cfb_id, version: 2, summary: other.summary });
    expect(merged.revisions[0]).toMatchObject({ version: 2, change_kind: "merge", promotion_id: null });
    // Merged for good: nothing to retire, restore or merge; its content never changed, so no revert either.
    expect(merged.actions).toEqual({ allowed: [], revert_to: [] });
    expect((await getCfb(opened.as(jam), { cfb_id: survivor.cfb_id })).revisions[0]).toMatchObject({
      change_kind: "merge",
    });
    expect(await candidates("wireguard vpn staff home")).not.toContain(other.cfb_id);
    expect(await candidates("wireguard vpn staff home")).toContain(survivor.cfb_id);
    expect(await listed("wireguard")).toEqual([survivor.cfb_id]);
    expect((await auditOf(survivor.cfb_id))[0]).toMatchObject({
      action: "cfb.merge",
      details: { merged_cfb_id: other.cfb_id, version: 2 },
    });
    expect((await auditOf(other.cfb_id))[0]).toMatchObject({
      action: "cfb.merged_into",
      details: { merged_into_cfb_id: survivor.cfb_id, version: 2 },
    });

    // A proposal that names the merged CFB now lands on the survivor, as after a promotion's merge.
    const id = await propose({
      op: "update",
      target_cfb_id: other.cfb_id,
      title: "VPN access",
      delta_summary: "Staff use the WireGuard VPN from home and from travel.",
    });
    expect((await getProposal(opened.as(jam), { proposal_id: id })).actions.update).toMatchObject({
      cfb_id: survivor.cfb_id,
      version: 2,
    });

    // Merging it again: it is merged already.
    const third = await opened.repos.cfbs.create(draft("VPN", "The VPN."));
    const again = await mergeCfbs(opened.as(jam), {
      cfb_id: third.cfb_id,
      version: 1,
      merge_cfb_id: other.cfb_id,
      merge_version: 2,
    }).catch(refusal);
    expect(again).toEqual({
      code: "CONFLICT",
      field: "merge_cfb_id",
      message: `CFB ${other.cfb_id} was merged into ${survivor.cfb_id}; work on ${survivor.cfb_id} instead`,
    });
    expect((await getCfb(opened.as(jam), { cfb_id: third.cfb_id })).version).toBe(1);
  });

  it("is CONFLICT naming merge_version when the other CFB moved, writes nothing; bad input names the field", async () => {
    const a = await opened.repos.cfbs.create(draft("Standup time", "Standup is at 9:30."));
    const b = await opened.repos.cfbs.create(draft("Daily standup", "The daily standup starts 9:30."));
    await updateCfb(opened.as(jam), { cfb_id: b.cfb_id, version: 1, ...draft("Daily standup", "Starts 9:45.") });
    const stale = await mergeCfbs(opened.as(jam), {
      cfb_id: a.cfb_id,
      version: 1,
      merge_cfb_id: b.cfb_id,
      merge_version: 1,
    }).catch(refusal);
    expect(stale).toEqual({
      code: "CONFLICT",
      field: "merge_version",
      message: `CFB ${b.cfb_id} is at version 2, not 1: summary changed; review it again`,
    });
    // The survivor's half rolled back with it.
    expect((await getCfb(opened.as(jam), { cfb_id: a.cfb_id })).version).toBe(1);
    expect((await getCfb(opened.as(jam), { cfb_id: b.cfb_id })).merged_into_cfb_id).toBeNull();

    const self = await (async () =>
      parseInput(ZCfbMergeRequest, { cfb_id: a.cfb_id, version: 1, merge_cfb_id: a.cfb_id, merge_version: 1 }))()
      .then(() => null)
      .catch(refusal);
    expect(self).toMatchObject({ code: "BAD_INPUT", field: "merge_cfb_id" });
    const missing = await mergeCfbs(opened.as(jam), {
      cfb_id: a.cfb_id,
      version: 1,
      merge_cfb_id: "CFB-999998",
      merge_version: 1,
    }).catch(refusal);
    expect(missing).toMatchObject({ code: "NOT_FOUND", field: "merge_cfb_id" });
  });
});

describe("proposals.reopen", () => {
  it("makes a rejected proposal pending again, keeps its rejection, and it can then be approved", async () => {
    const id = await propose({ op: "create", title: "Visitor wifi", delta_summary: "Visitors use the guest wifi." });
    const rejected = await promoteProposal(opened.as(jam), { proposal_id: id, action: "reject" });

    const pageBefore = await reviewProposal(opened.as(jam), { proposal_id: id });
    expect(pageBefore.reopen).toBe(true);
    expect((await reviewProposal(opened.as(user), { proposal_id: id })).reopen).toBe(false);

    const reopened = await reopenProposal(opened.as(jam), { proposal_id: id });
    expect(reopened).toMatchObject({ status: "pending", decided_ts: null, promotion: null });
    expect(reopened.earlier_decisions).toEqual([
      {
        promotion_id: rejected.promotion_id,
        action: "reject",
        editor: "jam",
        created_ts: expect.any(String),
        reopened_ts: expect.any(String),
      },
    ]);
    expect(reopened.actions.allowed).toEqual(["approve_create", "reject", "edit_then_approve"]);
    expect(
      (await listProposals(opened.as(user), { status: "pending", limit: 100, sort: "newest" })).items.map(
        (p) => p.proposal_id,
      ),
    ).toContain(id);
    expect((await auditOf(id))[0]).toMatchObject({
      action: "proposal.reopen",
      actor_email: jam.email,
      details: { reopened_promotion_id: rejected.promotion_id },
    });

    // The thread's user approves it now: the decision of the next round.
    const approved = await promoteProposal(opened.as(user), { proposal_id: id, action: "approve_create" });
    expect(approved.status).toBe("approved");
    const after = await getProposal(opened.as(user), { proposal_id: id });
    expect(after).toMatchObject({
      status: "approved",
      promotion: { promotion_id: approved.promotion_id, action: "approve_create", final_cfb_id: approved.final_cfb_id },
    });
    expect(after.earlier_decisions.map((d) => d.promotion_id)).toEqual([rejected.promotion_id]);
    const events = await opened.db.promotionEvent.findMany({
      where: { proposalId: id },
      select: { id: true, round: true, reopenedAt: true },
      orderBy: { round: "asc" },
    });
    expect(events.map((e) => [e.id, e.round, e.reopenedAt !== null])).toEqual([
      [rejected.promotion_id, 0, true],
      [approved.promotion_id, 1, false],
    ]);
  });

  it("refuses what is not decided, saying what to do instead; a user is FORBIDDEN", async () => {
    const pending = await propose({ op: "create", title: "Plant watering", delta_summary: "Water plants Fridays." });
    expect(await reopenProposal(opened.as(jam), { proposal_id: pending }).catch(refusal)).toEqual({
      code: "CONFLICT",
      field: "proposal_id",
      message: `proposal ${pending} is pending: nothing to reopen; decide it`,
    });

    const rejected = await propose({ op: "create", title: "Desk booking", delta_summary: "Book desks a day ahead." });
    await promoteProposal(opened.as(user), { proposal_id: rejected, action: "reject" });
    expect(await reopenProposal(opened.as(user), { proposal_id: rejected }).catch(refusal)).toMatchObject({
      code: "FORBIDDEN",
    });
    expect((await getProposal(opened.as(user), { proposal_id: rejected })).status).toBe("rejected");
    expect(await reopenProposal(opened.as(jam), { proposal_id: "UP-999999" }).catch(refusal)).toMatchObject({
      code: "NOT_FOUND",
      field: "proposal_id",
    });
  });
});

describe("proposals.reopen of an approval (Undo)", () => {
  /** A CFB's content and state as a reviewer compares it: what an undo must restore exactly. */
  const state = async (cfbId: string) => {
    const { version, created_ts, updated_ts, last_accessed_ts, revisions, actions, ...rest } = await getCfb(
      opened.as(jam),
      {
        cfb_id: cfbId,
      },
    );
    return rest;
  };

  it("retires the CFB an approval created; the proposal is pending and can be approved again", async () => {
    const id = await propose({
      op: "create",
      title: "Fire drill",
      delta_summary: "Fire drills are on the first Monday.",
    });
    const approved = await promoteProposal(opened.as(jam), { proposal_id: id, action: "approve_create" });
    const cfbId = approved.final_cfb_id as string;
    expect((await reviewProposal(opened.as(jam), { proposal_id: id })).reopen).toBe(true);

    const reopened = await reopenProposal(opened.as(jam), { proposal_id: id });
    expect(reopened).toMatchObject({ status: "pending", promotion: null });
    expect(reopened.earlier_decisions.map((d) => d.action)).toEqual(["approve_create"]);
    const cfb = await getCfb(opened.as(jam), { cfb_id: cfbId });
    expect(cfb.retired_ts).not.toBeNull();
    expect(cfb.revisions.map((r) => r.change_kind)).toEqual(["retire", "create"]);
    expect(await injects(cfbId, "When are fire drills?")).toBe(false);
    expect((await auditOf(cfbId))[0]).toMatchObject({
      action: "cfb.retire",
      details: { undone_promotion_id: approved.promotion_id },
    });

    const again = await promoteProposal(opened.as(jam), { proposal_id: id, action: "approve_create" });
    expect(again.final_cfb_id).not.toBe(cfbId);
    // An Undo of the first decision, pressed late, undoes nothing: the proposal was decided again.
    expect(
      await reopenProposal(opened.as(jam), { proposal_id: id, promotion_id: approved.promotion_id }).catch(refusal),
    ).toEqual({
      code: "CONFLICT",
      field: "promotion_id",
      message: `proposal ${id} was decided again since (${again.promotion_id}, not ${approved.promotion_id}): nothing undone`,
    });
    expect((await getProposal(opened.as(jam), { proposal_id: id })).status).toBe("approved");
  });

  it("puts an updated CFB back exactly as it was, and a merge back into two CFBs", async () => {
    const cfb = await opened.repos.cfbs.create(draft("Parking", "Staff park on level 2.", { tags: ["parking"] }));
    const before = await state(cfb.cfb_id);
    const id = await propose({
      op: "update",
      target_cfb_id: cfb.cfb_id,
      title: "Parking",
      delta_summary: "Staff park on level 3 from May.",
      summary: "Staff park on level 3.",
    });
    await promoteProposal(opened.as(jam), { proposal_id: id, action: "approve_update" });
    expect((await state(cfb.cfb_id)).summary).toBe("Staff park on level 3.");
    await reopenProposal(opened.as(jam), { proposal_id: id });
    expect(await state(cfb.cfb_id)).toEqual(before);
    expect((await getCfb(opened.as(jam), { cfb_id: cfb.cfb_id })).revisions[0]?.change_kind).toBe("revert");

    const survivor = await opened.repos.cfbs.create(draft("Guest wifi", "The guest wifi password rotates weekly."));
    const other = await opened.repos.cfbs.create(draft("Guest wifi", "The guest wifi password rotates weekly."));
    const [survivorBefore, otherBefore] = [await state(survivor.cfb_id), await state(other.cfb_id)];
    const merge = await propose({
      op: "merge",
      target_cfb_id: survivor.cfb_id,
      title: "Guest wifi",
      delta_summary: "The guest wifi password rotates weekly.",
    });
    const merged = await promoteProposal(opened.as(jam), { proposal_id: merge, action: "approve_update" });
    expect(merged.merged_cfb_id).toBe(other.cfb_id);
    await reopenProposal(opened.as(jam), { proposal_id: merge });
    expect(await state(survivor.cfb_id)).toEqual(survivorBefore);
    expect(await state(other.cfb_id)).toEqual(otherBefore);
  });

  it("undoes two approvals of one CFB latest first, back to what it held before both", async () => {
    const cfb = await opened.repos.cfbs.create(draft("Lockers", "Lockers are emptied on Fridays."));
    const before = await state(cfb.cfb_id);
    const update = (summary: string) =>
      propose({ op: "update", target_cfb_id: cfb.cfb_id, title: "Lockers", delta_summary: summary, summary });
    const first = await update("Lockers are emptied on Thursdays.");
    await promoteProposal(opened.as(jam), { proposal_id: first, action: "approve_update" });
    const second = await update("Lockers are emptied on Wednesdays.");
    await promoteProposal(opened.as(jam), { proposal_id: second, action: "approve_update" });
    // The later first: its undo writes a new version holding what the first approval left.
    await reopenProposal(opened.as(jam), { proposal_id: second });
    expect((await state(cfb.cfb_id)).summary).toBe("Lockers are emptied on Thursdays.");
    await reopenProposal(opened.as(jam), { proposal_id: first });
    expect(await state(cfb.cfb_id)).toEqual(before);
  });

  it("refuses once a CFB it wrote changed since, naming it, and writes nothing", async () => {
    const cfb = await opened.repos.cfbs.create(draft("Kitchen", "Clean the kitchen on Fridays."));
    const id = await propose({
      op: "update",
      target_cfb_id: cfb.cfb_id,
      title: "Kitchen",
      delta_summary: "Clean the kitchen on Thursdays.",
      summary: "Clean the kitchen on Thursdays.",
    });
    await promoteProposal(opened.as(jam), { proposal_id: id, action: "approve_update" });
    await updateCfb(opened.as(jam), {
      cfb_id: cfb.cfb_id,
      version: 2,
      ...draft("Kitchen", "Clean the kitchen on Thursdays at 4."),
    });
    expect(await reopenProposal(opened.as(jam), { proposal_id: id }).catch(refusal)).toEqual({
      code: "CONFLICT",
      field: "proposal_id",
      message: `${cfb.cfb_id} changed after this approval (version 3 now, 2 then): revert it on its page instead`,
    });
    expect((await getProposal(opened.as(jam), { proposal_id: id })).status).toBe("approved");
    expect((await getCfb(opened.as(jam), { cfb_id: cfb.cfb_id })).version).toBe(3);
  });
});

describe("stored timestamps", () => {
  it("stay in the one canonical form after retire, restore, revert, merge and reopen", async () => {
    expect(await nonCanonicalTimestamps(opened.db)).toEqual([]);
  });
});
