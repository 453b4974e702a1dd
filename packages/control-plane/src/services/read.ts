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

export async function listProposals(
  deps: TServiceDeps,
  input: z.output<typeof ZProposalListRequest>,
): Promise<TProposalListResponse> {
  return deps.repos.proposals.list({
    status: input.status,
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
