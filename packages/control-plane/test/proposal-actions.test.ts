// The allowed actions every proposal carries (ZProposalActions) against what promote does, on a
// real SQLite file: for each kind of proposal and each role, every action the contract allows
// succeeds (landing on the CFB it names) and every action it withholds is refused with the code
// and message it gives. The queue's actions (from the stored decision) equal the page's (resolve
// run again) while nothing moves in between.
import {
  isDomainError,
  type TCfbDraft,
  type TPromoteAction,
  type TPromoteRequest,
  type TProposalActions,
  ZProposalListRequest,
} from "@solserver/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getProposal, listProposals, parseInput, promoteProposal, respondToTurn } from "../src/index";
import { openTestControlPlane, scriptedModel, type TTestActor, type TTestSuggestion, testCfb } from "../src/testing";

let next: TTestSuggestion[] = [];
const scripted = scriptedModel(() => ({ suggestions: next.map((s) => ({ ...s, confidence: 0.8 })) }));

let opened: Awaited<ReturnType<typeof openTestControlPlane>>;
let user: TTestActor;
let jam: TTestActor;
let turns = 0;
let instances = 0;

beforeAll(async () => {
  opened = await openTestControlPlane({
    label: "proposal-actions",
    model: scripted,
    limits: { chatTurnsPerMinute: 1e6 },
  });
  user = await opened.account("user");
  jam = await opened.account("jam");
});
afterAll(async () => opened?.close());

/**
 * Made-up words no other scenario uses: each scenario's CFBs share no term with another's, so
 * resolve never matches one to another (an approve_create in one would otherwise turn the next
 * one's "create" into a "review").
 */
function vocabulary(): [string, string, string, string, string, string, string] {
  let n = ++instances;
  let suffix = "";
  do {
    suffix += String.fromCharCode(97 + (n % 26));
    n = Math.floor(n / 26);
  } while (n > 0);
  return ["zor", "vel", "quam", "tish", "bron", "mef", "gald"].map((stem) => `${stem}${suffix}x`) as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
}

const cfb = (title: string, summary: string, tags: string[], curated: Partial<TCfbDraft> = {}) =>
  opened.repos.cfbs.create(
    testCfb({ title, summary, tags, entities: [], text: "Kept.", source_refs: ["file:x.md"], ...curated }),
  );

/** The actions each proposal's chat answer gave the thread's user. */
const previewed = new Map<string, TProposalActions>();

/** A pending proposal of the thread's user from one scripted suggestion; its id. */
async function propose(s: TTestSuggestion): Promise<string> {
  next = [s];
  const res = await respondToTurn(opened.as(user), { request_id: `actions-${++turns}`, message: "We decided." });
  const preview = res.ui_hints.proposal_previews[0];
  if (!preview) throw new Error("the scripted turn proposed nothing");
  previewed.set(preview.proposal_id, preview.actions);
  return preview.proposal_id;
}

/**
 * Two near-identical CFBs (only a tag apart) and a proposal that resolve pairs them for, as a
 * merge; the second may be curated knowledge.
 */
async function mergeProposal([a, b, c, d, e, f, g]: ReturnType<typeof vocabulary>, partner: Partial<TCfbDraft> = {}) {
  const first = await cfb(`${a} ${b}`, `The ${a} ${b} lives in ${c} ${d}.`, [e, f]);
  await cfb(`${a} ${b}`, `The ${a} ${b} lives in ${c} ${d}.`, [e, g], partner);
  const suggestion: TTestSuggestion = {
    op: "merge",
    target_cfb_id: first.cfb_id,
    title: `${a} ${b}`,
    delta_summary: `The ${a} ${b} lives in ${c} ${d}.`,
    tags: [e],
    entities: [],
  };
  return { id: await propose(suggestion), suggestion };
}

type TScenario = {
  name: string;
  /** A fresh instance of the scenario: a pending (or decided) proposal; its id. */
  setup: () => Promise<string>;
  /** What the contract must allow, by role, in the seed's order. */
  allowed: Record<"user" | "jam", TPromoteAction[]>;
};

