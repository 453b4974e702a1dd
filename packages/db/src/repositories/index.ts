import type { DbClient } from "../client";
import * as cfbWrites from "./cfb-writes";
import * as cfbs from "./cfbs";
import * as proposals from "./proposals";
import * as traces from "./traces";
import * as turns from "./turns";

/**
 * Everything the services may ask of the database, bound to one client. Services receive this
 * object (never the Prisma client), so tests and alternative stores plug in at one seam.
 */
export function createRepositories(db: DbClient) {
  return {
    turns: {
      findByRequestId: (requestId: string) => turns.findTurnByRequestId(db, requestId),
      history: (threadId: string, limit: number) => turns.getThreadHistory(db, threadId, limit),
      responseExists: (responseId: string) => turns.responseExists(db, responseId),
      record: (turn: Parameters<typeof turns.recordTurn>[1]) => turns.recordTurn(db, turn),
    },
    cfbs: {
      list: (q: cfbs.TCfbListQuery) => cfbs.listCfbs(db, q),
      get: (cfbId: string) => cfbs.getCfb(db, cfbId),
      existingIds: (ids: readonly string[]) => cfbs.existingCfbIds(db, ids),
      retrievable: (limit: number) => cfbs.listRetrievableCfbs(db, limit),
      create: (draft: Parameters<typeof cfbWrites.createCfb>[1]) => cfbWrites.createCfb(db, draft),
      count: () => cfbWrites.countCfbs(db),
    },
    proposals: {
      list: (q: proposals.TProposalListQuery) => proposals.listProposals(db, q),
      get: (proposalId: string) => proposals.getProposal(db, proposalId),
      applyPromotion: (w: proposals.TPromotionWrite) => proposals.applyPromotion(db, w),
    },
    traces: {
      write: (run: traces.TTraceRunWrite) => traces.writeTraceRun(db, run),
      forTransmission: (transmissionId: string) => traces.listTraceEventsForTransmission(db, transmissionId),
    },
  };
}

export type TRepositories = ReturnType<typeof createRepositories>;
export type { TCfbListQuery } from "./cfbs";
export type { TPromotionResult, TPromotionWrite, TProposalListQuery } from "./proposals";
export type { TTraceEventView, TTraceRunWrite } from "./traces";
export * from "./types";
