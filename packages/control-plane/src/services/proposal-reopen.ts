import type { TProposal, TProposalReopenRequest, TStoredProposal } from "@solserver/contracts";
import { auditActor, requireJam, visibleProposal } from "./access";
import type { TCaller, TServiceContext } from "./context";
import { currentActions } from "./proposal-actions";

// Reopening a rejected proposal (issue 19): a rejection can be undone, by a Jam editor. The
// proposal is pending again, its rejection kept as history (`earlier_decisions`), and it can then
// be decided like any pending one. An approval is not reopened: it wrote a CFB, which is undone by
// reverting that CFB (cfbs.revert), so a second approval cannot write the same knowledge twice.

/** Whether this caller may reopen the proposal as it is now (the proposal page's button). */
export function mayReopen(caller: TCaller, proposal: Pick<TStoredProposal, "status">): boolean {
  return caller.role === "jam" && proposal.status === "rejected";
}

/**
 * Back to pending, in one transaction with its audit event. The status flip is conditional on
 * `rejected`, so of two editors reopening at once one lands; a proposal that is not rejected is
 * CONFLICT saying what it is and what to do instead (proposals.reopen in the db repository).
 */
export async function reopenProposal(ctx: TServiceContext, input: TProposalReopenRequest): Promise<TProposal> {
  const { deps, caller } = ctx;
  requireJam(caller, "reopen proposals");
  await visibleProposal(ctx, input.proposal_id);
  await deps.repos.proposals.reopen({ proposalId: input.proposal_id, audit: auditActor(caller) });
  const proposal = await visibleProposal(ctx, input.proposal_id);
  return { ...proposal, actions: await currentActions(ctx, proposal) };
}
