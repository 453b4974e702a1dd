import { z } from "zod";
import { ZCfb, ZCfbDraft, ZCfbFieldChange } from "./cfb";
import { ZCfbId, ZIsoDate, ZPromotionId, ZProposalId, ZResponseId, ZThreadId } from "./ids";
import { ZCfbOp } from "./output-envelope";
import { ZEditorialOverrides } from "./promotion";
import { ZEditor, ZPromoteAction } from "./promotion-enums";
import { ZProposalActions } from "./proposal-actions";
import { ZResolveDecisionKind, ZResolveDecisionView } from "./resolve";
import { ZQueueContext } from "./review-desk";

/**
 * `duplicate`: folded into a twin that was decided (`twin_of_id` names it); it is never decided
 * itself, so the same knowledge cannot land twice.
 */
export const ZProposalStatus = z.enum(["pending", "approved", "rejected", "duplicate"]);
export type TProposalStatus = z.infer<typeof ZProposalStatus>;

/**
 * Problems the server found in a model's suggestion. They are reported, never silently fixed
 * away: a reviewer sees that the model named a CFB that does not exist, or over-claimed.
 */
export const ZProposalWarning = z.enum([
  "target_cfb_missing", // op update/merge named a target_cfb_id that does not exist
  "target_cfb_required", // op update/merge without any target_cfb_id
  "confidence_clamped", // the model's confidence was outside [0, 1]
]);
export type TProposalWarning = z.infer<typeof ZProposalWarning>;

/** The compact preview of a proposal as stored (seed 001 §3.2), derived from the model's meta. */
export const ZStoredProposalPreview = z.object({
  proposal_id: ZProposalId,
  op: ZCfbOp,
  target_cfb_id: z.string().nullable(),
  title: z.string(),
  delta_summary: z.string(),
  confidence: z.number().min(0).max(1),
  warnings: z.array(ZProposalWarning),
});
export type TStoredProposalPreview = z.infer<typeof ZStoredProposalPreview>;

/** The compact preview returned with a chat turn: what was stored, and what this caller may do. */
export const ZProposalPreview = ZStoredProposalPreview.extend({ actions: ZProposalActions });
export type TProposalPreview = z.infer<typeof ZProposalPreview>;

/**
 * The content a proposal carries, apart from its change note (`delta_summary`): what approving
 * it writes (docs/api.md#proposed-content). `summary` is null on an update or merge that proposed
 * none (the target keeps its own); `text` is a new CFB's full text, or the prose an update adds
 * to its target's full text, null when the model proposed none.
 */
export const ZProposedCfb = z.object({
  title: z.string(),
  summary: z.string().nullable(),
  text: z.string().nullable(),
  tags: z.array(z.string()),
  entities: z.array(z.string()),
  domain: z.string(),
});
export type TProposedCfb = z.infer<typeof ZProposedCfb>;

/** A proposal as stored, with its promotion and resolve's latest decision. */
export const ZStoredProposal = ZStoredProposalPreview.extend({
  response_id: ZResponseId,
  thread_id: ZThreadId,
  status: ZProposalStatus,
  proposed_cfb: ZProposedCfb,
  rationale: z.string().nullable(),
  fingerprint: z.string(),
  created_ts: ZIsoDate,
  decided_ts: ZIsoDate.nullable(),
  /**
   * The email of who decided it (of a duplicate: who decided the twin it was folded into); null
   * while pending, or when that account was deleted since.
   */
  decided_by: z.string().nullable(),
  promotion: z
    .object({
      promotion_id: ZPromotionId,
      action: ZPromoteAction,
      final_cfb_id: ZCfbId.nullable(),
      editor: ZEditor,
      created_ts: ZIsoDate,
    })
    .nullable(),
  /**
   * Twins (same fingerprint, or restating the same pending proposal): while pending, the lead it
   * is grouped under; once folded, the proposal whose decision covered it. Null for a lead.
   */
  twin_of_id: ZProposalId.nullable(),
  /**
   * Another person's pending proposal saying the same (same fingerprint) that this one is grouped
   * under in the Jam queue, which shows them as one item; in its owner's queue it is a lead.
   */
  echo_of_id: ZProposalId.nullable(),
  /** Proposals grouped under this one: a lead's pending twins (the queue's "and N more like it"), or those its decision folded. */
  twin_count: z.number().int().min(0),
  /** How many people's proposals it stands for: 1, and one per other person who said the same ("×N people"). */
  people: z.number().int().min(1),
  /**
   * Decisions a Jam editor reopened (undone), oldest first: kept as the proposal's history
   * while it is pending again (and after its next decision, which is `promotion`).
   */
  earlier_decisions: z.array(
    z.object({
      promotion_id: ZPromotionId,
      action: ZPromoteAction,
      editor: ZEditor,
      created_ts: ZIsoDate,
      reopened_ts: ZIsoDate,
    }),
  ),
  /** Resolve's latest decision (seed 001 §6): at promotion when taken, else at creation. */
  resolve: ZResolveDecisionView.nullable(),
});
export type TStoredProposal = z.infer<typeof ZStoredProposal>;

