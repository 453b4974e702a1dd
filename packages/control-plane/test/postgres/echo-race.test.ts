// A turn that groups a new proposal under another person's pending lead (an echo), while a Jam
// editor's decision of that group is under way in another connection. The decision read the
// group before the turn committed; unless the two writes conflict, it folds the group without the
// new echo, which then stays pending under a decided lead, hidden from every queue. The decision
// is played by a serializable transaction that reads the group, lets the turn run to its commit,
// then writes the lead: it must fail on the lead's row and run again, now seeing the echo.
// Included only when SOLSERVER_TEST_POSTGRES_URL names a server (vitest.config.ts).
import type { TCfbSuggestion } from "@solserver/contracts";
import { Prisma, sqlDriverOf } from "@solserver/db/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { respondToTurn } from "../../src/index";
import { openTestControlPlane, scriptedModel, type TTestActor } from "../../src/testing";

const said: TCfbSuggestion = {
  op: "create",
  title: "Incident channel",
  delta_summary: "Incidents are discussed in #incident-race only.",
  tags: ["incident"],
  entities: [],
  confidence: 0.8,
};
let opened: Awaited<ReturnType<typeof openTestControlPlane>>;
let alice: TTestActor;
let bob: TTestActor;

beforeAll(async () => {
  opened = await openTestControlPlane({ label: "echo-race", model: scriptedModel(() => ({ suggestions: [said] })) });
  alice = await opened.account("user");
  bob = await opened.account("user");
});
afterAll(async () => opened?.close());

const say = async (who: TTestActor, requestId: string) =>
  (await respondToTurn(opened.as(who), { request_id: requestId, message: "We decided this." })).ui_hints
    .proposal_previews[0]?.proposal_id as string;

it("a decision that read the group before an echo was linked reads it again before it writes", async () => {
  const lead = await say(alice, "echo-race-lead");
  let echo = "";
  const reads: string[][] = [];
  await sqlDriverOf(opened.db).transaction(async (tx) => {
    const group = await tx.query<{ id: string }>(
      Prisma.sql`SELECT "id" FROM "UmbraProposal" WHERE ("id" = ${lead} OR "twinOfId" = ${lead}) AND "status" = 'pending'
      ORDER BY "id"`,
    );
    reads.push(group.map((r) => r.id));
    // the turn runs to its commit between the decision's read and its write (first try only)
    if (reads.length === 1) echo = await say(bob, "echo-race-echo");
    await tx.execute(Prisma.sql`UPDATE "UmbraProposal" SET "status" = 'rejected' WHERE "id" = ${lead}`);
  });
  expect(reads).toEqual([[lead], [lead, echo].sort()]);
});
