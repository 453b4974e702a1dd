import type { TCfbDraft, TRepetitionKind } from "@solserver/contracts";
import { createCandidateIndex, type TCandidateIndex } from "../candidates/candidate-index";
import { type DbClient, sqlDriverOf } from "../client";
import { openVectorStore } from "../vectors/vector-store";
import * as accounts from "./accounts";
import * as audit from "./audit";
import * as cfbActivity from "./cfb-activity";
import * as cfbImport from "./cfb-import";
import * as cfbStats from "./cfb-stats";
import * as cfbWrites from "./cfb-writes";
import * as cfbs from "./cfbs";
import * as contexts from "./contexts";
import * as feedback from "./feedback";
import * as gate from "./gate";
import * as mementos from "./mementos";
import * as promotionWrite from "./promotion-write";
import * as proposals from "./proposals";
import * as rateLimits from "./rate-limits";
import * as repetitions from "./repetitions";
import * as resolve from "./resolve";
import * as schedules from "./schedules";
import * as threads from "./threads";
import * as traces from "./traces";
import * as turns from "./turns";
import type { TGateEvaluationWrite } from "./types";
import * as workflows from "./workflows";

// One candidate index per client: it holds every live CFB's terms in memory, so every set of
// repositories on the same connection shares it.
const indexes = new WeakMap<DbClient, TCandidateIndex>();
function candidateIndexOf(db: DbClient, sql: ReturnType<typeof sqlDriverOf>): TCandidateIndex {
  let index = indexes.get(db);
  if (!index) {
    index = createCandidateIndex(sql);
    indexes.set(db, index);
  }
  return index;
}

/**
 * Everything the services may ask of the database, bound to one client. Services receive this
 * object (never the Prisma client), so tests and alternative stores plug in at one seam.
 */
