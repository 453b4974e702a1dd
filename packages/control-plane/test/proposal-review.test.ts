// The proposal page's data on a real SQLite file: the proposal's source (the user's message, the
// answer, the thread), and previews of each approval computed by the promotion's own code, so
// the page's diff is exactly what lands. Also who may see it, and the conflict a reviewer gets
// when the CFB moved after they looked.
import { isDomainError, type TCfbDraft } from "@solserver/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { promoteProposal, respondToTurn, reviewProposal, updateCfb } from "../src/index";
import { openTestControlPlane, scriptedModel, type TTestActor, type TTestSuggestion, testCfb } from "../src/testing";

let next: TTestSuggestion[] = [];
const scripted = scriptedModel(() => ({
  text: "Noted: the freeze moves.",
  suggestions: next.map((s) => ({ ...s, confidence: 0.8, rationale: "The user restated the policy." })),
}));

const cfb = (title: string, summary: string, tags: string[]): TCfbDraft =>
  testCfb({ title, summary, text: "Full text kept.", tags, trust_tier: "derived", source_refs: ["file:ADR-9.md"] });

let opened: Awaited<ReturnType<typeof openTestControlPlane>>;
let user: TTestActor;
let other: TTestActor;
let jam: TTestActor;
let n = 0;
async function propose(s: TTestSuggestion, message = "We decided something."): Promise<string> {
  next = [s];
  const res = await respondToTurn(opened.as(user), { request_id: `review-${++n}`, message });
  return res.ui_hints.proposal_previews[0]?.proposal_id as string;
}

beforeAll(async () => {
  opened = await openTestControlPlane({
    label: "proposal-review",
    model: scripted,
    limits: { chatTurnsPerMinute: 1000 },
  });
  user = await opened.account("user");
  other = await opened.account("user");
  jam = await opened.account("jam");
});
afterAll(async () => opened?.close());

