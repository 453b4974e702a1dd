// Promotion, all four actions (seed 001 §3.3) on a real SQLite file: approve_update rewrites the
// target CFB with a revision linked to the promotion, edit_then_approve applies every override,
// a merge folds one CFB into another (both ids keep resolving), a stale version is CONFLICT with
// what changed and nothing written, and of two racing editors exactly one lands.
import { isDomainError, type TCfbDraft } from "@solserver/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getProposal, promoteProposal, respondToTurn, updateCfb } from "../src/index";
import { openTestControlPlane, scriptedModel, type TTestActor, type TTestSuggestion, testCfb } from "../src/testing";

let next: TTestSuggestion[] = [];
const scripted = scriptedModel(() => ({ suggestions: next.map((s) => ({ ...s, confidence: 0.8 })) }));

const cfb = (title: string, summary: string, tags: string[], entities: string[]): TCfbDraft =>
  testCfb({
    domain: "security",
    title,
    summary,
    text: "Full text kept.",
    tags,
    entities,
    trust_tier: "derived",
    source_refs: ["file:ADR-7.md"],
  });

let opened: Awaited<ReturnType<typeof openTestControlPlane>>;
let user: TTestActor;
let jam: TTestActor;
let n = 0;
/** A fresh pending proposal from one scripted suggestion; its id. */
async function propose(s: TTestSuggestion): Promise<string> {
  next = [s];
  const res = await respondToTurn(opened.as(user), { request_id: `promo-${++n}`, message: "We decided." });
  return res.ui_hints.proposal_previews[0]?.proposal_id as string;
}

beforeAll(async () => {
  opened = await openTestControlPlane({
    label: "promotion-actions",
    model: scripted,
    limits: { chatTurnsPerMinute: 1000 },
  });
  user = await opened.account("user");
  jam = await opened.account("jam");
});
afterAll(async () => opened?.close());