const SCENARIOS: TScenario[] = [
  {
    name: "a create nothing in the knowledge base covers",
    setup: () => {
      const [a, b, c, d] = vocabulary();
      return propose({
        op: "create",
        title: `${a} ${b} ${c}`,
        delta_summary: `The ${a} ${b} runs every ${c}.`,
        tags: [d],
        entities: [],
      });
    },
    allowed: { user: ["approve_create", "reject"], jam: ["approve_create", "reject", "edit_then_approve"] },
  },
  {
    name: "a create that restates a CFB",
    setup: async () => {
      const [a, b, c, d, e] = vocabulary();
      await cfb(`${a} ${b} ${c}`, `The ${a} ${b} runs every ${c} in ${d}.`, [e]);
      return propose({
        op: "create",
        title: `${a} ${b} ${c}`,
        delta_summary: `The ${a} ${b} runs every ${c} in ${d}.`,
        tags: [e],
        entities: [],
      });
    },
    allowed: {
      user: ["approve_create", "approve_update", "reject"],
      jam: ["approve_create", "approve_update", "reject", "edit_then_approve"],
    },
  },
  {
    name: "an update of a named CFB",
    setup: async () => {
      const [a, b, c, d, e] = vocabulary();
      const target = await cfb(`${a} ${b}`, `The ${a} ${b} runs every ${c}.`, [e]);
      return propose({
        op: "update",
        target_cfb_id: target.cfb_id,
        title: `${a} ${b}`,
        delta_summary: `The ${a} ${b} runs every ${c} and ${d}.`,
        tags: [e],
        entities: [],
      });
    },
    allowed: { user: ["approve_update", "reject"], jam: ["approve_update", "reject", "edit_then_approve"] },
  },
  {
    name: "an update naming a CFB that does not exist",
    setup: () => {
      const [a, b, c, d] = vocabulary();
      return propose({
        op: "update",
        target_cfb_id: "CFB-99999",
        title: `${a} ${b}`,
        delta_summary: `The ${a} ${b} runs every ${c}.`,
        tags: [d],
        entities: [],
      });
    },
    allowed: { user: ["approve_create", "reject"], jam: ["approve_create", "reject", "edit_then_approve"] },
  },
  {
    name: "a merge of two near-identical CFBs",
    setup: async () => (await mergeProposal(vocabulary())).id,
    allowed: { user: ["approve_update", "reject"], jam: ["approve_update", "reject", "edit_then_approve"] },
  },
  {
    name: "an update naming a CFB merged into another",
    setup: async () => {
      const v = vocabulary();
      const merge = await mergeProposal(v);
      const merged = await promoteProposal(opened.as(user), { proposal_id: merge.id, action: "approve_update" });
      if (!merged.merged_cfb_id) throw new Error("the scenario's merge did not merge");
      return propose({ ...merge.suggestion, op: "update", target_cfb_id: merged.merged_cfb_id });
    },
    allowed: { user: ["approve_update", "reject"], jam: ["approve_update", "reject", "edit_then_approve"] },
  },
  {
    // Curated knowledge (issue 19): only a Jam editor may change it.
    name: "an update of an authoritative CFB",
    setup: async () => {
      const [a, b, c, d, e] = vocabulary();
      const target = await cfb(`${a} ${b}`, `The ${a} ${b} runs every ${c}.`, [e], { kind: "authoritative" });
      return propose({
        op: "update",
        target_cfb_id: target.cfb_id,
        title: `${a} ${b}`,
        delta_summary: `The ${a} ${b} runs every ${c} and ${d}.`,
        tags: [e],
        entities: [],
      });
    },
    allowed: { user: ["reject"], jam: ["approve_update", "reject", "edit_then_approve"] },
  },
  {
    name: "a create that restates a repository ADR (repo_adr)",
    setup: async () => {
      const [a, b, c, d, e] = vocabulary();
      await cfb(`${a} ${b} ${c}`, `The ${a} ${b} runs every ${c} in ${d}.`, [e], { trust_tier: "repo_adr" });
      return propose({
        op: "create",
        title: `${a} ${b} ${c}`,
        delta_summary: `The ${a} ${b} runs every ${c} in ${d}.`,
        tags: [e],
        entities: [],
      });
    },
    allowed: {
      user: ["approve_create", "reject"],
      jam: ["approve_create", "approve_update", "reject", "edit_then_approve"],
    },
  },
  {
    name: "a merge that folds in a repository ADR (repo_adr)",
    setup: async () => (await mergeProposal(vocabulary(), { trust_tier: "repo_adr" })).id,
    allowed: { user: ["reject"], jam: ["approve_update", "reject", "edit_then_approve"] },
  },
  {
    name: "a proposal already decided",
    setup: async () => {
      const [a, b, c] = vocabulary();
      const id = await propose({
        op: "create",
        title: `${a} ${b}`,
        delta_summary: `The ${a} is ${b}.`,
        tags: [c],
        entities: [],
      });
      await promoteProposal(opened.as(user), { proposal_id: id, action: "reject" });
      return id;
    },
    allowed: { user: [], jam: [] },
  },
];

/** The request a reviewer's button sends for `action` (as the contract probes it). */
function request(proposalId: string, action: TPromoteAction, actions: TProposalActions): TPromoteRequest {
  const updates = action === "approve_update" || (action === "edit_then_approve" && actions.edit === "update");
  return {
    proposal_id: proposalId,
    action,
    ...(action === "edit_then_approve" ? { editorial_overrides: {} } : {}),
    ...(updates && actions.update ? { expected_cfb_version: actions.update.version } : {}),
  };
}

/** The actions of one proposal as the page (resolve again) and the queue (stored decision) give them. */
async function actionsOf(actor: TTestActor, proposalId: string) {
  const current = await getProposal(opened.as(actor), { proposal_id: proposalId });
  const page = await listProposals(
    opened.as(actor),
    parseInput(ZProposalListRequest, { response_id: current.response_id }),
  );
  const stored = page.items.find((p) => p.proposal_id === proposalId)?.actions;
  return { current: current.actions, stored };
}

