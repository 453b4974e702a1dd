// Trust tiers and curated knowledge (issue 19, point 2), on a real SQLite file: approving never
// lowers a CFB's trust tier or kind; an authoritative or repo_adr CFB is changed by Jam editors
// only, a user's approval of such an update is FORBIDDEN naming why and writes nothing, and the
// proposal's actions say so before anyone clicks (on the page, in the queue, in the chat answer).
import { isDomainError, type TCfbDraft } from "@solserver/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getProposal, promoteProposal, respondToTurn } from "../src/index";
import { openTestControlPlane, scriptedModel, type TTestActor, type TTestSuggestion, testCfb } from "../src/testing";

let next: TTestSuggestion[] = [];
let opened: Awaited<ReturnType<typeof openTestControlPlane>>;
let user: TTestActor;
let jam: TTestActor;
let n = 0;

/** A pending proposal of the user's thread; its id and the actions the chat answer gave. */
async function propose(s: TTestSuggestion) {
  next = [s];
  const res = await respondToTurn(opened.as(user), { request_id: `trust-${++n}`, message: "We decided." });
  const preview = res.ui_hints.proposal_previews[0];
  if (!preview) throw new Error("nothing proposed");
  return { id: preview.proposal_id, previewed: preview.actions };
}

/** An update of `target` adding one fact (every scenario its own words, so resolve keeps to it). */
const updateOf = (targetId: string, title: string, fact: string): TTestSuggestion => ({
  op: "update",
  target_cfb_id: targetId,
  title,
  delta_summary: `Add: ${fact}`,
  tags: [],
  entities: [],
});

const create = (draft: Partial<TCfbDraft> & Pick<TCfbDraft, "title" | "summary">) =>
  opened.repos.cfbs.create(testCfb({ text: "Full text.", source_refs: ["file:ADR-3.md"], ...draft }));

beforeAll(async () => {
  opened = await openTestControlPlane({
    label: "trust-protection",
    model: scriptedModel(() => ({ suggestions: next.map((s) => ({ ...s, confidence: 0.8 })) })),
    limits: { chatTurnsPerMinute: 1000 },
  });
  user = await opened.account("user");
  jam = await opened.account("jam");
});
afterAll(async () => opened?.close());

describe("approving never lowers a trust tier", () => {
  it("a Jam editor's update of a repo_adr, authoritative CFB keeps its tier, kind and confidence", async () => {
    const adr = await create({
      kind: "authoritative",
      confidence: 0.95,
      trust_tier: "repo_adr",
      title: "Service mesh",
      summary: "All internal traffic goes through the Linkerd mesh.",
    });
    const { id } = await propose(updateOf(adr.cfb_id, "Service mesh", "mesh certificates rotate daily."));
    const res = await promoteProposal(opened.as(jam), { proposal_id: id, action: "approve_update" });
    expect(res.cfb).toMatchObject({
      cfb_id: adr.cfb_id,
      version: 2,
      kind: "authoritative",
      confidence: 0.95,
      trust_tier: "repo_adr",
    });
    const revision = (await opened.repos.cfbs.get(adr.cfb_id))?.revisions[0];
    expect(revision?.changes.map((c) => c.field)).not.toContain("trust_tier");
    expect(revision?.changes.map((c) => c.field)).not.toContain("kind");
  });

  it("a person's approval raises a derived CFB to user_approved, and user_approved stays", async () => {
    const derived = await create({ trust_tier: "derived", title: "Cache TTL", summary: "Edge cache TTL is 60s." });
    const first = await propose(updateOf(derived.cfb_id, "Cache TTL", "purges take under a minute."));
    const raised = await promoteProposal(opened.as(user), { proposal_id: first.id, action: "approve_update" });
    expect(raised.cfb).toMatchObject({ trust_tier: "user_approved", kind: "heuristic" });
    const again = await propose(updateOf(derived.cfb_id, "Cache TTL", "the TTL is set per route."));
    const kept = await promoteProposal(opened.as(user), { proposal_id: again.id, action: "approve_update" });
    expect(kept.cfb).toMatchObject({ trust_tier: "user_approved", version: 3 });
  });

  it("a merge keeps the higher tier and the stronger kind of the two CFBs", async () => {
    const words = "The quokka ledger lives in the basement vault.";
    const low = await create({
      trust_tier: "derived",
      kind: "umbra",
      title: "Quokka ledger",
      summary: words,
      tags: ["ledgers", "vaults"],
      entities: ["Quokka"],
    });
    await create({
      trust_tier: "repo_adr",
      kind: "authoritative",
      title: "Quokka ledger",
      summary: words,
      tags: ["ledgers", "basement"],
      entities: ["Quokka"],
    });
    const { id } = await propose({
      op: "merge",
      target_cfb_id: low.cfb_id,
      title: "Quokka ledger",
      delta_summary: words,
      tags: ["ledgers"],
      entities: ["Quokka"],
    });
    expect((await getProposal(opened.as(jam), { proposal_id: id })).actions.update?.merge_cfb_id).toMatch(/^CFB-/);
    const res = await promoteProposal(opened.as(jam), { proposal_id: id, action: "approve_update" });
    expect(res.merged_cfb_id).not.toBeNull();
    expect(res.cfb).toMatchObject({ trust_tier: "repo_adr", kind: "authoritative" });
  });
});