describe("approve_update", () => {
  it("rewrites the target: the proposal's summary, merged tags and sources, version + 1, a linked revision", async () => {
    const target = await opened.repos.cfbs.create(
      cfb("Credential rotation", "Credentials rotate every 90 days.", ["security"], ["Vault"]),
    );
    const id = await propose({
      op: "update",
      target_cfb_id: target.cfb_id,
      title: "Credential rotation",
      delta_summary: "Credentials rotate every 60 days, down from 90.",
      summary: "Credentials rotate every 60 days, down from 90.",
      tags: ["credentials"],
      entities: ["Vault"],
    });
    const res = await promoteProposal(opened.as(user), {
      proposal_id: id,
      action: "approve_update",
      expected_cfb_version: 1,
    });
    expect(res).toMatchObject({ status: "approved", final_cfb_id: target.cfb_id, merged_cfb_id: null });
    expect(res.cfb).toMatchObject({
      version: 2,
      title: "Credential rotation",
      summary: "Credentials rotate every 60 days, down from 90.",
      text: "Full text kept.",
      tags: ["security", "credentials"],
      trust_tier: "user_approved",
    });
    expect(res.cfb?.source_refs).toEqual(expect.arrayContaining(["file:ADR-7.md", `proposal:${id}`]));
    const detail = await opened.repos.cfbs.get(target.cfb_id);
    expect(detail?.revisions[0]).toMatchObject({ version: 2, change_kind: "update", promotion_id: res.promotion_id });
    expect(detail?.revisions[0]?.changes.map((c) => c.field).sort()).toEqual([
      "source_refs",
      "summary",
      "tags",
      "trust_tier",
    ]);
    expect(detail?.revisions[0]?.changes.find((c) => c.field === "summary")).toEqual({
      field: "summary",
      before: "Credentials rotate every 90 days.",
      after: "Credentials rotate every 60 days, down from 90.",
    });
    const proposal = await getProposal(opened.as(user), { proposal_id: id });
    expect(proposal.status).toBe("approved");
    expect(proposal.promotion).toMatchObject({ action: "approve_update", final_cfb_id: target.cfb_id });
  });

  it("updates the CFB resolve found when a 'create' proposal restates it", async () => {
    const target = await opened.repos.cfbs.create(
      cfb("Backup retention window", "Nightly backups are kept for 35 days in cold storage.", ["backups"], ["S3"]),
    );
    const id = await propose({
      op: "create",
      title: "Backup retention window",
      delta_summary: "Nightly backups are kept for 35 days in cold storage, then deleted.",
      tags: ["backups"],
      entities: ["S3"],
    });
    const res = await promoteProposal(opened.as(user), { proposal_id: id, action: "approve_update" });
    expect(res.final_cfb_id).toBe(target.cfb_id);
    expect(res.cfb?.version).toBe(2);
  });

  it("is CONFLICT naming what changed when the CFB moved since it was reviewed, and writes nothing", async () => {
    const target = await opened.repos.cfbs.create(cfb("Deploy freeze", "No deploys on Fridays.", ["deploys"], []));
    const id = await propose({
      op: "update",
      target_cfb_id: target.cfb_id,
      title: "Deploy freeze",
      delta_summary: "No deploys on Fridays or before holidays.",
      tags: ["deploys"],
      entities: [],
    });
    // Someone edits the CFB after the reviewer looked at version 1.
    await updateCfb(opened.as(jam), {
      cfb_id: target.cfb_id,
      version: 1,
      ...cfb("Deploy freeze", "No deploys on Fridays after noon.", ["deploys"], []),
    });
    const before = await opened.db.promotionEvent.count();
    const error = await promoteProposal(opened.as(user), {
      proposal_id: id,
      action: "approve_update",
      expected_cfb_version: 1,
    }).catch((e: unknown) => e);
    expect(isDomainError(error) && error.code).toBe("CONFLICT");
    expect(isDomainError(error) && error.field).toBe("expected_cfb_version");
    expect((error as Error).message).toContain(`CFB ${target.cfb_id} is at version 2, not 1`);
    expect(await opened.db.promotionEvent.count()).toBe(before);
    expect((await getProposal(opened.as(user), { proposal_id: id })).status).toBe("pending");
    expect((await opened.repos.cfbs.get(target.cfb_id))?.version).toBe(2);
  });

  it("of two editors approving the same proposal at once, exactly one lands", async () => {
    const target = await opened.repos.cfbs.create(cfb("VPN access", "VPN needs a hardware key.", ["vpn"], []));
    const id = await propose({
      op: "update",
      target_cfb_id: target.cfb_id,
      title: "VPN access",
      delta_summary: "VPN needs a hardware key and a managed laptop.",
      tags: ["vpn"],
      entities: [],
    });
    const results = await Promise.allSettled([
      promoteProposal(opened.as(user), { proposal_id: id, action: "approve_update" }),
      promoteProposal(opened.as(jam), { proposal_id: id, action: "approve_update" }),
      promoteProposal(opened.as(jam), { proposal_id: id, action: "reject" }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results.filter((r) => r.status === "rejected")) {
      expect(isDomainError((r as PromiseRejectedResult).reason) && (r as PromiseRejectedResult).reason.code).toBe(
        "CONFLICT",
      );
    }
    expect(await opened.db.promotionEvent.count({ where: { proposalId: id } })).toBe(1);
    const version = (await opened.repos.cfbs.get(target.cfb_id))?.version;
    expect(version === 1 || version === 2).toBe(true);
  });
});

describe("edit_then_approve", () => {
  it("applies every override to a new CFB (title, summary, text, tags, kind, confidence)", async () => {
    const id = await propose({
      op: "create",
      title: "Printer on floor two",
      delta_summary: "The printer is on floor two.",
      tags: ["office", "printers"],
      entities: [],
    });
    const res = await promoteProposal(opened.as(jam), {
      proposal_id: id,
      action: "edit_then_approve",
      editorial_overrides: {
        title_edit: "Office printer",
        summary_edit: "The office printer is on floor two, next to the kitchen.",
        text_edit: "Toner is in the cupboard.",
        tags_add: ["facilities"],
        tags_remove: ["printers"],
        kind: "authoritative",
        confidence: 0.95,
      },
    });
    expect(res.cfb).toMatchObject({
      title: "Office printer",
      summary: "The office printer is on floor two, next to the kitchen.",
      text: "Toner is in the cupboard.",
      tags: ["office", "facilities"],
      kind: "authoritative",
      confidence: 0.95,
      version: 1,
    });
  });

  it("edits an update proposal into its target", async () => {
    const target = await opened.repos.cfbs.create(cfb("On-call rota", "On-call rotates weekly.", ["oncall"], []));
    const id = await propose({
      op: "update",
      target_cfb_id: target.cfb_id,
      title: "On-call rota",
      delta_summary: "On-call rotates weekly on Mondays.",
      tags: ["oncall"],
      entities: [],
    });
    const res = await promoteProposal(opened.as(jam), {
      proposal_id: id,
      action: "edit_then_approve",
      editorial_overrides: { summary_edit: "On-call rotates every Monday at 10:00.", confidence: 0.8 },
    });
    expect(res.final_cfb_id).toBe(target.cfb_id);
    expect(res.cfb).toMatchObject({ version: 2, summary: "On-call rotates every Monday at 10:00.", confidence: 0.8 });
  });
});

describe("merge", () => {
  it("folds a near-identical CFB into the target; both ids resolve, history is kept", async () => {
    const a = await opened.repos.cfbs.create(
      cfb("Password manager", "Team secrets live in 1Password vaults.", ["secrets", "passwords"], ["1Password"]),
    );
    const b = await opened.repos.cfbs.create(
      cfb("Password manager", "Team secrets live in 1Password vaults.", ["secrets", "vaults"], ["1Password"]),
    );
    const id = await propose({
      op: "merge",
      target_cfb_id: a.cfb_id,
      title: "Password manager",
      delta_summary: "Team secrets live in 1Password vaults.",
      tags: ["secrets"],
      entities: ["1Password"],
    });
    const proposal = await getProposal(opened.as(user), { proposal_id: id });
    expect(proposal.resolve?.decision).toBe("merge");
    const res = await promoteProposal(opened.as(user), { proposal_id: id, action: "approve_update" });
    const survivor = res.final_cfb_id as string;
    const mergedId = res.merged_cfb_id as string;
    expect([survivor, mergedId].sort()).toEqual([a.cfb_id, b.cfb_id].sort());
    expect(res.cfb?.tags).toEqual(expect.arrayContaining(["secrets", "passwords", "vaults"]));
    const merged = await opened.repos.cfbs.get(mergedId);
    expect(merged).toMatchObject({ merged_into_cfb_id: survivor, version: 2 });
    expect(merged?.revisions[0]).toMatchObject({ change_kind: "merge", promotion_id: res.promotion_id });
    // The merged CFB no longer comes up as a candidate; the survivor does.
    const candidates = await opened.repos.cfbs.candidates({ terms: ["password", "manager", "1password"] });
    expect(candidates.map((c) => c.cfb_id)).toContain(survivor);
    expect(candidates.map((c) => c.cfb_id)).not.toContain(mergedId);
  });
});
