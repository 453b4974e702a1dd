// What approving a proposal writes into a CFB (issue 19, point 1), on a real SQLite file: the
// content a suggestion proposes (summary, text) lands as proposed and apart from its change note
// (delta_summary); an update without content of its own keeps the target's summary and adds the
// fact to its full text; the proposal page's preview is exactly what lands; the offline model
// proposes real content; an envelope with empty content is refused naming the field.
import { cfbDraftOf, isDomainError, type TCfbDraft, ZOutputEnvelope } from "@solserver/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCfb, getProposal, promoteProposal, respondToTurn, reviewProposal } from "../src/index";
import { openTestControlPlane, scriptedModel, type TTestActor, type TTestSuggestion, testCfb } from "../src/testing";

const target = (title: string, summary: string, text: string | null): TCfbDraft =>
  testCfb({ kind: "heuristic", confidence: 0.7, title, summary, text, tags: ["ops"], source_refs: ["thread:t0"] });

/** The content a CFB holds (what a draft sets): what the preview showed and what landed compare on. */
function asDraft(cfb: Record<string, unknown> | null | undefined) {
  return cfbDraftOf(cfb ?? {});
}

describe("scripted suggestions", () => {
  let next: TTestSuggestion[] = [];
  let opened: Awaited<ReturnType<typeof openTestControlPlane>>;
  let user: TTestActor;
  let n = 0;
  async function propose(s: TTestSuggestion): Promise<string> {
    next = [s];
    const res = await respondToTurn(opened.as(user), { request_id: `content-${++n}`, message: "We decided." });
    return res.ui_hints.proposal_previews[0]?.proposal_id as string;
  }
  /** Approves `id` as an update after reading its preview; the preview and the CFB that landed. */
  async function approveUpdate(id: string) {
    const review = await reviewProposal(opened.as(user), { proposal_id: id });
    const preview = review.preview.update;
    if (!preview) throw new Error(`no update preview: ${review.preview.update_unavailable}`);
    const landed = await promoteProposal(opened.as(user), {
      proposal_id: id,
      action: "approve_update",
      expected_cfb_version: preview.target.version,
    });
    // What the reviewer saw is exactly what landed.
    expect(asDraft(landed.cfb)).toEqual(preview.after);
    return { preview, cfb: landed.cfb };
  }

  beforeAll(async () => {
    opened = await openTestControlPlane({
      label: "update-content",
      model: scriptedModel(() => ({ suggestions: next.map((s) => ({ ...s, confidence: 0.8 })) })),
      limits: { chatTurnsPerMinute: 1000 },
    });
    user = await opened.account("user");
  });
  afterAll(async () => opened?.close());

  it("an update lands its proposed content: the summary as proposed, the text added to the full text", async () => {
    const cfb = await opened.repos.cfbs.create(
      target("API timestamps", "API timestamps are ISO 8601 strings.", "Every endpoint returns ISO 8601."),
    );
    const id = await propose({
      op: "update",
      target_cfb_id: cfb.cfb_id,
      title: "API timestamps",
      delta_summary: "Add decision: every API timestamp is stored in UTC.",
      summary: "API timestamps are ISO 8601 strings, stored and returned in UTC.",
      text: "Every API timestamp is stored in UTC; clients convert to local time.",
      tags: ["api"],
      entities: [],
    });
    const stored = await getProposal(opened.as(user), { proposal_id: id });
    // The content is stored apart from the change note.
    expect(stored.delta_summary).toBe("Add decision: every API timestamp is stored in UTC.");
    expect(stored.proposed_cfb).toMatchObject({
      summary: "API timestamps are ISO 8601 strings, stored and returned in UTC.",
      text: "Every API timestamp is stored in UTC; clients convert to local time.",
    });
    const { preview, cfb: landed } = await approveUpdate(id);
    expect(preview.changes.map((c) => c.field)).toEqual(expect.arrayContaining(["summary", "text"]));
    expect(landed).toMatchObject({
      title: "API timestamps",
      summary: "API timestamps are ISO 8601 strings, stored and returned in UTC.",
      text: "Every endpoint returns ISO 8601.\n\nEvery API timestamp is stored in UTC; clients convert to local time.",
    });
    expect(JSON.stringify(landed)).not.toContain("Add decision");
  });

  it("without proposed content, an update keeps the target's summary and adds the fact to its full text", async () => {
    const cfb = await opened.repos.cfbs.create(
      target("Deploy windows", "Deploys happen on weekdays.", "Deploys need a green pipeline."),
    );
    const id = await propose({
      op: "update",
      target_cfb_id: cfb.cfb_id,
      title: "Deploy windows",
      delta_summary: "Add rule: no deploys after 4pm on Fridays",
      tags: ["deploys"],
      entities: [],
    });
    expect((await getProposal(opened.as(user), { proposal_id: id })).proposed_cfb).toMatchObject({
      summary: null,
      text: null,
    });
    const { preview, cfb: landed } = await approveUpdate(id);
    // The summary is not in the diff: it stays.
    expect(preview.changes.map((c) => c.field)).not.toContain("summary");
    expect(landed?.summary).toBe("Deploys happen on weekdays.");
    // The fact joins the full text as a sentence; the change note's label does not.
    expect(landed?.text).toBe("Deploys need a green pipeline.\n\nNo deploys after 4pm on Fridays.");
  });

  it("a target without full text starts one from its summary, then the fact", async () => {
    const cfb = await opened.repos.cfbs.create(target("Pager rota", "The pager rotates weekly.", null));
    const id = await propose({
      op: "update",
      target_cfb_id: cfb.cfb_id,
      title: "Pager rota",
      delta_summary: "Add fact: the handover happens on Monday at 10:00.",
      tags: [],
      entities: [],
    });
    const { cfb: landed } = await approveUpdate(id);
    expect(landed?.summary).toBe("The pager rotates weekly.");
    expect(landed?.text).toBe("The pager rotates weekly.\n\nThe handover happens on Monday at 10:00.");
  });

  it("a fact the full text already states is not added twice", async () => {
    const cfb = await opened.repos.cfbs.create(
      target("Backups", "Backups run nightly.", "Backups run nightly. Restores are tested monthly."),
    );
    const id = await propose({
      op: "update",
      target_cfb_id: cfb.cfb_id,
      title: "Backups",
      delta_summary: "Add: restores are tested monthly.",
      tags: [],
      entities: [],
    });
    const { preview, cfb: landed } = await approveUpdate(id);
    expect(preview.changes.map((c) => c.field)).not.toContain("text");
    expect(landed?.text).toBe("Backups run nightly. Restores are tested monthly.");
  });

  it("a create lands its proposed summary and full text", async () => {
    const id = await propose({
      op: "create",
      title: "Quarterly access review",
      delta_summary: "New CFB: quarterly access review.",
      summary: "Access to production is reviewed every quarter.",
      text: "The security team reviews production access in the first week of each quarter.",
      tags: ["security"],
      entities: [],
    });
    const review = await reviewProposal(opened.as(user), { proposal_id: id });
    const landed = await promoteProposal(opened.as(user), { proposal_id: id, action: "approve_create" });
    expect(asDraft(landed.cfb)).toEqual(review.preview.create);
    expect(landed.cfb).toMatchObject({
      summary: "Access to production is reviewed every quarter.",
      text: "The security team reviews production access in the first week of each quarter.",
    });
  });

  it("a proposal stored before proposals carried content reads as proposing none", async () => {
    const cfb = await opened.repos.cfbs.create(target("Release notes", "Release notes ship with every tag.", null));
    const id = await propose({
      op: "update",
      target_cfb_id: cfb.cfb_id,
      title: "Release notes",
      delta_summary: "Add decision: release notes link the changelog.",
      summary: "Release notes link the changelog.",
      tags: [],
      entities: [],
    });
    // As such a row was written: the change note as `summary`, no `text`.
    await opened.db.umbraProposal.update({
      where: { id },
      data: {
        proposedCfb: {
          title: "Release notes",
          summary: "Add decision: release notes link the changelog.",
          tags: [],
          entities: [],
          domain: "ops",
        },
      },
    });
    const { cfb: landed } = await approveUpdate(id);
    expect(landed?.summary).toBe("Release notes ship with every tag.");
    expect(landed?.text).toBe("Release notes ship with every tag.\n\nRelease notes link the changelog.");
  });
});

