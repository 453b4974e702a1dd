import {
  DomainError,
  type TProposal,
  type TProposalComment,
  type TProposalCommentsResponse,
  type TProposalQueueItem,
  type TProposalQueuesResponse,
  type ZProposalAssignRequest,
  type ZProposalAssignResponse,
  type ZProposalCommentRequest,
  type ZProposalCommentsRequest,
} from "@solserver/contracts";
import type { z } from "zod";
import { assertCanSeeThread, auditActor, requireJam, visibleProposal } from "./access";
import type { TServiceContext } from "./context";

// The review desk (issue 23): cards that carry the decision, queues per domain, assignment and
// a discussion on each proposal that its proposer sees in their thread.

/** The queue's items with what a card shows beside the proposal (proposer, target now, assignee, discussion). */
export async function withQueueContext(
  { deps }: TServiceContext,
  items: readonly TProposal[],
): Promise<TProposalQueueItem[]> {
  const contexts = await deps.repos.desk.contexts(items);
  return items.map((p) => {
    const queue = contexts.get(p.proposal_id);
    if (!queue) throw new Error(`no queue context for ${p.proposal_id}`);
    return { ...p, queue };
  });
}

/** The caller's queues per domain: a Jam editor's every one, a user's own threads'. */
export async function proposalQueues({ deps, caller }: TServiceContext): Promise<TProposalQueuesResponse> {
  return deps.repos.desk.queues({
    ownerId: caller.role === "jam" ? undefined : caller.userId,
    callerId: caller.userId,
  });
}

/**
 * Asks a Jam editor to decide these pending proposals (or clears who was asked): Jam editors only,
 * and only a Jam editor may be asked (a user cannot decide another's proposal). Decided proposals
 * in the list are left as they are; the answer says how many were assigned.
 */
export async function assignProposals(
  ctx: TServiceContext,
  input: z.output<typeof ZProposalAssignRequest>,
): Promise<z.output<typeof ZProposalAssignResponse>> {
  const caller = requireJam(ctx.caller, "assign proposals");
  let assignee: z.output<typeof ZProposalAssignResponse>["assignee"] = null;
  if (input.assignee_id !== null) {
    const account = await ctx.deps.repos.accounts.get(input.assignee_id);
    if (!account)
      throw new DomainError("NOT_FOUND", `account ${input.assignee_id} does not exist`, { field: "assignee_id" });
    if (account.role !== "jam")
      throw new DomainError("BAD_INPUT", "assignee_id must be a Jam editor (only they decide any proposal)", {
        field: "assignee_id",
      });
    assignee = { user_id: account.id, name: account.name, email: account.email };
  }
  const assigned = await ctx.deps.repos.desk.assign({
    proposalIds: input.proposal_ids,
    assigneeId: input.assignee_id,
    audit: auditActor(caller),
  });
  return { assigned, assignee };
}

/**
 * A note on a proposal. Jam editors comment and request changes on any; a proposer comments on
 * their own (to answer a request), but only a reviewer requests changes. Decided proposals take
 * comments too (the discussion is history), not requests for changes.
 */
export async function commentOnProposal(
  ctx: TServiceContext,
  input: z.output<typeof ZProposalCommentRequest>,
): Promise<TProposalComment> {
  const proposal = await visibleProposal(ctx, input.proposal_id);
  if (input.kind === "request_changes") {
    requireJam(ctx.caller, "request changes");
    if (proposal.status !== "pending")
      throw new DomainError(
        "CONFLICT",
        `proposal ${proposal.proposal_id} is ${proposal.status}: changes can only be requested while it is pending`,
        {
          field: "kind",
        },
      );
  }
  return ctx.deps.repos.desk.comment({
    proposalId: proposal.proposal_id,
    kind: input.kind,
    body: input.body,
    audit: auditActor(ctx.caller),
  });
}

/** The discussion of one proposal, or of every proposal of a thread (what its owner sees there). */
export async function listProposalComments(
  ctx: TServiceContext,
  input: z.output<typeof ZProposalCommentsRequest>,
): Promise<TProposalCommentsResponse> {
  if (input.proposal_id !== undefined) {
    const proposal = await visibleProposal(ctx, input.proposal_id);
    return { items: await ctx.deps.repos.desk.comments({ proposalId: proposal.proposal_id }) };
  }
  const threadId = input.thread_id as string;
  const thread = await ctx.deps.repos.turns.threadOwner(threadId);
  if (!thread) throw new DomainError("NOT_FOUND", `thread ${threadId} does not exist`, { field: "thread_id" });
  assertCanSeeThread(ctx.caller, thread.ownerId, `thread ${threadId}`);
  return { items: await ctx.deps.repos.desk.comments({ threadId }) };
}
