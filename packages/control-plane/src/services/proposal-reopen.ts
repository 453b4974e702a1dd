import type { TProposal, TProposalReopenRequest, TStoredProposal } from "@solserver/contracts";
import { auditActor, requireJam, visibleProposal } from "./access";
import type { TCaller, TServiceContext } from "./context";
import { currentActions } from "./proposal-actions";
import { unlearnProposalDomain } from "./routing";

// Reopening a decided proposal (issue 19): a decision can be undone, by a Jam editor. The
// proposal is pending again, its decision kept as history (`earlier_decisions`), and it can then
// be decided like any pending one. Reopening an approval also puts back every CFB it wrote, while
// none changed since (proposal-reopen.ts in packages/db): the review desk's Undo.

/** Whether this caller may reopen the proposal as it is now (the proposal page's button). */
export function mayReopen(caller: TCaller, proposal: Pick<TStoredProposal, "status">): boolean {
  return caller.role === "jam" && (proposal.status === "rejected" || proposal.status === "approved");
}

/**
 * Back to pending, in one transaction with its audit event. The status flip is conditional on
 * `rejected` or `approved`, so of two editors reopening at once one lands; a proposal that is not decided is
 * CONFLICT saying what it is and what to do instead (proposals.reopen in the db repository).
 */
export async function reopenProposal(ctx: TServiceContext, input: TProposalReopenRequest): Promise<TProposal> {
  const { deps, caller } = ctx;
  requireJam(caller, "reopen proposals");
  await visibleProposal(ctx, input.proposal_id);
  const { cfbs } = await deps.repos.proposals.reopen({
    proposalId: input.proposal_id,
    promotionId: input.promotion_id,
    audit: auditActor(caller),
  });
  if (cfbs.length > 0) {
    deps.semantic?.afterWrite();
    await unlearnProposalDomain(deps, caller, input.proposal_id);
  }
  const proposal = await visibleProposal(ctx, input.proposal_id);
  return { ...proposal, actions: await currentActions(ctx, proposal) };
}