describe("the envelope's proposed content", () => {
  const envelope = (suggestion: Record<string, unknown>) => ({
    assistant_text: "Noted.",
    meta: {
      cfb_suggestions: [
        {
          op: "update",
          target_cfb_id: "CFB-0001",
          title: "T",
          delta_summary: "Add: x.",
          confidence: 0.8,
          ...suggestion,
        },
      ],
    },
  });

  it("accepts a suggestion with or without summary and text", () => {
    expect(ZOutputEnvelope.safeParse(envelope({})).success).toBe(true);
    const parsed = ZOutputEnvelope.parse(envelope({ summary: " S. ", text: "T." }));
    expect(parsed.meta.cfb_suggestions[0]).toMatchObject({ summary: "S.", text: "T." });
  });

  it("refuses empty or oversized content, naming the field and what to do", () => {
    const empty = ZOutputEnvelope.safeParse(envelope({ summary: "  " }));
    expect(empty.success).toBe(false);
    expect(empty.error?.issues[0]).toMatchObject({
      path: ["meta", "cfb_suggestions", 0, "summary"],
      message: "must not be empty: leave summary out to keep the target's summary",
    });
    const long = ZOutputEnvelope.safeParse(envelope({ text: "x".repeat(8001) }));
    expect(long.error?.issues[0]).toMatchObject({
      path: ["meta", "cfb_suggestions", 0, "text"],
      message: "must be at most 8000 characters",
    });
  });

  it("a turn whose model proposes an empty summary fails UPSTREAM naming the field, and stores no proposal", async () => {
    const opened = await openTestControlPlane({
      label: "update-content-envelope",
      model: scriptedModel(() => ({
        suggestions: [
          {
            op: "create",
            title: "Empty",
            delta_summary: "Add: empty.",
            summary: "",
            tags: [],
            entities: [],
            confidence: 1,
          },
        ],
      })),
    });
    try {
      const user = await opened.account("user");
      const failed = await respondToTurn(opened.as(user), { request_id: "empty-1", message: "We decided." }).catch(
        (e: unknown) => e,
      );
      expect(isDomainError(failed) && failed.code).toBe("UPSTREAM");
      expect((failed as Error).message).toContain("meta.cfb_suggestions.0.summary: must not be empty");
      expect(await opened.db.umbraProposal.count()).toBe(0);
    } finally {
      await opened.close();
    }
  });
});

