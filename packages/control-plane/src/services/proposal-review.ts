import {
  cfbFieldChanges,
  DomainError,
  type TCfbDetail,
  type TProposalReview,
  type TProposalReviewRequest,
} from "@solserver/contracts";
import { canApproveAsNew } from "../proposals/promotion-check";
import { requireJam, visibleProposal } from "./access";
import type { TServiceContext } from "./context";
import { currentLookups, draftFromProposal, planOf } from "./promote";
import { currentActions } from "./proposal-actions";
import { mayReopen } from "./proposal-reopen";

/** A CFB as the wire shows it, without its history (the preview's before and merge partner). */
function current({ revisions: _revisions, merged_into_cfb_id: _merged, retired_ts: _retired, ...cfb }: TCfbDetail) {
  return cfb;
}

/**
 * The proposal page (seed 001 §3, §6): the proposal, where it came from, and what each approval
 * open to it would write now. The previews run the promotion's own code (resolve again, the
 * update target, the draft) without writing anything, so what the page shows is what lands,
 * unless the CFB moves first (then the promotion, sent with the version shown, is CONFLICT).
 * The proposal's allowed actions are decided on the same resolve.
 */
export async function reviewProposal(ctx: TServiceContext, input: TProposalReviewRequest): Promise<TProposalReview> {
  const { deps } = ctx;
  const stored = await visibleProposal(ctx, input.proposal_id);
  // Overrides are edit_then_approve's, which only Jam editors may send; so is their preview.
  if (input.editorial_overrides !== undefined) requireJam(ctx.caller, "preview editorial overrides");
  const source = await deps.repos.turns.responseSource(stored.response_id);
  if (!source)
    throw new DomainError("NOT_FOUND", `response ${stored.response_id} does not exist`, { field: "proposal_id" });
  const lookups = currentLookups(deps, stored);
  const proposal = { ...stored, actions: await currentActions(ctx, stored, lookups) };
  const reopen = mayReopen(ctx.caller, stored);
  if (proposal.status !== "pending") {
    return { proposal, source, reopen, preview: { create: null, update: null, update_unavailable: null } };
  }
  const overrides = input.editorial_overrides;
  const found = await lookups.updateTarget();
  const plan = found && planOf(deps.tags, found, stored, overrides);
  return {
    proposal,
    source,
    reopen,
    preview: {
      create: canApproveAsNew(stored) ? draftFromProposal(deps.tags, stored, overrides) : null,
      update: plan && {
        target: current(plan.target),
        merged: plan.merged && current(plan.merged),
        after: plan.draft,
        changes: cfbFieldChanges(plan.target, plan.draft),
      },
      update_unavailable: plan
        ? null
        : "no CFB to update: the proposal names none that exists and resolve found none close enough",
    },
  };
}
