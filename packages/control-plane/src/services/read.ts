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
import type { TServiceDeps } from "./deps";

/**
 * The proposals of one response (every status by default), or the review queue (pending by
 * default). One rule for tRPC and REST alike. A response that does not exist is NOT_FOUND, not
 * an empty list.
 */
export async function listProposals(
  deps: TServiceDeps,
  input: z.output<typeof ZProposalListRequest>,
): Promise<TProposalListResponse> {
  if (input.response_id !== undefined && !(await deps.repos.turns.responseExists(input.response_id))) {
    throw new DomainError("NOT_FOUND", `response ${input.response_id} does not exist`, { field: "response_id" });
  }
  return deps.repos.proposals.list({
    status: input.status ?? (input.response_id ? "all" : "pending"),
    responseId: input.response_id,
    cursor: input.cursor,
    limit: input.limit,
  });
}

export async function getProposal(deps: TServiceDeps, proposalId: string): Promise<TProposal> {
  const proposal = await deps.repos.proposals.get(proposalId);
  if (!proposal) throw new DomainError("NOT_FOUND", `proposal ${proposalId} does not exist`, { field: "proposal_id" });
  return proposal;
}

export async function listCfbs(deps: TServiceDeps, input: z.output<typeof ZCfbListRequest>): Promise<TCfbListResponse> {
  return deps.repos.cfbs.list(input);
}

export async function getCfb(deps: TServiceDeps, cfbId: string): Promise<TCfbDetail> {
  const cfb = await deps.repos.cfbs.get(cfbId);
  if (!cfb) throw new DomainError("NOT_FOUND", `CFB ${cfbId} does not exist`, { field: "cfb_id" });
  return cfb;
}