describe("the offline model", () => {
  let opened: Awaited<ReturnType<typeof openTestControlPlane>>;
  let user: TTestActor;
  let jam: TTestActor;
  let n = 0;
  /** A turn of the offline model; its single suggestion's proposal. */
  async function say(message: string) {
    const res = await respondToTurn(opened.as(user), { request_id: `offline-${++n}`, message });
    const id = res.ui_hints.proposal_previews[0]?.proposal_id as string;
    return getProposal(opened.as(user), { proposal_id: id });
  }

  beforeAll(async () => {
    opened = await openTestControlPlane({ label: "update-content-offline", limits: { chatTurnsPerMinute: 1000 } });
    user = await opened.account("user");
    jam = await opened.account("jam");
  });
  afterAll(async () => opened?.close());

  it("proposes a new CFB's content as the stated fact, as a sentence", async () => {
    const proposal = await say("We decided to keep build artifacts for 14 days.");
    expect(proposal.op).toBe("create");
    expect(proposal.proposed_cfb).toMatchObject({ summary: "Keep build artifacts for 14 days.", text: null });
  });

  it("an update adds the fact to the full text and leaves the curated summary; approving lands it, not the note", async () => {
    const cfb = await createCfb(
      opened.as(jam),
      target("API timestamps", "Every API timestamp is stored in ISO 8601 format.", null),
    );
    const proposal = await say("We decided that every API timestamp is stored in UTC.");
    expect(proposal).toMatchObject({ op: "update", target_cfb_id: cfb.cfb_id });
    expect(proposal.delta_summary).toBe("Add decision: every API timestamp is stored in UTC.");
    expect(proposal.proposed_cfb).toMatchObject({ summary: null, text: "Every API timestamp is stored in UTC." });
    const landed = await promoteProposal(opened.as(user), {
      proposal_id: proposal.proposal_id,
      action: "approve_update",
    });
    expect(landed.cfb).toMatchObject({
      cfb_id: cfb.cfb_id,
      summary: "Every API timestamp is stored in ISO 8601 format.",
      text: "Every API timestamp is stored in ISO 8601 format.\n\nEvery API timestamp is stored in UTC.",
    });
    expect(JSON.stringify(landed.cfb)).not.toMatch(/Add (decision|rule|fact)/);
  });

  it("a restatement of a CFB's summary proposes the new summary", async () => {
    const cfb = await createCfb(opened.as(jam), target("Pager handover", "Rotate the pager every Tuesday.", null));
    const proposal = await say("We decided to rotate the pager every Tuesday at noon.");
    expect(proposal).toMatchObject({ op: "update", target_cfb_id: cfb.cfb_id });
    expect(proposal.proposed_cfb).toMatchObject({ summary: "Rotate the pager every Tuesday at noon.", text: null });
    const landed = await promoteProposal(opened.as(user), {
      proposal_id: proposal.proposal_id,
      action: "approve_update",
    });
    expect(landed.cfb).toMatchObject({ summary: "Rotate the pager every Tuesday at noon.", text: null });
  });
});
