import {
  ZCfb,
  ZCfbActivity,
  ZCfbActivityRequest,
  ZCfbCreateRequest,
  ZCfbDetail,
  ZCfbGetRequest,
  ZCfbListRequest,
  ZCfbListResponse,
  ZCfbUpdateRequest,
} from "@solserver/contracts";
import { jamProcedure, router, signedInProcedure } from "../init";

export const cfbsRouter = router({
  list: signedInProcedure
    .input(ZCfbListRequest)
    .output(ZCfbListResponse)
    .query(({ ctx, input }) => ctx.controlPlane.cfbs.list(ctx.actor, input)),
  get: signedInProcedure
    .input(ZCfbGetRequest)
    .output(ZCfbDetail)
    .query(({ ctx, input }) => ctx.controlPlane.cfbs.get(ctx.actor, input.cfb_id)),
  /** Stats, usage per day and the proposals that touched the CFB (a user's own threads' only). */
  activity: signedInProcedure
    .input(ZCfbActivityRequest)
    .output(ZCfbActivity)
    .query(({ ctx, input }) => ctx.controlPlane.cfbs.activity(ctx.actor, input)),
  /** Jam editors author knowledge directly. */
  create: jamProcedure
    .input(ZCfbCreateRequest)
    .output(ZCfb)
    .mutation(({ ctx, input }) => ctx.controlPlane.cfbs.create(ctx.actor, input)),
  /** An edit based on `version`; CONFLICT when the CFB moved meanwhile. */
  update: jamProcedure
    .input(ZCfbUpdateRequest)
    .output(ZCfb)
    .mutation(({ ctx, input }) => ctx.controlPlane.cfbs.update(ctx.actor, input)),
});