describe("curated knowledge needs a Jam editor", () => {
  for (const curated of [
    { what: "authoritative", draft: { kind: "authoritative" as const, trust_tier: "user_approved" as const } },
    { what: "a repository ADR (repo_adr)", draft: { kind: "heuristic" as const, trust_tier: "repo_adr" as const } },
  ]) {
    it(`${curated.what}: a user is refused before and at the click; a Jam editor's approval lands`, async () => {
      const title = `Retention ${curated.draft.trust_tier}`;
      const target = await create({ ...curated.draft, title, summary: "Logs are kept for 30 days." });
      const { id, previewed } = await propose(updateOf(target.cfb_id, title, "audit logs are kept for a year."));
      const why = `only a Jam editor may change ${target.cfb_id}: ${target.cfb_id} is ${curated.what}; reject the proposal or leave it to a Jam editor`;

      // Before the click: the page, the queue and the chat answer all say so, with promote's words.
      const page = await getProposal(opened.as(user), { proposal_id: id });
      for (const actions of [page.actions, previewed]) {
        expect(actions).toMatchObject({ allowed: ["reject"], primary: null, update: null });
        expect(actions.unavailable).toContainEqual({ action: "approve_update", code: "FORBIDDEN", reason: why });
        expect(actions.protection).toEqual({
          cfb_id: target.cfb_id,
          kind: curated.draft.kind,
          trust_tier: curated.draft.trust_tier,
          note: `Only a Jam editor may change ${target.cfb_id}: ${target.cfb_id} is ${curated.what}.`,
        });
      }

      // At the click: FORBIDDEN, the same reason, and nothing written.
      const refused = await promoteProposal(opened.as(user), {
        proposal_id: id,
        action: "approve_update",
        expected_cfb_version: 1,
      }).catch((e: unknown) => e);
      expect(isDomainError(refused) && { code: refused.code, message: refused.message, field: refused.field }).toEqual({
        code: "FORBIDDEN",
        message: why,
        field: "action",
      });
      expect((await opened.repos.cfbs.get(target.cfb_id))?.version).toBe(1);
      expect((await getProposal(opened.as(user), { proposal_id: id })).status).toBe("pending");

      // A Jam editor is warned, may approve, and the CFB keeps what made it curated.
      const forJam = (await getProposal(opened.as(jam), { proposal_id: id })).actions;
      expect(forJam.allowed).toContain("approve_update");
      expect(forJam.protection?.note).toBe(
        `${target.cfb_id} is ${curated.what}: approving changes curated knowledge, which keeps its kind and trust tier.`,
      );
      const landed = await promoteProposal(opened.as(jam), {
        proposal_id: id,
        action: "approve_update",
        expected_cfb_version: 1,
      });
      expect(landed.cfb).toMatchObject({ version: 2, ...curated.draft });
      expect(landed.cfb?.text).toContain("Audit logs are kept for a year.");
    });
  }

  it("a user still approves updates of knowledge that is not curated, with no note", async () => {
    const plain = await create({ title: "Lunch rota", summary: "Lunch orders close at 11:00." });
    const { id, previewed } = await propose(updateOf(plain.cfb_id, "Lunch rota", "Friday orders close at 10:30."));
    expect(previewed).toMatchObject({ primary: "approve_update", protection: null });
    const res = await promoteProposal(opened.as(user), { proposal_id: id, action: "approve_update" });
    expect(res.cfb?.version).toBe(2);
  });
});
