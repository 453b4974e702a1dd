import {
  DomainError,
  type TProposal,
  type TProposalGetRequest,
  type TProposalListResponse,
  type ZProposalListRequest,
} from "@solserver/contracts";
import type { z } from "zod";
import { assertCanSeeThread } from "./access";
import type { TServiceContext } from "./context";

/**
 * The proposals of one response (every status by default), or the review queue (pending by
 * default): a user's own threads, or every thread for a Jam editor. A response that does not
 * exist is NOT_FOUND, one of another user's threads FORBIDDEN.
 */
export async function listProposals(
  { deps, caller }: TServiceContext,
  input: z.output<typeof ZProposalListRequest>,
): Promise<TProposalListResponse> {
  if (input.response_id !== undefined) {
    const thread = await deps.repos.turns.responseThread(input.response_id);
    if (!thread)
      throw new DomainError("NOT_FOUND", `response ${input.response_id} does not exist`, { field: "response_id" });
    assertCanSeeThread(caller, thread.ownerId, `response ${input.response_id}`);
  }
  return deps.repos.proposals.list({
    status: input.status ?? (input.response_id ? "all" : "pending"),
    ownerId: caller.role === "jam" ? undefined : caller.userId,
    responseId: input.response_id,
    decision: input.decision,
    domain: input.domain,
    minConfidence: input.min_confidence,
    threadId: input.thread_id,
    sort: input.sort,
    cursor: input.cursor,
    limit: input.limit,
  });
}

export async function getProposal({ deps, caller }: TServiceContext, input: TProposalGetRequest): Promise<TProposal> {
  const { proposal_id } = input;
  const proposal = await deps.repos.proposals.get(proposal_id);
  if (!proposal) throw new DomainError("NOT_FOUND", `proposal ${proposal_id} does not exist`, { field: "proposal_id" });
  const thread = await deps.repos.turns.threadOwner(proposal.thread_id);
  assertCanSeeThread(caller, thread?.ownerId ?? null, `proposal ${proposal_id}`);
  return proposal;
}
