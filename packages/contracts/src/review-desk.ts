import { z } from "zod";
import { ZCfbId, ZIsoDate, ZProposalId } from "./ids";

// The review desk (issue 23): what a queue card needs to decide without opening the proposal,
// the per-domain queues, assignment and the discussion on a proposal.

/** An account as people see it: a name and an email, never a bare id. */
export const ZPersonRef = z.object({ user_id: z.string(), name: z.string(), email: z.string() });
export type TPersonRef = z.infer<typeof ZPersonRef>;

/**
 * A queue card's context: who proposed it (the thread's owner), the thread, the current state of
 * the CFB an update or merge targets, who is asked to decide it, and its discussion so far.
 */
export const ZQueueContext = z.object({
  proposer: ZPersonRef.nullable(),
  thread_title: z.string(),
  /** The target CFB as it is now (null for a new CFB, or a target that no longer exists). */
  target: z.object({ cfb_id: ZCfbId, title: z.string(), summary: z.string(), version: z.number().int() }).nullable(),
  assignee: ZPersonRef.nullable(),
  comment_count: z.number().int().min(0),
  /** The latest request for changes not answered by a later comment of the proposer. */
  changes_requested: z.boolean(),
});
export type TQueueContext = z.infer<typeof ZQueueContext>;

/** One domain's queue: what waits, since when, and what was decided in the last 24 hours. */
export const ZDomainQueue = z.object({
  domain: z.string(),
  pending: z.number().int(),
  oldest_ts: ZIsoDate.nullable(),
  decided_24h: z.number().int(),
});
export const ZProposalQueuesResponse = z.object({
  domains: z.array(ZDomainQueue),
  /** The caller's own pending proposals to decide (assigned to them). */
  assigned_to_me: z.number().int(),
});
export type TProposalQueuesResponse = z.infer<typeof ZProposalQueuesResponse>;

/** Asks one account (a Jam editor) to decide these proposals, or clears the assignment (null). */
export const ZProposalAssignRequest = z
  .object({
    proposal_ids: z.array(ZProposalId).min(1).max(100),
    assignee_id: z.string().min(1).max(64).nullable(),
  })
  .strict();
export type TProposalAssignRequest = z.infer<typeof ZProposalAssignRequest>;
export const ZProposalAssignResponse = z.object({ assigned: z.number().int(), assignee: ZPersonRef.nullable() });

export const ZCommentKind = z.enum(["comment", "request_changes"]);
export const ZProposalCommentRequest = z
  .object({
    proposal_id: ZProposalId,
    kind: ZCommentKind.default("comment"),
    body: z.string().trim().min(1, { error: "must not be empty" }).max(4000),
  })
  .strict();
export type TProposalCommentRequest = z.input<typeof ZProposalCommentRequest>;

/** A note on a proposal: a comment, a request for changes, or a rejection's reason (read-only, from the decision). */
export const ZProposalComment = z.object({
  comment_id: z.string(),
  proposal_id: ZProposalId,
  kind: z.enum(["comment", "request_changes", "reject_reason"]),
  body: z.string(),
  author: ZPersonRef.nullable(),
  created_ts: ZIsoDate,
});
export type TProposalComment = z.infer<typeof ZProposalComment>;

export const ZProposalCommentsRequest = z
  .object({ proposal_id: ZProposalId.optional(), thread_id: z.string().min(1).max(64).optional() })
  .strict()
  .refine((r) => (r.proposal_id === undefined) !== (r.thread_id === undefined), {
    message: "give exactly one of proposal_id and thread_id",
    path: ["proposal_id"],
  });
export const ZProposalCommentsResponse = z.object({ items: z.array(ZProposalComment) });
export type TProposalCommentsResponse = z.infer<typeof ZProposalCommentsResponse>;
