import { z } from "zod";
import { ZCfb, ZCfbKind } from "./cfb";
import { ZCfbId, ZIsoDate, ZPromotionId, ZProposalId, ZResponseId } from "./ids";
import { ZPromoteAction } from "./promotion-enums";

const ZLabel = z.string().trim().min(1).max(64);

export const ZEditorialOverrides = z
  .object({
    tags_add: z.array(ZLabel).max(32).optional(),
    tags_remove: z.array(ZLabel).max(32).optional(),
    title_edit: z.string().trim().min(1).max(200).optional(),
    summary_edit: z.string().trim().min(1).max(2000).optional(),
    text_edit: z.string().max(20000).optional(),
    kind: ZCfbKind.optional(),
    confidence: z.number().min(0).max(1).optional(),
    /**
     * The domain the CFB is filed under, when the reviewer moves the proposal to another (a domain
     * of the routing config): the turn's message is then learned by the router as that domain's.
     */
    domain: z
      .string()
      .trim()
      .regex(/^[a-z][a-z0-9_-]*$/, { error: 'must be a lowercase domain id such as "rv_service"' })
      .max(64)
      .optional(),
  })
  .strict();
export type TEditorialOverrides = z.infer<typeof ZEditorialOverrides>;

export const ZPromoteRequest = z
  .object({
    proposal_id: ZProposalId,
    // Optional cross-check: when given it must be the response the proposal came from.
    response_id: ZResponseId.optional(),
    action: ZPromoteAction,
    editorial_overrides: ZEditorialOverrides.optional(),
    /**
     * For an update or merge: the version of the target CFB the person reviewed. When the CFB
     * has moved since, the promotion is CONFLICT and writes nothing.
     */
    expected_cfb_version: z.number().int().min(1).optional(),
    /** A rejection's reason, in the reviewer's words: kept with the decision, shown to the proposer. */
    reason: z.string().trim().min(1).max(1000).optional(),
    /**
     * "Already known": a rejection because this CFB already says it. Nothing is written to the CFB;
     * the decision's reason names it (issue 35). The CFB must exist and be visible to the caller.
     */
    known_cfb_id: ZCfbId.optional(),
  })
  .strict()
  .refine((r) => r.reason === undefined || r.action === "reject", {
    message: "reason is only for action reject",
    path: ["reason"],
  })
  .refine((r) => r.known_cfb_id === undefined || r.action === "reject", {
    message: "known_cfb_id is only for action reject (already known)",
    path: ["known_cfb_id"],
  });
export type TPromoteRequest = z.infer<typeof ZPromoteRequest>;

export const ZPromoteResponse = z.object({
  promotion_id: ZPromotionId,
  proposal_id: ZProposalId,
  action: ZPromoteAction,
  status: z.enum(["approved", "rejected"]),
  final_cfb_id: ZCfbId.nullable(),
  cfb: ZCfb.nullable(),
  /** A merge: the CFB folded into `final_cfb_id` (its id now resolves to the survivor). */
  merged_cfb_id: ZCfbId.nullable(),
  /** Who decided (the caller's email) and when. */
  decided_by: z.string().nullable(),
  decided_ts: ZIsoDate,
  /** Pending twins of the proposal folded by this decision (status `duplicate`). */
  folded_proposal_ids: z.array(ZProposalId),
});
export type TPromoteResponse = z.infer<typeof ZPromoteResponse>;
