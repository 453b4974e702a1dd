// Visibility (issue 19: "A user approved their own proposal; the CFB was then injected into other
// people's answers 24 times"), through the services on a real SQLite file with scripted proposals:
//  - a user's approval is private to them: their next turn retrieves it, another user's never
//    does (nor a Jam editor's own thread), whoever answers in the owner's thread does;
//  - resolve of another user's proposal never targets it (not at the turn, not on the proposal
//    page, not at promotion, not when the model names it), the owner's restatement does;
//  - a Jam editor's approval and authoring are shared at once; one click endorses a private CFB
//    into shared knowledge, audited, as a new version; users may not, a stale version may not;
//  - the knowledge browser (list, get, activity) shows a user the shared CFBs and their own, a Jam
//    editor every one with its owner;
//  - a merge never folds shared knowledge into a private CFB (nor the reverse);
//  - another process's candidate index follows an endorse through the change log, no rebuild;
//  - semantic matching (the test embedder) finds a private CFB by meaning for its owner only, even
//    when other users' private CFBs are nearer than the shared one asked for.
import { type DomainError, isDomainError, type TChatRespondResponse } from "@solserver/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openControlPlane } from "../src/control-plane";
import { createOpenAICompatibleEmbeddings } from "../src/embeddings/openai-embeddings";
import {
  createCfb,
  endorseCfb,
  getCfb,
  getCfbActivity,
  getProposal,
  listCfbs,
  mergeCfbs,
  promoteProposal,
  respondToTurn,
  reviewProposal,
} from "../src/index";
import { proposalText, resolveCandidates } from "../src/knowledge/resolve-candidates";
import { findUpdateTarget, type TCfbRef } from "../src/proposals/promotion-check";
import type { TServiceContext } from "../src/services/context";
import {
  openTestControlPlane,
  scriptedModel,
  startTestEmbedder,
  type TScriptedAnswer,
  type TTestActor,
  type TTestSuggestion,
  testCfb,
  testEmbedding,
} from "../src/testing";

let next: TScriptedAnswer = { suggestions: [] };
const model = scriptedModel(() => {
  const answer = next;
  next = { suggestions: [] };
  return answer;
});

type TOpened = Awaited<ReturnType<typeof openTestControlPlane>>;
let opened: TOpened;
let alice: TTestActor;
let bob: TTestActor;
let jam: TTestActor;

const ZORBLAX: TTestSuggestion = {
  op: "create",
  target_cfb_id: undefined,
  title: "Zorblax signing keys rotate every 30 days",
  delta_summary: "The Zorblax signing keys are rotated every 30 days by the platform team.",
  tags: ["zorblax", "signing-keys"],
  entities: ["Zorblax"],
};
const QUESTION = "How often are the Zorblax signing keys rotated?";

let requestN = 0;
/** A turn of `actor` (in `threadId`, else a new thread) that proposes `suggestion`, if any. */
async function turn(
  ctx: TServiceContext,
  message: string,
  suggestion?: TTestSuggestion,
  threadId?: string,
): Promise<TChatRespondResponse> {
  next = { suggestions: suggestion ? [{ ...suggestion, confidence: 0.8 }] : [] };
  return respondToTurn(ctx, {
    request_id: `vis-${++requestN}`,
    message,
    ...(threadId ? { thread_id: threadId } : {}),
  });
}

/** The proposal a turn made. */
const proposalOf = (res: TChatRespondResponse) => res.ui_hints.proposal_previews[0]?.proposal_id as string;

/** The CFB ids a turn injected, from its trace's retrieval event. */
async function injected(o: TOpened, res: TChatRespondResponse): Promise<string[]> {
  const events = await o.repos.traces.forTransmission(res.transmission_id);
  const retrieval = events.find((e) => e.phase === "retrieval");
  return ((retrieval?.metadata as { cfbs?: { cfb_id: string }[] } | undefined)?.cfbs ?? []).map((c) => c.cfb_id);
}

