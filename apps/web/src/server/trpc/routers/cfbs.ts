import { ZCfbDetail, ZCfbGetRequest, ZCfbListRequest, ZCfbListResponse } from "@solserver/contracts";
import { reviewerProcedure, router } from "../init";

export const cfbsRouter = router({
  list: reviewerProcedure
    .input(ZCfbListRequest)
    .output(ZCfbListResponse)
    .query(({ ctx, input }) => ctx.controlPlane.cfbs.list(input)),
  get: reviewerProcedure
    .input(ZCfbGetRequest)
    .output(ZCfbDetail)
    .query(({ ctx, input }) => ctx.controlPlane.cfbs.get(input.cfb_id)),
});
