import {
  ZCfb,
  ZCfbActivity,
  ZCfbActivityRequest,
  ZCfbCreateRequest,
  ZCfbDetail,
  ZCfbEndorseRequest,
  ZCfbGetRequest,
  ZCfbListRequest,
  ZCfbListResponse,
  ZCfbUpdateRequest,
} from "@solserver/contracts";
import { createCfb, endorseCfb, getCfb, getCfbActivity, listCfbs, updateCfb } from "@solserver/control-plane";
import { jamProcedure, router, signedInProcedure } from "../init";

export const cfbsRouter = router({
  list: signedInProcedure
    .input(ZCfbListRequest)
    .output(ZCfbListResponse)
    .query(({ ctx, input }) => listCfbs(ctx, input)),
  get: signedInProcedure
    .input(ZCfbGetRequest)
    .output(ZCfbDetail)
    .query(({ ctx, input }) => getCfb(ctx, input)),
  /** Stats, usage per day and the proposals that touched the CFB (a user's own threads' only). */
  activity: signedInProcedure
    .input(ZCfbActivityRequest)
    .output(ZCfbActivity)
    .query(({ ctx, input }) => getCfbActivity(ctx, input)),
  /** Jam editors author knowledge directly. */
  create: jamProcedure
    .input(ZCfbCreateRequest)
    .output(ZCfb)
    .mutation(({ ctx, input }) => createCfb(ctx, input)),
  /** An edit based on `version`; CONFLICT when the CFB moved meanwhile. */
  update: jamProcedure
    .input(ZCfbUpdateRequest)
    .output(ZCfb)
    .mutation(({ ctx, input }) => updateCfb(ctx, input)),
  /** A private CFB (a user's own approval) into shared knowledge, as of `version`; audited. */
  endorse: jamProcedure
    .input(ZCfbEndorseRequest)
    .output(ZCfb)
    .mutation(({ ctx, input }) => endorseCfb(ctx, input)),
});