/** The CFB ids resolve scored for a proposal (as stored, or as a promotion now would). */
const scored = (p: { resolve: { scores: { cfb_id: string }[] } | null }) =>
  (p.resolve?.scores ?? []).map((s) => s.cfb_id);

async function refusal(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!isDomainError(error)) throw new Error(`expected a DomainError, got ${String(error)}`);
  return error;
}

/** Alice approves her own proposal of `suggestion`: the CFB it wrote. */
async function alicesCfb(suggestion: TTestSuggestion = ZORBLAX) {
  const res = await turn(opened.as(alice), "We decided this.", suggestion);
  const promoted = await promoteProposal(opened.as(alice), { proposal_id: proposalOf(res), action: "approve_create" });
  if (!promoted.cfb) throw new Error("approve_create wrote no CFB");
  return promoted.cfb;
}

beforeAll(async () => {
  opened = await openTestControlPlane({ label: "cfb-visibility", model, limits: { chatTurnsPerMinute: 1000 } });
  [alice, bob, jam] = await Promise.all([opened.account("user"), opened.account("user"), opened.account("jam")]);
});
afterAll(async () => opened?.close());

describe("a user's approval is private to them", () => {
  let cfbId: string;

  beforeAll(async () => {
    cfbId = (await alicesCfb()).cfb_id;
  });

  it("is written private to the approver, says so on the wire, and is retrieved in their next turn", async () => {
    const cfb = await getCfb(opened.as(alice), { cfb_id: cfbId });
    expect(cfb).toMatchObject({ visibility: "private", private_to: alice.email, trust_tier: "user_approved" });
    const res = await turn(opened.as(alice), QUESTION);
    expect(await injected(opened, res)).toContain(cfbId);
  });

  it("is never retrieved in another user's thread, nor in a Jam editor's own", async () => {
    expect(await injected(opened, await turn(opened.as(bob), QUESTION))).not.toContain(cfbId);
    const bobsThread = (await turn(opened.as(bob), "Hello there.")).thread_id;
    expect(await injected(opened, await turn(opened.as(bob), QUESTION, undefined, bobsThread))).not.toContain(cfbId);
    // A Jam editor answering in Bob's thread, or in their own: still Bob's scope, or the shared one.
    expect(await injected(opened, await turn(opened.as(jam), QUESTION, undefined, bobsThread))).not.toContain(cfbId);
    expect(await injected(opened, await turn(opened.as(jam), QUESTION))).not.toContain(cfbId);
  });

  it("is retrieved in the owner's thread whoever sends the turn (a Jam editor there)", async () => {
    const alicesThread = (await turn(opened.as(alice), "Hello.")).thread_id;
    expect(await injected(opened, await turn(opened.as(jam), QUESTION, undefined, alicesThread))).toContain(cfbId);
  });

  it("the owner's own restatement resolves against it and may update it (it stays private)", async () => {
    const res = await turn(opened.as(alice), "We decided this.", {
      ...ZORBLAX,
      delta_summary: "The Zorblax signing keys are rotated every 30 days by the platform team, on Mondays.",
    });
    const proposal = await getProposal(opened.as(alice), { proposal_id: proposalOf(res) });
    expect(proposal.resolve?.target_cfb_id).toBe(cfbId);
    expect(proposal.actions.update?.cfb_id).toBe(cfbId);
    const promoted = await promoteProposal(opened.as(alice), {
      proposal_id: proposal.proposal_id,
      action: "approve_update",
    });
    expect(promoted.final_cfb_id).toBe(cfbId);
    expect(promoted.cfb).toMatchObject({ visibility: "private", private_to: alice.email, version: 2 });
  });

  it("another user's restatement never resolves against it: not at the turn, the review or the promotion", async () => {
    const res = await turn(opened.as(bob), "We decided this.", ZORBLAX);
    const proposalId = proposalOf(res);
    const asBob = await getProposal(opened.as(bob), { proposal_id: proposalId });
    expect(asBob.resolve?.decision).toBe("create");
    expect(scored(asBob)).not.toContain(cfbId);
    // A Jam editor reviewing Bob's proposal sees it in Bob's scope too.
    const review = await reviewProposal(opened.as(jam), { proposal_id: proposalId });
    expect(review.preview.update).toBeNull();
    expect(review.proposal.actions.update).toBeNull();
    expect(scored(review.proposal)).not.toContain(cfbId);
    const promoted = await promoteProposal(opened.as(jam), { proposal_id: proposalId, action: "approve_create" });
    expect(promoted.final_cfb_id).not.toBe(cfbId);
    // The Jam editor's approval of Bob's proposal is shared at once.
    expect(promoted.cfb).toMatchObject({ visibility: "shared", private_to: null });
  });

  it("a model naming another user's private CFB as the target gets target_cfb_missing; it is never updated", async () => {
    const res = await turn(opened.as(bob), "We decided this.", {
      ...ZORBLAX,
      op: "update",
      target_cfb_id: cfbId,
      title: "Zorblax keys",
    });
    const proposal = await getProposal(opened.as(bob), { proposal_id: proposalOf(res) });
    expect(proposal.warnings).toContain("target_cfb_missing");
    expect(proposal.actions.allowed).toContain("approve_create");
    // Resolve may still find a shared CFB to update (the Jam-approved twin above): never Alice's.
    expect(proposal.actions.update?.cfb_id).not.toBe(cfbId);
    const promoted = await promoteProposal(opened.as(bob), {
      proposal_id: proposal.proposal_id,
      action: proposal.actions.primary ?? "approve_create",
    });
    expect(promoted.final_cfb_id).not.toBe(cfbId);
    expect((await getCfb(opened.as(alice), { cfb_id: cfbId })).version).toBe(2);
  });
});

