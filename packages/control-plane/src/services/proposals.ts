import {
  DomainError,
  type TProposal,
  type TProposalGetRequest,
  type TProposalListResponse,
  type ZProposalListRequest,
} from "@solserver/contracts";
import type { z } from "zod";
import { assertCanSeeThread, visibleProposal } from "./access";
import type { TServiceContext } from "./context";
import { currentActions, storedActions } from "./proposal-actions";
import { withQueueContext } from "./proposal-desk";

/**
 * The proposals of one response (every status by default), or the review queue (pending by
 * default): a user's own threads, or every thread for a Jam editor. A response that does not
 * exist is NOT_FOUND, one of another user's threads FORBIDDEN.
 */
export async function listProposals(
  ctx: TServiceContext,
  input: z.output<typeof ZProposalListRequest>,
): Promise<TProposalListResponse> {
  const { deps, caller } = ctx;
  if (input.response_id !== undefined) {
    const thread = await deps.repos.turns.responseThread(input.response_id);
    if (!thread)
      throw new DomainError("NOT_FOUND", `response ${input.response_id} does not exist`, { field: "response_id" });
    assertCanSeeThread(caller, thread.ownerId, `response ${input.response_id}`);
  }
  const page = await deps.repos.proposals.list({
    status: input.status ?? (input.response_id ? "all" : "pending"),
    ownerId: caller.role === "jam" ? undefined : caller.userId,
    responseId: input.response_id,
    decision: input.decision,
    domain: input.domain,
    minConfidence: input.min_confidence,
    threadId: input.thread_id,
    assigneeId: input.assignee === "me" ? caller.userId : input.assignee === "none" ? null : undefined,
    sort: input.sort,
    cursor: input.cursor,
    limit: input.limit,
  });
  // Each item with what this caller may do with it, from resolve's stored decision (a page is
  // not worth 25 resolves; promote resolves again anyway).
  return { ...page, items: await withQueueContext(ctx, await storedActions(ctx, page.items)) };
}

/** One proposal, with what this caller may do with it as a promotion now would decide it. */
export async function getProposal(ctx: TServiceContext, input: TProposalGetRequest): Promise<TProposal> {
  const proposal = await visibleProposal(ctx, input.proposal_id);
  return { ...proposal, actions: await currentActions(ctx, proposal) };
}
