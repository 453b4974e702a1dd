// A CFB's history names who made each revision (issue 23: audit rows and history were raw ids):
// the approver of a promotion, with the proposal it came from, and the Jam editor of a revert.
import { ZPromoteRequest } from "@solserver/contracts";
import { afterAll, beforeAll, expect, it } from "vitest";
import { getCfb, parseInput, promoteProposal, respondToTurn, revertCfb } from "../src/index";
import { openTestControlPlane, type TTestActor } from "../src/testing";

let opened: Awaited<ReturnType<typeof openTestControlPlane>>;
let user: TTestActor;
let jam: TTestActor;
let n = 0;

beforeAll(async () => {
  opened = await openTestControlPlane({ label: "cfb-history-authors", limits: { chatTurnsPerMinute: 1000 } });
  user = await opened.account("user");
  jam = await opened.account("jam");
});
afterAll(async () => opened?.close());

const propose = async (message: string) => {
  const turn = await respondToTurn(opened.as(user), { request_id: `authors-${++n}`, message });
  return turn.ui_hints.proposal_previews[0]?.proposal_id as string;
};

it("names the approver and the proposal of each promotion, and the editor of a revert", async () => {
  const first = await propose("We decided to water the office ferns every Monday.");
  const created = await promoteProposal(
    opened.as(jam),
    parseInput(ZPromoteRequest, { proposal_id: first, action: "approve_create" }),
  );
  const cfbId = created.final_cfb_id as string;
  const second = await propose("We decided to water the office ferns every Monday before nine.");
  await promoteProposal(opened.as(jam), parseInput(ZPromoteRequest, { proposal_id: second, action: "approve_update" }));
  await revertCfb(opened.as(jam), { cfb_id: cfbId, version: 2, to_version: 1 });

  const cfb = await getCfb(opened.as(jam), { cfb_id: cfbId });
  expect(cfb.revisions.map((r) => [r.version, r.change_kind, r.by, r.proposal_id])).toEqual([
    [3, "revert", jam.email, null],
    [2, "update", jam.email, second],
    [1, "create", jam.email, first],
  ]);
});