describe("Jam editors: shared at once, and one click endorses", () => {
  it("a CFB a Jam editor authors, or approves from their own thread, is shared", async () => {
    const authored = await createCfb(
      opened.as(jam),
      testCfb({ title: "Jam authored visibility", summary: "Authored by a Jam editor." }),
    );
    expect(authored).toMatchObject({ visibility: "shared", private_to: null });
    const res = await turn(opened.as(jam), "We decided this.", { ...ZORBLAX, title: "Quibbler rota is weekly" });
    const promoted = await promoteProposal(opened.as(jam), { proposal_id: proposalOf(res), action: "approve_create" });
    expect(promoted.cfb).toMatchObject({ visibility: "shared" });
  });

  it("endorses a private CFB: shared from the next turn on, a new version with its revision, audited", async () => {
    const suggestion = {
      ...ZORBLAX,
      title: "Plumbus backups run at 03:00",
      delta_summary: "The Plumbus database backups run nightly at 03:00 UTC.",
      tags: ["plumbus", "backups"],
      entities: ["Plumbus"],
    };
    const cfb = await alicesCfb(suggestion);
    const question = "When do the Plumbus database backups run?";
    expect(await injected(opened, await turn(opened.as(bob), question))).not.toContain(cfb.cfb_id);
    expect((await getCfb(opened.as(jam), { cfb_id: cfb.cfb_id })).actions.allowed).toContain("endorse");
    expect((await getCfb(opened.as(alice), { cfb_id: cfb.cfb_id })).actions.allowed).not.toContain("endorse");

    const endorsed = await endorseCfb(opened.as(jam), { cfb_id: cfb.cfb_id, version: 1 });
    expect(endorsed).toMatchObject({ visibility: "shared", private_to: null, version: 2, title: cfb.title });

    // Shared: Bob's next turn retrieves it, and his restatement resolves against it.
    expect(await injected(opened, await turn(opened.as(bob), question))).toContain(cfb.cfb_id);
    const bobs = await getProposal(opened.as(bob), {
      proposal_id: proposalOf(await turn(opened.as(bob), "We decided this.", suggestion)),
    });
    expect(bobs.resolve?.target_cfb_id).toBe(cfb.cfb_id);

    const detail = await getCfb(opened.as(bob), { cfb_id: cfb.cfb_id });
    expect(detail.actions.allowed).not.toContain("endorse");
    expect(detail.revisions[0]).toMatchObject({
      version: 2,
      change_kind: "endorse",
      changes: [
        { field: "visibility", before: "private", after: "shared" },
        { field: "private_to", before: alice.email, after: null },
      ],
    });
    const audit = await opened.repos.audit.list({ targetType: "cfb", targetId: cfb.cfb_id, limit: 10 });
    expect(audit.items[0]).toMatchObject({
      action: "cfb.endorse",
      actor_email: jam.email,
      details: { version: 2, was_private_to: alice.email },
    });
  });

  it("refuses a user (FORBIDDEN), a stale version, a shared CFB (CONFLICT) and an unknown one (NOT_FOUND)", async () => {
    const cfb = await alicesCfb({ ...ZORBLAX, title: "Gazorpazorp invoices are monthly", tags: ["gazorpazorp"] });
    expect((await refusal(endorseCfb(opened.as(alice), { cfb_id: cfb.cfb_id, version: 1 }))).code).toBe("FORBIDDEN");
    const stale = await refusal(endorseCfb(opened.as(jam), { cfb_id: cfb.cfb_id, version: 7 }));
    expect(stale).toMatchObject({ code: "CONFLICT", field: "version" });
    expect((await getCfb(opened.as(jam), { cfb_id: cfb.cfb_id })).visibility).toBe("private");
    await endorseCfb(opened.as(jam), { cfb_id: cfb.cfb_id, version: 1 });
    const again = await refusal(endorseCfb(opened.as(jam), { cfb_id: cfb.cfb_id, version: 2 }));
    expect(again).toMatchObject({ code: "CONFLICT", message: `CFB ${cfb.cfb_id} is already shared` });
    expect((await refusal(endorseCfb(opened.as(jam), { cfb_id: "CFB-9999", version: 1 }))).code).toBe("NOT_FOUND");
    // One endorse landed: one audit event, version 2.
    const audit = await opened.repos.audit.list({ targetType: "cfb", targetId: cfb.cfb_id, limit: 10 });
    expect(audit.items.filter((e) => e.action === "cfb.endorse")).toHaveLength(1);
    expect((await getCfb(opened.as(jam), { cfb_id: cfb.cfb_id })).version).toBe(2);
  });
});