describe("a proposal's allowed actions agree with promote", () => {
  for (const scenario of SCENARIOS) {
    for (const role of ["user", "jam"] as const) {
      it(`${scenario.name}, as ${role === "jam" ? "a Jam editor" : "the thread's user"}`, async () => {
        const actor = role === "jam" ? jam : user;
        const first = await scenario.setup();
        const { current, stored } = await actionsOf(actor, first);
        expect(current.allowed).toEqual(scenario.allowed[role]);
        expect(current.basis).toBe("current");
        // Nothing moved since resolve stored its decision: the queue says what the page says, and
        // the chat answer said the same to the thread's user.
        expect(stored).toEqual({ ...current, basis: "stored" });
        if (role === "user" && current.allowed.length > 0) expect(previewed.get(first)).toEqual(stored);
        expect(current.primary).toBe(
          current.allowed.find((a) => a === "approve_create") ??
            current.allowed.find((a) => a === "approve_update") ??
            null,
        );
        expect(current.edit !== null).toBe(current.allowed.includes("edit_then_approve"));
        expect(current.update !== null).toBe(current.allowed.includes("approve_update"));
        // A protected target is said whether or not this caller may change it.
        const curated = scenario.name.includes("authoritative") || scenario.name.includes("repo_adr");
        expect(current.protection !== null).toBe(curated);
        expect(current.unavailable.map((u) => u.action).sort()).toEqual(
          (["approve_create", "approve_update", "reject", "edit_then_approve"] as const)
            .filter((a) => !current.allowed.includes(a))
            .sort(),
        );

        // Every action withheld is refused, with the contract's code and reason, and writes nothing.
        for (const { action, code, reason } of current.unavailable) {
          const refused = await promoteProposal(opened.as(actor), request(first, action, current)).catch(
            (e: unknown) => e,
          );
          expect(isDomainError(refused) ? { action, code: refused.code, reason: refused.message } : refused).toEqual({
            action,
            code,
            reason,
          });
        }
        const still = await getProposal(opened.as(actor), { proposal_id: first });
        expect(still.status).toBe(scenario.allowed[role].length > 0 ? "pending" : "rejected");

        // Every action allowed succeeds, each on a fresh instance (the first one for the first action),
        // and lands where the contract says.
        for (const [i, action] of current.allowed.entries()) {
          const id = i === 0 ? first : await scenario.setup();
          const actions = i === 0 ? current : (await actionsOf(actor, id)).current;
          expect(actions.allowed).toEqual(current.allowed);
          const res = await promoteProposal(opened.as(actor), request(id, action, actions));
          expect(res.status).toBe(action === "reject" ? "rejected" : "approved");
          if (action === "approve_update" || (action === "edit_then_approve" && actions.edit === "update")) {
            expect(res.final_cfb_id).toBe(actions.update?.cfb_id);
            expect(res.merged_cfb_id).toBe(actions.update?.merge_cfb_id);
          } else if (action !== "reject") {
            expect(res.final_cfb_id).not.toBe(actions.update?.cfb_id);
            expect(res.cfb?.version).toBe(1);
          }
        }
      });
    }
  }
});

describe("the contract's details", () => {
  it("names the survivor of a merge as the update's target, and a merge's partner", async () => {
    const merge = SCENARIOS.find((s) => s.name.startsWith("a merge"));
    const mergedInto = SCENARIOS.find((s) => s.name.includes("merged into"));
    const pair = (await actionsOf(user, await (merge as TScenario).setup())).current.update;
    expect(pair?.merge_cfb_id).toMatch(/^CFB-\d+$/);
    expect(pair?.merge_cfb_id).not.toBe(pair?.cfb_id);
    const moved = await getProposal(opened.as(user), { proposal_id: await (mergedInto as TScenario).setup() });
    // The proposal names the merged CFB; the update lands on the CFB that holds it now.
    expect(moved.actions.update?.cfb_id).not.toBe(moved.target_cfb_id);
    expect((await opened.repos.cfbs.get(moved.target_cfb_id as string))?.merged_into_cfb_id).toBe(
      moved.actions.update?.cfb_id,
    );
  });

  it("says why, in promote's words: a user may not edit, a decided proposal is a conflict", async () => {
    const fresh = await (SCENARIOS[0] as TScenario).setup();
    const { current } = await actionsOf(user, fresh);
    expect(current.unavailable.find((u) => u.action === "edit_then_approve")).toEqual({
      action: "edit_then_approve",
      code: "FORBIDDEN",
      reason: "only Jam editors may edit_then_approve",
    });
    await promoteProposal(opened.as(user), { proposal_id: fresh, action: "reject" });
    const decided = (await actionsOf(jam, fresh)).current;
    expect(decided).toMatchObject({ allowed: [], primary: null, update: null, edit: null });
    expect(decided.unavailable.map((u) => u.code)).toEqual(["CONFLICT", "CONFLICT", "CONFLICT", "CONFLICT"]);
    expect(decided.unavailable[0]?.reason).toMatch(
      new RegExp(`^proposal ${fresh} was already rejected by ${user.email} at \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC`),
    );
  });
});
