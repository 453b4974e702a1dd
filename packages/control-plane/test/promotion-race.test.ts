// Two approvals of one proposal on two servers: the later one read the proposal while it was still
// pending, and by the time it looks for a newer CFB saying the same thing, the CFB the first
// approval just made from this very proposal is there. It must be told the proposal was already
// approved (CONFLICT on proposal_id), not to approve it as an update of its own CFB. The second
// server is stalled at that lookup, so the interleaving happens every run; the multi-process test
// (test/postgres/multi-process.test.ts) met it by chance about once in 15 runs.
import { isDomainError } from "@solserver/contracts";
import { expect, it } from "vitest";
import { openControlPlane } from "../src/control-plane";
import { promoteProposal, respondToTurn } from "../src/index";
import { openTestControlPlane } from "../src/testing";

it("an approval that read the proposal pending while another landed is told it was already approved", async () => {
  const opened = await openTestControlPlane({ label: "restate-race" });
  const { password: _o, ...owner } = await opened.account("user");
  const { password: _a, ...a } = await opened.account("jam");
  const { password: _b, ...b } = await opened.account("jam");
  const second = await openControlPlane({ databaseUrl: opened.database.url });
  try {
    const turn = await respondToTurn(opened.as(owner), {
      request_id: "restate-race",
      message: "We decided that the zanzibar rota belongs to quokka team.",
    });
    const id = turn.ui_hints.proposal_previews[0]?.proposal_id as string;
    // The second server stalls between reading the proposal (pending) and resolving it again.
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let reached = () => {};
    const atGate = new Promise<void>((resolve) => {
      reached = resolve;
    });
    const cfbs = second.deps.repos.cfbs;
    const slow = {
      ...second.deps,
      repos: {
        ...second.deps.repos,
        cfbs: {
          ...cfbs,
          candidates: async (...args: Parameters<typeof cfbs.candidates>) => {
            reached();
            await gate;
            return cfbs.candidates(...args);
          },
        },
      },
    };
    const late = promoteProposal({ deps: slow, caller: b }, { proposal_id: id, action: "approve_create" }).catch(
      (e: unknown) => e,
    );
    await atGate;
    const won = await promoteProposal(opened.as(a), { proposal_id: id, action: "approve_create" });
    release();
    const lost = await late;
    expect(isDomainError(lost) && { code: lost.code, field: lost.field }).toEqual({
      code: "CONFLICT",
      field: "proposal_id",
    });
    expect((lost as Error).message).toContain(`was already approved by ${a.email}`);
    expect(won.final_cfb_id).not.toBeNull();
  } finally {
    await second.db.$disconnect();
    await opened.close();
  }
});
