// What a bulk approval and the Umbra beat leave out (issue 35): a proposal's `held` reasons, read
// from resolve's decision and the update's target (proposals/held.ts); and the way out of an
// update nobody wants, "already known" (a rejection naming the CFB that says it, writing nothing
// to that CFB), on a real SQLite file.
import type { TResolveOutcome, TScoredCandidate } from "@solserver/contracts";
import { ZPromoteRequest } from "@solserver/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getProposal, parseInput, promoteProposal, respondToTurn } from "../src/index";
import { heldReasons } from "../src/proposals/held";
import type { TCfbRef } from "../src/proposals/promotion-check";
import { openTestControlPlane, scriptedModel, type TTestActor, type TTestSuggestion, testCfb } from "../src/testing";

const ref = (cfb_id: string, title: string, extra: Partial<TCfbRef> = {}): TCfbRef => ({
  cfb_id,
  title,
  version: 1,
  merged_into_cfb_id: null,
  retired_ts: null,
  visibility: "shared",
  kind: "heuristic",
  trust_tier: "user_approved",
  ...extra,
});
const scored = (cfb_id: string, extra: Partial<TScoredCandidate> = {}): TScoredCandidate =>
  ({ cfb_id, score: 0.82, components: {}, flags: [], ...extra }) as TScoredCandidate;
const decision = (d: TResolveOutcome["decision"], scores: TScoredCandidate[]) => ({ decision: d, scores });

describe("heldReasons", () => {
  const pump = ref("CFB-0001", "Water pump 15 A breaker");

  it("holds nothing for a clean update of the same subject, nor without a main approval", () => {
    const same = decision("update", [
      scored("CFB-0001", { subject: { relation: "same", proposal: [], candidate: [] } }),
    ]);
    expect(heldReasons("approve_update", same, { target: pump, merged: null })).toEqual([]);
    expect(heldReasons(null, decision("review", []), null)).toEqual([]);
  });

  it("names another subject, a changed value and curated knowledge, each with the target's title", () => {
    const outcome = decision("update", [
      scored("CFB-0001", {
        subject: { relation: "different", proposal: ["awning"], candidate: ["water", "pump"] },
        changes: [
          { old: "15 A", new: "20 A" },
          { old: "2019", new: "2021" },
        ],
      }),
    ]);
    const curated = ref("CFB-0001", "Water pump 15 A breaker", { trust_tier: "repo_adr" });
    expect(heldReasons("approve_update", outcome, { target: curated, merged: null })).toEqual([
      { code: "subject_differs", note: 'about awning; CFB-0001 "Water pump 15 A breaker" is about water pump' },
      { code: "value_changes", note: "changes what CFB-0001 says: 15 A → 20 A (+1 more)" },
      { code: "curated", note: 'changes curated knowledge: CFB-0001 "Water pump 15 A breaker"' },
    ]);
  });

  it("holds what resolve left for a person, naming the CFB it is close to", () => {
    expect(heldReasons("approve_create", decision("review", []), { target: pump, merged: null })).toEqual([
      {
        code: "resolve_review",
        note: 'resolve left it for a person: it is close to CFB-0001 "Water pump 15 A breaker"',
      },
    ]);
  });

  it("a close subject is no reason (resolve decided with it)", () => {
    const close = decision("update", [
      scored("CFB-0001", { subject: { relation: "close", proposal: ["pump"], candidate: [] } }),
    ]);
    expect(heldReasons("approve_update", close, { target: pump, merged: null })).toEqual([]);
  });
});

describe("already known", () => {
  let next: TTestSuggestion[] = [];
  const scripted = scriptedModel(() => ({ suggestions: next.map((s) => ({ ...s, confidence: 0.8 })) }));
  let opened: Awaited<ReturnType<typeof openTestControlPlane>>;
  let user: TTestActor;
  let jam: TTestActor;
  let n = 0;
  beforeAll(async () => {
    opened = await openTestControlPlane({
      label: "already-known",
      model: scripted,
      limits: { chatTurnsPerMinute: 1000 },
    });
    user = await opened.account("user");
    jam = await opened.account("jam");
  });
  afterAll(async () => opened?.close());

  async function restatement() {
    const cfb = await opened.repos.cfbs.create(
      testCfb({
        title: `Quarantine window ${++n}`,
        summary: "New laptops stay in quarantine for 48 hours.",
        tags: ["laptops"],
      }),
    );
    next = [
      {
        op: "update",
        target_cfb_id: cfb.cfb_id,
        title: cfb.title,
        delta_summary: "New laptops stay in quarantine for 48 hours.",
        summary: "New laptops stay in quarantine for 48 hours.",
        tags: ["laptops"],
        entities: [],
      },
    ];
    const turn = await respondToTurn(opened.as(user), {
      request_id: `ak-${n}`,
      message: "Laptops: 48 hours quarantine.",
    });
    return { cfb, proposalId: turn.ui_hints.proposal_previews[0]?.proposal_id as string };
  }

  it("offers the CFB it would update as covering it, and closes the proposal against it, writing nothing", async () => {
    const { cfb, proposalId } = await restatement();
    const before = await getProposal(opened.as(jam), { proposal_id: proposalId });
    expect(before.actions.covered_by).toEqual({ cfb_id: cfb.cfb_id, title: cfb.title });
    const res = await promoteProposal(
      opened.as(jam),
      parseInput(ZPromoteRequest, {
        proposal_id: proposalId,
        action: "reject",
        known_cfb_id: cfb.cfb_id,
        reason: "said twice",
      }),
    );
    expect(res).toMatchObject({ status: "rejected", final_cfb_id: null });
    const after = await getProposal(opened.as(jam), { proposal_id: proposalId });
    const event = await opened.db.promotionEvent.findFirstOrThrow({ where: { proposalId } });
    expect(event.reason).toBe(`Already known: ${cfb.cfb_id} “${cfb.title}”. said twice`);
    expect(after.actions.covered_by).toBeNull();
    expect((await opened.repos.cfbs.get(cfb.cfb_id))?.version).toBe(1);
  });

  it("refuses a CFB that does not exist and any action but reject, naming the field", async () => {
    const { proposalId } = await restatement();
    await expect(
      promoteProposal(opened.as(jam), { proposal_id: proposalId, action: "reject", known_cfb_id: "CFB-9999" }),
    ).rejects.toMatchObject({ code: "BAD_INPUT", field: "known_cfb_id" });
    expect(() =>
      parseInput(ZPromoteRequest, { proposal_id: proposalId, action: "approve_update", known_cfb_id: "CFB-0001" }),
    ).toThrow("known_cfb_id: known_cfb_id is only for action reject (already known)");
    expect((await getProposal(opened.as(jam), { proposal_id: proposalId })).status).toBe("pending");
  });
});