describe("proposals.review", () => {
  it("shows where the proposal came from: the user's message, the answer, the thread, the rationale", async () => {
    const id = await propose(
      { op: "create", title: "Pager rota", delta_summary: "The pager rotates weekly.", tags: ["oncall"], entities: [] },
      "Who holds the pager this week?",
    );
    const review = await reviewProposal(opened.as(user), { proposal_id: id });
    expect(review.source.user_message).toBe("Who holds the pager this week?");
    expect(review.source.assistant_text).toBe("Noted: the freeze moves.");
    expect(review.source.thread_id).toBe(review.proposal.thread_id);
    expect(review.source.response_id).toBe(review.proposal.response_id);
    expect(review.proposal.rationale).toBe("The user restated the policy.");
    // A create proposal previews the new CFB exactly as approve_create writes it.
    expect(review.preview.create?.title).toBe("Pager rota");
    expect(review.preview.create?.trust_tier).toBe("user_approved");
    const landed = await promoteProposal(opened.as(user), { proposal_id: id, action: "approve_create" });
    const {
      cfb_id: _id,
      version: _v,
      created_ts: _c,
      updated_ts: _u,
      last_accessed_ts: _l,
      staleness: _s,
      visibility,
      private_to,
      ...written
    } = landed.cfb ?? ({} as never);
    expect(written).toEqual(review.preview.create);
    // A user's own approval is theirs until a Jam editor endorses it (issue 19).
    expect({ visibility, private_to }).toEqual({ visibility: "private", private_to: user.email });
  });

  it("previews an update as the target now, the CFB after and the field diff, and that is what lands", async () => {
    const target = await opened.repos.cfbs.create(cfb("Deploy freeze", "No deploys on Fridays.", ["deploys"]));
    const id = await propose({
      op: "update",
      target_cfb_id: target.cfb_id,
      title: "Deploy freeze",
      delta_summary: "No deploys on Fridays or the day before a holiday.",
      summary: "No deploys on Fridays or the day before a holiday.",
      tags: ["deploys", "holidays"],
      entities: [],
    });
    const review = await reviewProposal(opened.as(user), { proposal_id: id });
    expect(review.preview.create).toBeNull();
    const update = review.preview.update;
    expect(update?.target.cfb_id).toBe(target.cfb_id);
    expect(update?.target.version).toBe(1);
    const fields = Object.fromEntries(update?.changes.map((c) => [c.field, c]) ?? []);
    expect(fields.summary).toEqual({
      field: "summary",
      before: "No deploys on Fridays.",
      after: "No deploys on Fridays or the day before a holiday.",
    });
    expect(fields.tags?.after).toEqual(["deploys", "holidays"]);
    expect(fields.trust_tier).toEqual({ field: "trust_tier", before: "derived", after: "user_approved" });
    // Unchanged fields are not in the diff.
    expect(fields.title).toBeUndefined();
    expect(fields.text).toBeUndefined();
    const landed = await promoteProposal(opened.as(user), {
      proposal_id: id,
      action: "approve_update",
      expected_cfb_version: update?.target.version,
    });
    expect(landed.cfb?.summary).toBe(update?.after.summary);
    expect(landed.cfb?.tags).toEqual(update?.after.tags);
    expect(landed.cfb?.source_refs).toEqual(update?.after.source_refs);
    // Decided: the page shows the outcome, no previews.
    const after = await reviewProposal(opened.as(user), { proposal_id: id });
    expect(after.proposal.status).toBe("approved");
    expect(after.preview).toEqual({ create: null, update: null, update_unavailable: null });
  });

  it("previews a Jam editor's overrides; a user may not send them", async () => {
    const target = await opened.repos.cfbs.create(cfb("Backups", "Backups run nightly.", ["backups"]));
    const id = await propose({
      op: "update",
      target_cfb_id: target.cfb_id,
      title: "Backups",
      delta_summary: "Backups run nightly and are tested monthly.",
      summary: "Backups run nightly and are tested monthly.",
      tags: ["backups"],
      entities: [],
    });
    const overrides = {
      title_edit: "Backups and restores",
      tags_add: ["restore"],
      text_edit: "Restore drill monthly.",
    };
    const review = await reviewProposal(opened.as(jam), { proposal_id: id, editorial_overrides: overrides });
    const fields = review.preview.update?.changes.map((c) => c.field) ?? [];
    expect(fields).toEqual(expect.arrayContaining(["title", "summary", "text", "tags"]));
    expect(review.preview.update?.after.title).toBe("Backups and restores");
    const refused = await reviewProposal(opened.as(user), { proposal_id: id, editorial_overrides: overrides }).catch(
      (e: unknown) => e,
    );
    expect(isDomainError(refused) && refused.code).toBe("FORBIDDEN");
  });

  it("says why there is no update to preview when no CFB could be updated", async () => {
    const id = await propose({
      op: "update",
      target_cfb_id: "CFB-9999",
      title: "Quantum widgets",
      delta_summary: "Widgets entangle on Tuesdays.",
      tags: ["widgets"],
      entities: [],
    });
    const review = await reviewProposal(opened.as(user), { proposal_id: id });
    expect(review.proposal.warnings).toContain("target_cfb_missing");
    expect(review.preview.update).toBeNull();
    expect(review.preview.update_unavailable).toMatch(/no CFB to update/);
    // A missing target can still become a new CFB.
    expect(review.preview.create?.title).toBe("Quantum widgets");
  });

  it("is the thread owner's and Jam's to see; another user is FORBIDDEN, an unknown id NOT_FOUND", async () => {
    const id = await propose({ op: "create", title: "Lunch", delta_summary: "Lunch at noon.", tags: [], entities: [] });
    await expect(reviewProposal(opened.as(jam), { proposal_id: id })).resolves.toBeTruthy();
    const forbidden = await reviewProposal(opened.as(other), { proposal_id: id }).catch((e: unknown) => e);
    expect(isDomainError(forbidden) && forbidden.code).toBe("FORBIDDEN");
    expect((forbidden as Error).message).not.toContain("Lunch");
    const missing = await reviewProposal(opened.as(user), { proposal_id: "UP-999999" }).catch((e: unknown) => e);
    expect(isDomainError(missing) && missing.code).toBe("NOT_FOUND");
  });

  it("a promotion based on the version the page showed is CONFLICT naming what changed when the CFB moved", async () => {
    const target = await opened.repos.cfbs.create(cfb("Incident review", "Reviews within a week.", ["incidents"]));
    const id = await propose({
      op: "update",
      target_cfb_id: target.cfb_id,
      title: "Incident review",
      delta_summary: "Reviews within five working days.",
      tags: ["incidents"],
      entities: [],
    });
    const review = await reviewProposal(opened.as(user), { proposal_id: id });
    const shown = review.preview.update?.target.version as number;
    // Another editor edits the CFB's summary and tags while the page is open.
    await updateCfb(opened.as(jam), {
      cfb_id: target.cfb_id,
      version: shown,
      ...cfb("Incident review", "Reviews within three days.", ["incidents", "postmortem"]),
    });
    const conflict = await promoteProposal(opened.as(user), {
      proposal_id: id,
      action: "approve_update",
      expected_cfb_version: shown,
    }).catch((e: unknown) => e);
    expect(isDomainError(conflict) && conflict.code).toBe("CONFLICT");
    expect((conflict as Error).message).toBe(
      `CFB ${target.cfb_id} is at version 2, not 1: summary, tags changed; review it again`,
    );
    // Nothing was written: the proposal is still pending, and the page now previews version 2.
    const again = await reviewProposal(opened.as(user), { proposal_id: id });
    expect(again.proposal.status).toBe("pending");
    expect(again.preview.update?.target.version).toBe(2);
  });

  it("an edit based on an old version is CONFLICT naming what changed", async () => {
    const target = await opened.repos.cfbs.create(cfb("Status page", "Status page on incidents.", ["status"]));
    await updateCfb(opened.as(jam), {
      cfb_id: target.cfb_id,
      version: 1,
      ...cfb("Status page updates", "Status page on incidents.", ["status"]),
    });
    const conflict = await updateCfb(opened.as(jam), {
      cfb_id: target.cfb_id,
      version: 1,
      ...cfb("Status page", "Hourly updates.", ["status"]),
    }).catch((e: unknown) => e);
    expect(isDomainError(conflict) && conflict.code).toBe("CONFLICT");
    expect(isDomainError(conflict) && conflict.field).toBe("version");
    expect((conflict as Error).message).toBe(
      `CFB ${target.cfb_id} is at version 2, not 1: title changed; review it again`,
    );
  });
});
