// Stale decisions (issue 19, point 6) through the tRPC routers: two editors deciding at once, on
// one proposal or on two twins; the loser's answer names who decided what and when; "already
// decided" (field proposal_id) and "the CFB moved" (field expected_cfb_version) stay distinct.
import { openTestControlPlane, type TTestActor } from "@solserver/control-plane/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createInnerContext } from "@/server/trpc/init";
import { createCaller } from "@/server/trpc/root";
import { only, rowCounts, trpcError } from "./helpers";

type TCaller = ReturnType<typeof createCaller>;

let main: Awaited<ReturnType<typeof openTestControlPlane>>;
let alice: TTestActor;
let one: TCaller;
let two: TCaller;
let owner: TCaller;
let n = 0;

const WHEN = "\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC";

beforeAll(async () => {
  main = await openTestControlPlane({ label: "web-stale", limits: { chatTurnsPerMinute: 100_000 } });
  alice = await main.account("user", "alice@stale.test");
  const as = (actor: TTestActor) => createCaller(createInnerContext({ deps: main.deps, actor }));
  owner = as(alice);
  one = as(await main.account("jam", "editor1@stale.test"));
  two = as(await main.account("jam", "editor2@stale.test"));
});
afterAll(async () => main?.close());

/** A chat turn of alice's whose message the offline model turns into one proposal. */
async function proposalOf(message: string, threadId?: string) {
  const turn = await owner.chat.respond({
    request_id: `stale-${++n}`,
    message,
    ...(threadId ? { thread_id: threadId } : {}),
  });
  return { threadId: turn.thread_id, proposalId: only(turn.ui_hints.proposal_previews).proposal_id };
}

describe("two editors deciding at once", () => {
  it("on one proposal: one decision lands, the other is told who decided what and when", async () => {
    const { proposalId } = await proposalOf("We decided to keep audit logs for seven years.");
    const before = await rowCounts(main.db);
    const results = await Promise.allSettled([
      one.promotion.promote({ proposal_id: proposalId, action: "approve_create" }),
      two.promotion.promote({ proposal_id: proposalId, action: "reject" }),
    ]);
    const won = only(results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : [])));
    const lost = only(results.flatMap((r) => (r.status === "rejected" ? [r.reason] : [])));
    const winner = won.status === "approved" ? "editor1@stale.test" : "editor2@stale.test";
    expect(won.decided_by).toBe(winner);
    expect(lost).toMatchObject({ code: "CONFLICT" });
    expect(lost.message).toMatch(
      new RegExp(`^proposal ${proposalId} was already ${won.status} by ${winner.replace(".", "\\.")} at ${WHEN}`),
    );
    const stored = await owner.proposals.get({ proposal_id: proposalId });
    expect(stored).toMatchObject({ status: won.status, decided_by: winner, decided_ts: won.decided_ts });
    expect((await rowCounts(main.db)).PromotionEvent).toBe(before.PromotionEvent + 1);
  });

  it("on two twins: one CFB, the other twin folded, the loser told which twin decided it", async () => {
    const message = "We decided that every service exposes a /healthz endpoint.";
    const lead = await proposalOf(message);
    const twin = await proposalOf(message, lead.threadId);
    expect((await owner.proposals.get({ proposal_id: twin.proposalId })).twin_of_id).toBe(lead.proposalId);
    const queue = await owner.proposals.list({ status: "pending", thread_id: lead.threadId });
    expect(queue.items.map((p) => [p.proposal_id, p.twin_count])).toEqual([[lead.proposalId, 1]]);

    const before = await rowCounts(main.db);
    const results = await Promise.allSettled([
      one.promotion.promote({ proposal_id: lead.proposalId, action: "approve_create" }),
      two.promotion.promote({ proposal_id: twin.proposalId, action: "approve_create" }),
    ]);
    const won = only(results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : [])));
    const lost = only(results.flatMap((r) => (r.status === "rejected" ? [r.reason] : [])));
    const other = won.proposal_id === lead.proposalId ? twin.proposalId : lead.proposalId;
    expect(won.folded_proposal_ids).toEqual([other]);
    expect(lost).toMatchObject({ code: "CONFLICT" });
    expect(lost.message).toMatch(
      new RegExp(`^proposal ${other} was already folded into its twin ${won.proposal_id}, decided by \\S+ at ${WHEN}`),
    );
    const after = await rowCounts(main.db);
    expect(after.Cfb).toBe(before.Cfb + 1);
    expect(after.PromotionEvent).toBe(before.PromotionEvent + 1);
    expect(await owner.proposals.get({ proposal_id: other })).toMatchObject({
      status: "duplicate",
      twin_of_id: won.proposal_id,
      decided_by: won.decided_by,
    });
  });
});

describe("already decided and the CFB moved are two different answers", () => {
  it("names the field, and each message says what to do next", async () => {
    const base = await proposalOf("We decided to run the nightly export at 02:00.");
    const created = await one.promotion.promote({ proposal_id: base.proposalId, action: "approve_create" });
    const cfbId = created.final_cfb_id as string;
    const update = await proposalOf("We decided to run the nightly export at 02:00 with compression.");
    const review = await owner.proposals.review({ proposal_id: update.proposalId });
    const version = review.proposal.actions.update?.version;
    expect(review.proposal.actions.update?.cfb_id).toBe(cfbId);
    // The CFB moves while the reviewer looks at the diff.
    const cfb = await one.cfbs.get({ cfb_id: cfbId });
    await one.cfbs.update({
      cfb_id: cfbId,
      version: cfb.version,
      domain: cfb.domain,
      kind: cfb.kind,
      confidence: cfb.confidence,
      title: cfb.title,
      summary: "The nightly export runs at 02:30.",
      text: cfb.text,
      tags: cfb.tags,
      entities: cfb.entities,
      trust_tier: cfb.trust_tier,
      source_refs: cfb.source_refs,
    });

    const moved = await trpcError(
      owner.promotion.promote({
        proposal_id: update.proposalId,
        action: "approve_update",
        expected_cfb_version: version as number,
      }),
    );
    expect(moved.code).toBe("CONFLICT");
    expect(moved.message).toMatch(new RegExp(`^CFB ${cfbId} is at version \\d+, not ${version}: summary changed`));
    expect(moved.message).toContain("review it again");
    expect((await owner.proposals.get({ proposal_id: update.proposalId })).status).toBe("pending");

    await two.promotion.promote({ proposal_id: update.proposalId, action: "reject" });
    const decided = await trpcError(
      owner.promotion.promote({ proposal_id: update.proposalId, action: "approve_update" }),
    );
    expect(decided.code).toBe("CONFLICT");
    expect(decided.message).toMatch(
      new RegExp(
        `^proposal ${update.proposalId} was already rejected by editor2@stale\\.test at ${WHEN}: nothing left to decide`,
      ),
    );
  });
});