/** A proposal as the API returns it: what was stored, and what this caller may do with it. */
export const ZProposal = ZStoredProposal.extend({ actions: ZProposalActions });
export type TProposal = z.infer<typeof ZProposal>;

export const ZProposalSort = z.enum(["newest", "oldest", "confidence"]);

export const ZProposalListRequest = z.object({
  /**
   * Default: `all` when listing one response's proposals, else the `pending` review queue, which
   * lists each group of twins once, by its lead (`twin_count` says how many more it stands for).
   */
  status: z.enum(["pending", "approved", "rejected", "duplicate", "all"]).optional(),
  response_id: ZResponseId.optional(),
  /** Resolve's latest decision for the proposal. */
  decision: ZResolveDecisionKind.optional(),
  /** The proposed CFB's domain. */
  domain: z.string().trim().min(1).max(64).optional(),
  /** Only proposals the model was at least this sure of. */
  min_confidence: z.number().min(0).max(1).optional(),
  thread_id: ZThreadId.optional(),
  /** `me`: only those assigned to the caller; `none`: only unassigned ones. */
  assignee: z.enum(["me", "none"]).optional(),
  /** newest first (default), oldest first, or most confident first. */
  sort: ZProposalSort.default("newest"),
  cursor: ZProposalId.optional(),
  limit: z.number().int().min(1).max(100).default(25),
});

/** GET /umbra/proposals: the same request from a query string (numbers arrive as text). */
export const ZProposalListQuery = ZProposalListRequest.extend({
  min_confidence: z.coerce.number().min(0).max(1).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
}).strict();
export type TProposalListRequest = z.input<typeof ZProposalListRequest>;

/** A queue item: the proposal, and what a card shows to decide it (proposer, target now, assignee, discussion). */
export const ZProposalQueueItem = ZProposal.extend({ queue: ZQueueContext });
export type TProposalQueueItem = z.infer<typeof ZProposalQueueItem>;

export const ZProposalListResponse = z.object({
  items: z.array(ZProposalQueueItem),
  next_cursor: ZProposalId.nullable(),
  /**
   * Per status, as the lists count them: `pending` counts leads (twins are in their lead's
   * `twin_count`). With filters (decision, domain, confidence, thread, assignee), counted under them.
   */
  counts: z.object({
    pending: z.number().int(),
    approved: z.number().int(),
    rejected: z.number().int(),
    duplicate: z.number().int(),
  }),
});
export type TProposalListResponse = z.infer<typeof ZProposalListResponse>;
/** A page of the queue as the database reads it, before the actions are worked out per caller. */
export type TStoredProposalPage = Omit<TProposalListResponse, "items"> & { items: TStoredProposal[] };

export const ZProposalGetRequest = z.object({ proposal_id: ZProposalId });

/** Reopens a rejected proposal: pending again, its rejection kept in `earlier_decisions`. */
export const ZProposalReopenRequest = z
  .object({
    proposal_id: ZProposalId,
    /** The decision to undo (an Undo button's): when it is no longer the one in force, CONFLICT. */
    promotion_id: ZPromotionId.optional(),
  })
  .strict();
export type TProposalReopenRequest = z.infer<typeof ZProposalReopenRequest>;

/**
 * The proposal page's request: the proposal, and optionally a Jam editor's overrides to preview
 * (the diff then shows what edit_then_approve would write).
 */
export const ZProposalReviewRequest = z
  .object({ proposal_id: ZProposalId, editorial_overrides: ZEditorialOverrides.optional() })
  .strict();
export type TProposalReviewRequest = z.infer<typeof ZProposalReviewRequest>;

/** Where a proposal came from: the user's message, the answer that carried it, its thread. */
export const ZProposalSource = z.object({
  thread_id: ZThreadId,
  thread_title: z.string(),
  response_id: ZResponseId,
  user_message: z.string(),
  assistant_text: z.string(),
  created_ts: ZIsoDate,
});

/** What approving an update would write: the target as it is now, the CFB after, and the diff. */
export const ZUpdatePreview = z.object({
  target: ZCfb,
  /** A merge: the CFB resolve pairs with the target, folded into it on approval. */
  merged: ZCfb.nullable(),
  after: ZCfbDraft,
  changes: z.array(ZCfbFieldChange),
});
export type TUpdatePreview = z.infer<typeof ZUpdatePreview>;

/**
 * The proposal page (seed 001 §3, §6): the proposal with resolve's decision, its source, and a
 * preview of each approval open to it, computed by the same code the promotion runs and against
 * the CFBs as they are now. `update` is null with `update_unavailable` saying why when no CFB
 * could be updated; both previews are null once the proposal was decided.
 */
export const ZProposalReview = z.object({
  proposal: ZProposal,
  source: ZProposalSource,
  /** Whether this caller may reopen it (`proposals.reopen`): a rejected or approved proposal, for a Jam editor. */
  reopen: z.boolean(),
  preview: z.object({
    create: ZCfbDraft.nullable(),
    update: ZUpdatePreview.nullable(),
    update_unavailable: z.string().nullable(),
  }),
});
export type TProposalReview = z.infer<typeof ZProposalReview>;

// Parsed requests, as a service receives them (defaults applied).
export type TProposalGetRequest = z.output<typeof ZProposalGetRequest>;
