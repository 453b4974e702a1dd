import { createCandidateIndex, type TCandidateIndex } from "../candidates/candidate-index";
import { connectionOf, type DbClient } from "../client";
import type { TSqlDriver } from "../sql";
import { accountRepository } from "./accounts";
import { apiTokenMethods } from "./api-tokens";
import { auditRepository } from "./audit";
import { statsRepository } from "./cfb-stats";
import { cfbRepository } from "./cfbs";
import { contextRepository } from "./contexts";
import { feedbackRepository } from "./feedback";
import { gateRepository } from "./gate";
import { mementoRepository } from "./mementos";
import { proposalDeskRepository } from "./proposal-desk";
import { proposalRepository } from "./proposals";
import { rateLimitRepository } from "./rate-limits";
import { triggerRepository } from "./repetitions";
import { resolveRepository } from "./resolve";
import { resolveRuleRepository } from "./resolve-rules";
import { retentionRepository } from "./retention";
import { routingExampleRepository } from "./routing-examples";
import { scheduleRepository } from "./schedules";
import { signInThrottleRepository } from "./sign-in-throttle";
import { systemRepository } from "./system";
import { threadRepository } from "./threads";
import { traceRepository } from "./traces";
import { turnRepository } from "./turns";
import { workLeaseRepository } from "./work-leases";
import { workflowRepository } from "./workflows";

// One candidate index per client: it holds every live CFB's terms in memory, so every set of
// repositories on the same connection shares it.
const indexes = new WeakMap<DbClient, TCandidateIndex>();
function candidateIndexOf(db: DbClient, sql: TSqlDriver): TCandidateIndex {
  let index = indexes.get(db);
  if (!index) {
    index = createCandidateIndex(sql);
    indexes.set(db, index);
  }
  return index;
}

/**
 * Everything the services may ask of the database, bound to one client: one repository per
 * aggregate, each built on the store (repositories/store.ts). Services receive this object (never
 * the Prisma client), so tests and alternative stores plug in at one seam.
 */
export function createRepositories(db: DbClient) {
  const connection = connectionOf(db);
  const store = { prisma: db, sql: connection.driver };
  return {
    turns: turnRepository(store),
    cfbs: cfbRepository(store, candidateIndexOf(db, connection.driver)),
    proposals: proposalRepository(store),
    desk: proposalDeskRepository(store),
    accounts: { ...accountRepository(store), ...apiTokenMethods(store) },
    audit: auditRepository(store),
    rateLimits: rateLimitRepository(store),
    signInThrottle: signInThrottleRepository(store),
    mementos: mementoRepository(store),
    contexts: contextRepository(store),
    threads: threadRepository(store),
    resolve: resolveRepository(store),
    resolveRules: resolveRuleRepository(store),
    routingExamples: routingExampleRepository(store),
    stats: statsRepository(store),
    feedback: feedbackRepository(store),
    triggers: triggerRepository(store),
    gate: gateRepository(store),
    workflows: workflowRepository(store),
    schedules: scheduleRepository(store),
    traces: traceRepository(store),
    system: systemRepository(store),
    retention: retentionRepository(store, connection.dialect),
    workLeases: workLeaseRepository(store),
  };
}

export type TRepositories = ReturnType<typeof createRepositories>;
export type { TAccount, TRole } from "./accounts";
export type { TTokenView } from "./api-tokens";
export type { TAuditEventView, TAuditWrite } from "./audit";
export type { TCfbActivityQuery, TCfbActivityRows, TUsageDayCount } from "./cfb-activity";
export { ALL_CFBS, inScope, type TCfbScope, visibleTo } from "./cfb-visibility";
export type { TPrivateOwner } from "./cfb-write";
export type { TCfbHead, TCfbListQuery } from "./cfbs";
export type { TContextWrite, TStoredContext } from "./contexts";
export type { TGateEvaluationQuery } from "./gate";
export type { TStoredMemento } from "./mementos";
export type {
  TPromotionResult,
  TPromotionWrite,
  TProposalFacts,
  TProposalListQuery,
  TTwinCandidate,
} from "./proposals";
export type { TRateDecision } from "./rate-limits";
export type { TResolveRuleRow, TReviewedDecision } from "./resolve-rules";
export type { TPruneCounts, TRetentionCutoffs } from "./retention";
export type { TRoutingExampleRow, TRoutingExampleSource } from "./routing-examples";
export {
  INTERRUPTED_DETAIL,
  type TScheduleDetail,
  type TScheduleRow,
  type TScheduleRunRow,
  type TScheduleWrite,
} from "./schedules";
export type { TThrottleClaim, TThrottleRule, TThrottleState } from "./sign-in-throttle";
export type { TTraceEventView, TTraceRunWrite } from "./traces";
export * from "./types";
export type { TWorkflowArtifactWrite, TWorkflowRunRow } from "./workflows";