describe("the knowledge browser", () => {
  let alices: string;
  let bobs: string;
  let shared: string;

  beforeAll(async () => {
    alices = (await alicesCfb({ ...ZORBLAX, title: "Browser check: Alice's", tags: ["browsercheck"] })).cfb_id;
    const res = await turn(opened.as(bob), "We decided this.", {
      ...ZORBLAX,
      title: "Browser check: Bob's",
      tags: ["browsercheck"],
    });
    bobs = (await promoteProposal(opened.as(bob), { proposal_id: proposalOf(res), action: "approve_create" }))
      .final_cfb_id as string;
    shared = (
      await createCfb(
        opened.as(jam),
        testCfb({ title: "Browser check: shared", summary: "Shared knowledge.", tags: ["browsercheck"] }),
      )
    ).cfb_id;
  });

  const listed = async (ctx: TServiceContext, visibility?: "shared" | "private") =>
    (await listCfbs(ctx, { state: "live", limit: 100, query: "browser check", ...(visibility ? { visibility } : {}) }))
      .items;

  it("lists a user's own private CFBs and the shared ones, never another user's", async () => {
    expect((await listed(opened.as(alice))).map((c) => c.cfb_id).sort()).toEqual([alices, shared].sort());
    expect((await listed(opened.as(bob))).map((c) => c.cfb_id).sort()).toEqual([bobs, shared].sort());
    expect((await listed(opened.as(alice), "private")).map((c) => c.cfb_id)).toEqual([alices]);
    expect((await listed(opened.as(alice), "shared")).map((c) => c.cfb_id)).toEqual([shared]);
  });

  it("lists every CFB to a Jam editor, each private one with its owner; the private filter finds those to endorse", async () => {
    const all = await listed(opened.as(jam));
    expect(all.map((c) => [c.cfb_id, c.visibility, c.private_to]).sort()).toEqual(
      [
        [alices, "private", alice.email],
        [bobs, "private", bob.email],
        [shared, "shared", null],
      ].sort(),
    );
    expect((await listed(opened.as(jam), "private")).map((c) => c.cfb_id).sort()).toEqual([alices, bobs].sort());
  });

  it("a CFB's page and activity: FORBIDDEN for another user's private CFB, naming only the id", async () => {
    const forbidden = await refusal(getCfb(opened.as(bob), { cfb_id: alices }));
    expect(forbidden).toMatchObject({ code: "FORBIDDEN", message: `you may not access CFB ${alices}` });
    const activity = await refusal(getCfbActivity(opened.as(bob), { cfb_id: alices, days: 7 }));
    expect(activity.code).toBe("FORBIDDEN");
    expect((await getCfb(opened.as(alice), { cfb_id: alices })).cfb_id).toBe(alices);
    expect((await getCfb(opened.as(jam), { cfb_id: alices })).private_to).toBe(alice.email);
    expect((await getCfbActivity(opened.as(alice), { cfb_id: alices, days: 7 })).cfb_id).toBe(alices);
    expect((await refusal(getCfb(opened.as(bob), { cfb_id: "CFB-9999" }))).code).toBe("NOT_FOUND");
  });
});

