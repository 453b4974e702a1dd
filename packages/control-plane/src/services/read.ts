import {
  DomainError,
  type TCfbDetail,
  type TCfbListResponse,
  type TProposal,
  type TProposalListResponse,
  type ZCfbListRequest,
  type ZProposalListRequest,
} from "@solserver/contracts";
import type { z } from "zod";
import { assertCanSeeThread, requireSignedIn } from "./access";
import type { TActor, TServiceDeps } from "./deps";

/**
 * The proposals of one response (every status by default), or the review queue (pending by
 * default): a user's own threads, or every thread for a Jam editor. A response that does not
 * exist is NOT_FOUND, one of another user's threads FORBIDDEN.
 */
export async function listProposals(
  deps: TServiceDeps,
  actor: TActor,
  input: z.output<typeof ZProposalListRequest>,
): Promise<TProposalListResponse> {
  const caller = requireSignedIn(actor);
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

export async function getProposal(deps: TServiceDeps, actor: TActor, proposalId: string): Promise<TProposal> {
  const caller = requireSignedIn(actor);
  const proposal = await deps.repos.proposals.get(proposalId);
  if (!proposal) throw new DomainError("NOT_FOUND", `proposal ${proposalId} does not exist`, { field: "proposal_id" });
  const thread = await deps.repos.turns.threadOwner(proposal.thread_id);
  assertCanSeeThread(caller, thread?.ownerId ?? null, `proposal ${proposalId}`);
  return proposal;
}

/** CFBs are the shared knowledge every answer draws on: any signed-in account may read them. */
export async function listCfbs(
  deps: TServiceDeps,
  actor: TActor,
  input: z.output<typeof ZCfbListRequest>,
): Promise<TCfbListResponse> {
  requireSignedIn(actor);
  return deps.repos.cfbs.list(input);
}

export async function getCfb(deps: TServiceDeps, actor: TActor, cfbId: string): Promise<TCfbDetail> {
  requireSignedIn(actor);
  const cfb = await deps.repos.cfbs.get(cfbId);
  if (!cfb) throw new DomainError("NOT_FOUND", `CFB ${cfbId} does not exist`, { field: "cfb_id" });
  return cfb;
}