export function createRepositories(db: DbClient) {
  // Queries that run on every chat turn use the hot-path driver on the same connection (sql.ts).
  const sql = sqlDriverOf(db);
  const index = candidateIndexOf(db, sql);
  return {
    turns: {
      findByRequestId: (callerId: string, requestId: string) => turns.findTurnByRequestId(db, sql, callerId, requestId),
      history: (threadId: string, limit: number) => turns.getThreadHistory(sql, threadId, limit),
      responseThread: (responseId: string) => turns.responseThread(db, responseId),
      responseSource: (responseId: string) => turns.responseSource(db, responseId),
      threadOwner: (threadId: string) => turns.threadOwner(sql, threadId),
      record: (turn: Parameters<typeof turns.recordTurn>[1]) => turns.recordTurn(sql, turn),
      lastResponse: (threadId: string) => turns.lastResponse(sql, threadId),
      /** The thread's previous router_domain and its recent answers' domainHints (the selector's input). */
      routingHistory: (threadId: string, limit: number) => turns.routingHistory(sql, threadId, limit),
    },
    cfbs: {
      list: (q: cfbs.TCfbListQuery) => cfbs.listCfbs(db, sql, q),
      get: (cfbId: string) => cfbs.getCfb(db, cfbId),
      activity: (q: cfbActivity.TCfbActivityQuery) => cfbActivity.getCfbActivity(db, sql, q),
      existingIds: (ids: readonly string[]) => cfbs.existingCfbIds(sql, ids),
      /** Id, version and merge of each CFB among `ids` that exists (the review queue's targets). */
      heads: (ids: readonly string[]) => cfbs.cfbHeads(sql, ids),
      /** The CFBs among `ids` with retrieval's signals, in that order (retrieval's second step). */
      retrievable: (ids: readonly string[], now?: Date) => cfbs.retrievableCfbs(sql, ids, now),
      /** Resolve's candidates from the candidate index (candidates/candidate-index.ts). */
      candidates: index.candidates,
      /** The candidate index itself: weighted search, sync, status. */
      index,
      /** The vector index of semantic matching, for one embeddings model (vectors/vector-store.ts). */
      openVectors: (model: string, dims: number) => openVectorStore(db, sql, model, dims),
      create: (draft: Parameters<typeof cfbWrites.createCfb>[1], actor?: Parameters<typeof cfbWrites.createCfb>[2]) =>
        cfbWrites.createCfb(db, draft, actor),
      update: (...args: Tail<Parameters<typeof cfbWrites.updateCfb>>) => cfbWrites.updateCfb(db, ...args),
      count: () => cfbWrites.countCfbs(db),
      /** Many CFBs in one transaction (imports, benchmarks); ids in draft order. */
      import: (drafts: readonly TCfbDraft[]) => cfbImport.importCfbs(sql, drafts),
    },
    proposals: {
      list: (q: proposals.TProposalListQuery) => proposals.listProposals(db, sql, q),
      get: (proposalId: string) => proposals.getProposal(db, proposalId),
      /** A response's proposals as a promotion's checks read them (one statement). */
      facts: (responseId: string) => proposals.proposalFacts(sql, responseId),
      applyPromotion: (w: promotionWrite.TPromotionWrite) => promotionWrite.applyPromotion(sql, w),
    },
    accounts: {
      get: (userId: string) => accounts.getAccount(db, userId),
      byEmail: (email: string) => accounts.findAccountByEmail(db, email),
      list: () => accounts.listAccounts(db),
      record: (userId: string) => accounts.getAccountRecord(db, userId),
      setRole: (...args: Tail<Parameters<typeof accounts.setRole>>) => accounts.setRole(db, ...args),
      byTokenHash: (tokenHash: string, now: Date) => accounts.accountForTokenHash(db, tokenHash, now),
      createToken: (...args: Tail<Parameters<typeof accounts.createToken>>) => accounts.createToken(db, ...args),
      revokeToken: (...args: Tail<Parameters<typeof accounts.revokeToken>>) => accounts.revokeToken(db, ...args),
      listTokens: () => accounts.listTokens(db),
    },
    audit: {
      list: (q: Parameters<typeof audit.listAudit>[1]) => audit.listAudit(db, q),
    },
    rateLimits: {
      hit: (...args: Tail<Parameters<typeof rateLimits.hitRateLimit>>) => rateLimits.hitRateLimit(sql, ...args),
      peek: (...args: Tail<Parameters<typeof rateLimits.peekRateLimit>>) => rateLimits.peekRateLimit(db, ...args),
      refund: (key: string) => rateLimits.refundRateLimit(db, key),
      clear: (key: string) => rateLimits.clearRateLimit(db, key),
    },
    mementos: {
      get: (threadId: string) => mementos.getMemento(sql, threadId),
      put: (...args: Tail<Parameters<typeof mementos.putMemento>>) => mementos.putMemento(sql, ...args),
    },
    contexts: {
      /** A thread's procedure binding and stored engine state; null when the thread is not bound. */
      get: (threadId: string) => contexts.getContext(sql, threadId),
      /** The user messages of a bound thread since its binding (to rebuild a lost state). */
      messages: (threadId: string, since: Date) => contexts.procedureMessages(sql, threadId, since),
    },
    threads: {
      list: (ownerId: string | undefined, limit: number) => threads.listThreads(db, ownerId, limit),
      get: (threadId: string) => threads.getThreadDetail(db, threadId),
    },
    resolve: {
      previous: (fingerprint: string) => resolve.previousResolveDecision(sql, fingerprint),
      list: (proposalId: string) => resolve.listResolveDecisions(db, proposalId),
    },
    stats: {
      /** Recomputes every CFB's stats from the last 30 days of events (see cfb-stats.ts). */
      rebuild: (now?: Date) => cfbStats.rebuildCfbStats(sql, now),
    },
    feedback: {
      record: (w: feedback.TFeedbackWrite) => feedback.recordFeedback(sql, w),
      responseDomain: (responseId: string) => feedback.responseDomain(sql, responseId),
      count: (responseId: string) => feedback.feedbackCount(db, responseId),
    },
    triggers: {
      list: (thresholds: Record<TRepetitionKind, number>, limit: number) =>
        repetitions.listPromotionTriggers(db, thresholds, limit),
      dismiss: (triggerId: string) => repetitions.dismissPromotionTrigger(db, triggerId),
      count: (...args: Tail<Parameters<typeof repetitions.countRepetitions>>) =>
        sql.transaction((tx) => repetitions.countRepetitions(tx, ...args)),
    },
    gate: {
      record: (rows: TGateEvaluationWrite[]) => gate.insertGateEvaluations(sql, rows),
      list: (q: gate.TGateEvaluationQuery) => gate.listGateEvaluations(db, q),
    },
    workflows: {
      create: (w: Parameters<typeof workflows.createWorkflowRun>[1]) => workflows.createWorkflowRun(db, w),
      get: (runId: string) => workflows.getWorkflowRun(db, runId),
      list: (q: Parameters<typeof workflows.listWorkflowRuns>[1]) => workflows.listWorkflowRuns(db, q),
      save: (...args: Tail<Parameters<typeof workflows.saveWorkflowRun>>) => workflows.saveWorkflowRun(db, ...args),
      artifacts: (runId: string, paths: readonly string[]) => workflows.workflowArtifacts(db, runId, paths),
    },
    schedules: {
      list: () => schedules.listSchedules(db),
      /** A schedule with its run-as account and latest occurrences; null when never set. */
      get: (workflow: string, runLimit = 20) => schedules.getSchedule(db, workflow, runLimit),
      upsert: (...args: Tail<Parameters<typeof schedules.upsertSchedule>>) => schedules.upsertSchedule(db, ...args),
      /** Atomically claims a due occurrence (see schedules.ts); its id, or null when lost. */
      claim: (c: Parameters<typeof schedules.claimOccurrence>[1]) => schedules.claimOccurrence(db, c),
      finish: (...args: Tail<Parameters<typeof schedules.finishOccurrence>>) => schedules.finishOccurrence(db, ...args),
      openRun: (workflow: string) => schedules.openWorkflowRun(db, workflow),
    },
    traces: {
      /** A run on its own (a turn that failed before anything else was stored), in one transaction. */
      write: (run: traces.TTraceRunWrite) => sql.transaction((tx) => traces.insertTraceRun(tx, run)),
      forTransmission: (transmissionId: string) => traces.listTraceEventsForTransmission(db, transmissionId),
    },
  };
}

/** A function's parameters without the first (the database client the repositories bind). */
type Tail<T extends unknown[]> = T extends [unknown, ...infer R] ? R : never;

export type TRepositories = ReturnType<typeof createRepositories>;
export type { TAccount, TRole, TTokenView } from "./accounts";
export type { TAuditEventView, TAuditWrite } from "./audit";
export type { TCfbActivityQuery, TCfbActivityRows, TUsageDayCount } from "./cfb-activity";
export type { TCfbHead, TCfbListQuery } from "./cfbs";
export type { TContextWrite, TStoredContext } from "./contexts";
export type { TGateEvaluationQuery } from "./gate";
export type { TStoredMemento } from "./mementos";
export type { TPromotionResult, TPromotionWrite, TProposalFacts, TProposalListQuery } from "./proposals";
export type { TRateDecision } from "./rate-limits";
export {
  INTERRUPTED_DETAIL,
  type TScheduleDetail,
  type TScheduleRow,
  type TScheduleRunRow,
  type TScheduleWrite,
} from "./schedules";
export type { TTraceEventView, TTraceRunWrite } from "./traces";
export * from "./types";
export type { TWorkflowArtifactWrite, TWorkflowRunRow } from "./workflows";