describe("a merge keeps visibility apart", () => {
  const ref = (cfb_id: string, visibility: "shared" | "private"): TCfbRef => ({
    cfb_id,
    title: cfb_id,
    version: 1,
    merged_into_cfb_id: null,
    retired_ts: null,
    visibility,
    kind: "heuristic",
    trust_tier: "user_approved",
  });
  const cfbs = new Map([
    ["CFB-0001", ref("CFB-0001", "shared")],
    ["CFB-0002", ref("CFB-0002", "private")],
    ["CFB-0003", ref("CFB-0003", "shared")],
    ["CFB-0004", ref("CFB-0004", "private")],
  ]);
  const get = async (id: string) => cfbs.get(id) ?? null;
  const target = (targetId: string, pair: string[]) =>
    findUpdateTarget(
      get,
      { target_cfb_id: null, warnings: [] },
      { decision: "merge", target_cfb_id: targetId, merge_cfb_ids: pair },
    );

  it("folds a pair of the same visibility, and only updates the target of a mixed pair", async () => {
    expect((await target("CFB-0001", ["CFB-0001", "CFB-0003"]))?.merged?.cfb_id).toBe("CFB-0003");
    expect((await target("CFB-0002", ["CFB-0002", "CFB-0004"]))?.merged?.cfb_id).toBe("CFB-0004");
    // Shared knowledge is never folded into a private CFB, nor a private one into shared knowledge.
    expect(await target("CFB-0002", ["CFB-0002", "CFB-0001"])).toEqual({ target: cfbs.get("CFB-0002"), merged: null });
    expect(await target("CFB-0001", ["CFB-0001", "CFB-0002"])).toEqual({ target: cfbs.get("CFB-0001"), merged: null });
  });
});

