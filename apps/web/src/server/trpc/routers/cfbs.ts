import {
  ZCfb,
  ZCfbActivity,
  ZCfbActivityRequest,
  ZCfbCreateRequest,
  ZCfbEndorseRequest,
  ZCfbGetRequest,
  ZCfbListRequest,
  ZCfbListResponse,
  ZCfbMergeRequest,
  ZCfbMergeResponse,
  ZCfbRetirement,
  ZCfbRetireRequest,
  ZCfbRevertRequest,
  ZCfbUpdateRequest,
  ZCfbView,
} from "@solserver/contracts";
import {
  createCfb,
  endorseCfb,
  getCfb,
  getCfbActivity,
  listCfbs,
  mergeCfbs,
  restoreCfb,
  retireCfb,
  revertCfb,
  updateCfb,
} from "@solserver/control-plane";
import { jamProcedure, router, signedInProcedure } from "../init";

export const cfbsRouter = router({
  list: signedInProcedure
    .input(ZCfbListRequest)
    .output(ZCfbListResponse)
    .query(({ ctx, input }) => listCfbs(ctx, input)),
  /** The CFB's page: the CFB, its history, and what this caller may do to it. */
  get: signedInProcedure
    .input(ZCfbGetRequest)
    .output(ZCfbView)
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
  /** An earlier version's content as a new version, based on `version`. */
  revert: jamProcedure
    .input(ZCfbRevertRequest)
    .output(ZCfb)
    .mutation(({ ctx, input }) => revertCfb(ctx, input)),
  /** Out of retrieval, resolve and the default list; page and history kept. */
  retire: jamProcedure
    .input(ZCfbRetireRequest)
    .output(ZCfbRetirement)
    .mutation(({ ctx, input }) => retireCfb(ctx, input)),
  /** A retired CFB back into use. */
  restore: jamProcedure
    .input(ZCfbRetireRequest)
    .output(ZCfbRetirement)
    .mutation(({ ctx, input }) => restoreCfb(ctx, input)),
  /** Another CFB folded into this one, as a promotion's merge does. */
  merge: jamProcedure
    .input(ZCfbMergeRequest)
    .output(ZCfbMergeResponse)
    .mutation(({ ctx, input }) => mergeCfbs(ctx, input)),
});
