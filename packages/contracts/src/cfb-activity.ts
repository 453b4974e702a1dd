import { z } from "zod";
import { ZCfbId, ZIsoDate, ZProposalId } from "./ids";
import { ZCfbOp } from "./output-envelope";
import { ZPromoteAction } from "./promotion-enums";
import { ZProposalStatus } from "./proposals";

/** The most proposals a CFB page lists (newest first). */
export const CFB_ACTIVITY_PROPOSALS_LIMIT = 50;

export const ZCfbActivityRequest = z.object({
  cfb_id: ZCfbId,
  /** How many days of usage to chart, today (UTC) included. */
  days: z.number().int().min(1).max(90).default(30),
});
export type TCfbActivityRequest = z.input<typeof ZCfbActivityRequest>;

/** The CFB's stats row (seed 001 §2.2; docs/stats.md), as served on the wire. */
export const ZCfbActivityStats = z.object({
  usage_30d: z.number().int().min(0),
  used_by_model_30d: z.number().int().min(0),
  ignored_by_model_30d: z.number().int().min(0),
  positive_feedback_30d: z.number().int().min(0),
  negative_feedback_30d: z.number().int().min(0),
  correction_events_30d: z.number().int().min(0),
  unknown_rate_when_injected: z.number().min(0).max(1),
  hotness: z.number().min(0).max(1),
  last_feedback_ts: ZIsoDate.nullable(),
  updated_ts: ZIsoDate,
});
export type TCfbActivityStats = z.infer<typeof ZCfbActivityStats>;

/** One UTC day of usage events: how often the CFB was injected, used and ignored. */
export const ZCfbUsageDay = z.object({
  day: z.iso.date(),
  injected: z.number().int().min(0),
  used: z.number().int().min(0),
  ignored: z.number().int().min(0),
});
export type TCfbUsageDay = z.infer<typeof ZCfbUsageDay>;

/**
 * How a proposal touched the CFB: it was promoted into it (its promotion's final CFB), or it only
 * named it as its target (pending, rejected, or approved into another CFB).
 */
export const ZCfbProposalRelation = z.enum(["target", "promoted_into"]);
export type TCfbProposalRelation = z.infer<typeof ZCfbProposalRelation>;

export const ZCfbActivityProposal = z.object({
  proposal_id: ZProposalId,
  title: z.string(),
  op: ZCfbOp,
  status: ZProposalStatus,
  relation: ZCfbProposalRelation,
  /** The promotion's action; null while the proposal is pending. */
  action: ZPromoteAction.nullable(),
  created_ts: ZIsoDate,
});
export type TCfbActivityProposal = z.infer<typeof ZCfbActivityProposal>;

/** What the CFB page shows below the CFB: stats, usage per day, the proposals that touched it. */
export const ZCfbActivity = z.object({
  cfb_id: ZCfbId,
  /** null when the CFB has no stats row (every CFB written by the app gets one). */
  stats: ZCfbActivityStats.nullable(),
  /** One entry per UTC day of the requested window, oldest first, today last, zero-filled. */
  usage_by_day: z.array(ZCfbUsageDay),
  /** Newest first, at most 50; a user sees those of their own threads, a Jam editor every one. */
  proposals: z.array(ZCfbActivityProposal).max(CFB_ACTIVITY_PROPOSALS_LIMIT),
});
export type TCfbActivity = z.infer<typeof ZCfbActivity>;
