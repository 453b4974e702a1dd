// Issue 23: a decision stated in a thread is a proposal until someone approves it. Asked about it
// two turns later, the assistant says it is waiting for review instead of not knowing it; once it
// is approved, the answer comes from the CFB.
import { ZPromoteRequest } from "@solserver/contracts";
import { afterAll, beforeAll, expect, it } from "vitest";
import { parseInput, promoteProposal, respondToTurn } from "../src/index";
import { openTestControlPlane, type TTestActor } from "../src/testing";

let opened: Awaited<ReturnType<typeof openTestControlPlane>>;
let user: TTestActor;
let jam: TTestActor;
let n = 0;

beforeAll(async () => {
  opened = await openTestControlPlane({ label: "pending-answer", limits: { chatTurnsPerMinute: 1000 } });
  user = await opened.account("user");
  jam = await opened.account("jam");
});
afterAll(async () => opened?.close());

const say = (message: string, thread_id?: string) =>
  respondToTurn(opened.as(user), { request_id: `pending-${++n}`, message, ...(thread_id ? { thread_id } : {}) });

it("says a decision waits for review, then answers from it once approved", async () => {
  const stated = await say("We decided to rotate the on-call pager every Wednesday.");
  const proposalId = stated.ui_hints.proposal_previews[0]?.proposal_id as string;
  await say("thanks", stated.thread_id);
  const asked = await say("When do we rotate the on-call pager?", stated.thread_id);
  expect(asked.assistant_text).toContain(`(proposal ${proposalId}) is waiting for review`);

  await promoteProposal(
    opened.as(jam),
    parseInput(ZPromoteRequest, { proposal_id: proposalId, action: "approve_create" }),
  );
  const again = await say("When do we rotate the on-call pager?", stated.thread_id);
  expect(again.assistant_text).not.toContain("waiting for review");
  expect(again.assistant_text).toMatch(/According to CFB-\d+/);
});