describe("a Jam editor's merge keeps visibility apart too", () => {
  it("refuses shared knowledge folded into a private CFB, and merges a private one into shared", async () => {
    const suggestion = {
      ...ZORBLAX,
      title: "Quazzle builds cache for a day",
      delta_summary: "Quazzle build caches are kept for 24 hours.",
      tags: ["quazzle"],
      entities: ["Quazzle"],
    };
    const mine = await alicesCfb(suggestion);
    const shared = await createCfb(
      opened.as(jam),
      testCfb({ title: "Quazzle caches", summary: "Quazzle caches are shared.", tags: ["quazzle"] }),
    );
    const folded = await refusal(
      mergeCfbs(opened.as(jam), { cfb_id: mine.cfb_id, version: 1, merge_cfb_id: shared.cfb_id, merge_version: 1 }),
    );
    expect(folded).toMatchObject({ code: "CONFLICT", field: "merge_cfb_id" });
    expect(folded.message).toContain(`endorse ${mine.cfb_id} first`);
    // Nothing was written: both still at version 1, both live.
    expect((await getCfb(opened.as(jam), { cfb_id: shared.cfb_id })).merged_into_cfb_id).toBeNull();
    const merged = await mergeCfbs(opened.as(jam), {
      cfb_id: shared.cfb_id,
      version: 1,
      merge_cfb_id: mine.cfb_id,
      merge_version: 1,
    });
    expect(merged).toMatchObject({ merged_cfb_id: mine.cfb_id, cfb: { visibility: "shared", version: 2 } });
  });
});

describe("another process's candidate index", () => {
  it("follows an endorse through the change log: the CFB is retrieved in another user's turn, no rebuild", async () => {
    const suggestion = {
      ...ZORBLAX,
      title: "Froopyland deploys freeze on Fridays",
      delta_summary: "Froopyland deploys are frozen every Friday after noon.",
      tags: ["froopyland", "deploys"],
      entities: ["Froopyland"],
    };
    const cfb = await alicesCfb(suggestion);
    const question = "Can we deploy Froopyland on Friday afternoon?";
    // A second control plane on the same file: its own client, its own candidate index.
    const other = await openControlPlane({
      databaseUrl: opened.database.url,
      model,
      limits: { chatTurnsPerMinute: 1000 },
    });
    try {
      const asBob = { deps: other.deps, caller: bob };
      const before = await turn(asBob, question);
      expect(await injected(opened, before)).not.toContain(cfb.cfb_id);
      const built = other.repos.cfbs.index.status();
      expect(built.documents).toBeGreaterThan(0);

      await endorseCfb(opened.as(jam), { cfb_id: cfb.cfb_id, version: cfb.version });

      const after = await turn(asBob, question);
      expect(await injected(opened, after)).toContain(cfb.cfb_id);
      const status = other.repos.cfbs.index.status();
      expect(status.rebuilds).toBe(built.rebuilds);
      expect(status.appliedChanges).toBeGreaterThan(built.appliedChanges);
    } finally {
      await other.db.$disconnect();
    }
  });
});

describe("resolve's candidates, scoped", () => {
  it("a proposal in a thread from before accounts resolves against shared CFBs only", async () => {
    const cfb = await alicesCfb({ ...ZORBLAX, title: "Schwifty tokens expire hourly", tags: ["schwifty"] });
    const query = { terms: ["schwifty", "token", "expir", "hourli"] };
    const ids = async (visibleTo?: string | null) =>
      (await opened.repos.cfbs.candidates(query, { limit: 20, visibleTo })).map((c) => c.cfb_id);
    expect(await ids(alice.userId)).toContain(cfb.cfb_id);
    expect(await ids(bob.userId)).not.toContain(cfb.cfb_id);
    expect(await ids(null)).not.toContain(cfb.cfb_id);
    expect(await ids()).not.toContain(cfb.cfb_id);
    expect(
      (await opened.repos.cfbs.index.candidatesByIds([cfb.cfb_id], { visibleTo: bob.userId })).map((c) => c.cfb_id),
    ).toEqual([]);
    expect(
      (await opened.repos.cfbs.index.candidatesByIds([cfb.cfb_id], { visibleTo: alice.userId })).map((c) => c.cfb_id),
    ).toEqual([cfb.cfb_id]);
  });
});

