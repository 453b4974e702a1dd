// Undo and repair through tRPC (issue 19): two Jam editors racing each other get exactly one
// landed change and one CONFLICT that says what happened, with nothing of the loser written; bad
// input names its field; the answers map to the error table's codes. (Both editors share one
// server: two connections in one Node process would block each other's event loop on SQLite's
// busy wait, which two real server processes do not.)
import { openTestControlPlane, type TTestActor } from "@solserver/control-plane/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createInnerContext } from "@/server/trpc/init";
import { createCaller } from "@/server/trpc/root";
import { cfbDraft, clientShape, only, rowCounts, trpcError } from "./helpers";

type TCaller = ReturnType<typeof createCaller>;

let main: Awaited<ReturnType<typeof openTestControlPlane>>;
let jam: TTestActor;
let otherJam: TTestActor;
let user: TTestActor;
/** The two editors. */
let first: TCaller;
let second: TCaller;
let userCaller: TCaller;
const LIMITS = { chatTurnsPerMinute: 100_000 };

beforeAll(async () => {
  main = await openTestControlPlane({ label: "web-cfb-repair", limits: LIMITS });
  jam = await main.account("jam", "jam-one@repair.test");
  otherJam = await main.account("jam", "jam-two@repair.test");
  user = await main.account("user", "user@repair.test");
  first = createCaller(createInnerContext({ deps: main.deps, actor: jam }));
  second = createCaller(createInnerContext({ deps: main.deps, actor: otherJam }));
  userCaller = createCaller(createInnerContext({ deps: main.deps, actor: user }));
});
afterAll(async () => main?.close());

/** A CFB at version 2 (one edit after creation). */
async function editedCfb(title: string) {
  const created = await first.cfbs.create(cfbDraft({ title, summary: `${title}: first wording.` }));
  await first.cfbs.update({
    ...cfbDraft({ title, summary: `${title}: second wording.` }),
    cfb_id: created.cfb_id,
    version: 1,
  });
  return created.cfb_id;
}

const settle = async <T>(calls: Promise<T>[]) => {
  const results = await Promise.allSettled(calls);
  return {
    won: only(results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []))),
    lost: only(
      results.flatMap((r) => (r.status === "rejected" ? [r.reason as { code: string; message: string }] : [])),
    ),
  };
};

describe("two editors at once", () => {
  it("reverting the same version: one lands, the other is CONFLICT naming what moved; one revision, one audit event", async () => {
    const cfbId = await editedCfb("Kiln firing schedule");
    const before = await rowCounts(main.db);
    const { won, lost } = await settle([
      first.cfbs.revert({ cfb_id: cfbId, version: 2, to_version: 1 }),
      second.cfbs.revert({ cfb_id: cfbId, version: 2, to_version: 1 }),
    ]);
    expect(won).toMatchObject({ version: 3, summary: "Kiln firing schedule: first wording." });
    expect(lost).toMatchObject({ code: "CONFLICT" });
    expect(lost.message).toBe(`CFB ${cfbId} is at version 3, not 2: summary changed; review it again`);
    const after = await rowCounts(main.db);
    expect(after.CfbRevision).toBe(before.CfbRevision + 1);
    expect(after.AuditEvent).toBe(before.AuditEvent + 1);
  });

  it("one retires while the other merges it away: one lands, the other says what happened instead", async () => {
    const survivor = (
      await first.cfbs.create(cfbDraft({ title: "Glaze recipes", summary: "Glazes are mixed by weight." }))
    ).cfb_id;
    const duplicate = (await first.cfbs.create(cfbDraft({ title: "Glaze mixing", summary: "Mix glazes by weight." })))
      .cfb_id;
    const { won, lost } = await settle<unknown>([
      first.cfbs.retire({ cfb_id: duplicate, version: 1 }),
      second.cfbs.merge({ cfb_id: survivor, version: 1, merge_cfb_id: duplicate, merge_version: 1 }),
    ]);
    expect(lost).toMatchObject({ code: "CONFLICT" });
    const page = await first.cfbs.get({ cfb_id: duplicate });
    if ((won as { retired_ts?: string }).retired_ts) {
      expect(lost.message).toBe(`CFB ${duplicate} is retired; restore it on its page first to change it`);
      expect(page).toMatchObject({ merged_into_cfb_id: null, retired_ts: expect.any(String) });
      expect((await first.cfbs.get({ cfb_id: survivor })).version).toBe(1);
    } else {
      expect(lost.message).toBe(`CFB ${duplicate} was merged into ${survivor}; work on ${survivor} instead`);
      expect(page).toMatchObject({ merged_into_cfb_id: survivor, retired_ts: null });
    }
  });

  it("reopening the same rejection: one lands, the other is CONFLICT; the proposal is pending once", async () => {
    const turn = await userCaller.chat.respond({
      request_id: "repair-reopen-race",
      message: "We decided to fire the kiln on Thursdays.",
    });
    const proposalId = only(turn.ui_hints.proposal_previews).proposal_id;
    await first.promotion.promote({ proposal_id: proposalId, action: "reject" });
    const before = await rowCounts(main.db);
    const { won, lost } = await settle([
      first.proposals.reopen({ proposal_id: proposalId }),
      second.proposals.reopen({ proposal_id: proposalId }),
    ]);
    expect(won).toMatchObject({ proposal_id: proposalId, status: "pending" });
    expect(lost).toMatchObject({ code: "CONFLICT" });
    expect(lost.message).toBe(`proposal ${proposalId} is pending: nothing to reopen; decide it`);
    const after = await rowCounts(main.db);
    expect(after.AuditEvent).toBe(before.AuditEvent + 1);
    expect(after.PromotionEvent).toBe(before.PromotionEvent);
    expect(won.earlier_decisions).toHaveLength(1);
    // And it is approvable again, as a new round.
    const approved = await first.promotion.promote({ proposal_id: proposalId, action: "approve_create" });
    expect(approved.status).toBe("approved");
  });
});

describe("errors over tRPC", () => {
  it("bad input names the field; a conflict carries its field and code", async () => {
    const cfbId = await editedCfb("Clay storage");
    const ctx = createInnerContext({ deps: main.deps, actor: jam });

    const later = await trpcError(first.cfbs.revert({ cfb_id: cfbId, version: 2, to_version: 2 }));
    const shape = clientShape(ctx, later, "cfbs.revert");
    expect(shape.data).toMatchObject({ code: "BAD_REQUEST", httpStatus: 400, field: "to_version" });
    expect(shape.message).toBe("to_version: must be an earlier version than version");

    const self = await trpcError(
      first.cfbs.merge({ cfb_id: cfbId, version: 2, merge_cfb_id: cfbId, merge_version: 2 }),
    );
    expect(clientShape(ctx, self, "cfbs.merge").data).toMatchObject({ field: "merge_cfb_id" });

    const extra = await trpcError(first.cfbs.retire({ cfb_id: cfbId, version: 2, reason: "old" } as never));
    expect(clientShape(ctx, extra, "cfbs.retire").data).toMatchObject({ field: "reason" });

    const stale = await trpcError(first.cfbs.retire({ cfb_id: cfbId, version: 1 }));
    expect(clientShape(ctx, stale, "cfbs.retire").data).toMatchObject({
      code: "CONFLICT",
      httpStatus: 409,
      domainCode: "CONFLICT",
      field: "version",
    });
  });
});