describe("semantic matching, scoped", () => {
  const VACATION: TTestSuggestion = {
    op: "create",
    target_cfb_id: undefined,
    title: "Unlimited vacation",
    delta_summary: "Vacation is unlimited.",
    tags: [],
    entities: [],
  };

  it("finds a private CFB by meaning for its owner only: in turns, in resolve and in nearest()", async () => {
    const embedder = await startTestEmbedder();
    const sem = await openTestControlPlane({
      label: "cfb-visibility-semantic",
      model,
      limits: { chatTurnsPerMinute: 1000 },
      embeddings: createOpenAICompatibleEmbeddings({ baseUrl: embedder.url, model: "test-embed", timeoutMs: 5000 }),
    });
    try {
      const [owner, other, editor] = await Promise.all([sem.account("user"), sem.account("user"), sem.account("jam")]);
      const approve = async (actor: TTestActor, suggestion: TTestSuggestion) => {
        const res = await turn(sem.as(actor), "We decided this.", suggestion);
        return (await promoteProposal(sem.as(actor), { proposal_id: proposalOf(res), action: "approve_create" }))
          .final_cfb_id as string;
      };
      const mine = await approve(owner, VACATION);
      // Ten more of the owner's, nearer any vacation question than the shared one (one concept, not two).
      const owners = new Set([mine]);
      for (let i = 0; i < 10; i++)
        owners.add(await approve(owner, { ...VACATION, title: "Vacation", delta_summary: "Vacation." }));
      const shared = await approve(editor, VACATION);
      await sem.deps.semantic?.syncNow();
      const semantic = await sem.deps.semantic?.get();
      if (!semantic) throw new Error("semantic matching did not open");

      // "holiday leave" shares no word with "vacation": only the embedder's synonyms find them.
      const message = "What about holiday leave?";
      const ownersTurn = await injected(sem, await turn(sem.as(owner), message));
      expect(ownersTurn.filter((id) => owners.has(id)).length).toBeGreaterThan(0);
      const othersTurn = await injected(sem, await turn(sem.as(other), message));
      expect(othersTurn).toEqual([shared]);

      // The nearest visible neighbour, past the owner's eleven nearer ones.
      const vector = Float32Array.from(testEmbedding(message));
      const nearest = async (visibleTo?: string | null) =>
        (await semantic.search.nearest(vector, 1, visibleTo === undefined ? undefined : { visibleTo })).map(
          (n) => n.cfb_id,
        );
      expect(await nearest(other.userId)).toEqual([shared]);
      expect(await nearest(null)).toEqual([shared]);
      expect(await nearest()).toEqual([shared]);
      expect(owners.has((await nearest(owner.userId))[0] as string)).toBe(true);

      const proposal = {
        title: "Holiday leave",
        delta_summary: "Staff leave has no cap.",
        tags: [],
        entities: [],
        domain: "general",
        op: "create" as const,
        target_cfb_id: null,
      };
      const knowledge = {
        candidates: sem.repos.cfbs.candidates,
        candidatesByIds: sem.repos.cfbs.index.candidatesByIds,
        semantic: semantic.search,
      };
      expect(proposalText(proposal)).not.toMatch(/vacation/i);
      const forOther = (await resolveCandidates(knowledge, proposal, 20, other.userId)).map((c) => c.cfb_id);
      expect(forOther).toEqual([shared]);
      const forOwner = (await resolveCandidates(knowledge, proposal, 20, owner.userId)).map((c) => c.cfb_id);
      expect(forOwner.filter((id) => owners.has(id)).length).toBeGreaterThan(0);
    } finally {
      await sem.deps.semantic?.syncNow().catch(() => 0);
      await sem.close();
      await embedder.close();
    }
  });
});
