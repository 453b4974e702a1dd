export { createAuth, createPasswordAccount, type TAuth } from "./auth/auth";
export { newThreadId, openControlPlane, openControlPlaneFromEnv, type TOpenOptions } from "./control-plane";
export { DEMO_JAM, DEMO_USER, ensureFirstRunAccounts } from "./demo/accounts";
export { DEMO_CFBS, DEMO_THREADS } from "./demo/demo-data";
export { seedDemo, type TSeedReport } from "./demo/seed-demo";
export { createLocalEmbeddings } from "./embeddings/local-embeddings";
export {
  createOpenAICompatibleEmbeddings,
  type TEmbeddingsOptions,
  type TEmbeddingsProvider,
} from "./embeddings/openai-embeddings";
export { loadServerEnv, type TServerEnv } from "./env";
export { jobWorkersFromEnv, startJobWorkers } from "./jobs/jobs";
export { proposalText, resolveCandidates, type TResolveKnowledge } from "./knowledge/resolve-candidates";
export { reciprocalRankFusion, type TSemanticSearch } from "./knowledge/semantic";
export {
  openSemanticSearch,
  progressLine,
  type TSemanticMatching,
  type TSemanticStatus,
} from "./knowledge/semantic-matching";
export { createOfflineModel, OFFLINE_MODEL_NAME, offlineEnvelope } from "./model/offline-model";
export { createOpenAICompatibleModel } from "./model/openai-compatible";
export {
  ModelAttemptsFailed,
  type TModelAttempt,
  type TModelCfb,
  type TModelInput,
  type TModelOutput,
  type TModelProvider,
  type TSummaryShape,
} from "./model/provider";
export { createModel } from "./model/registry";
export { describeIssues, firstIssueField, parseInput, type TIssueLike } from "./parse";
export { deriveProposals } from "./proposals/derive";
export {
  pruneRetention,
  retentionCutoffs,
  type TPruneOptions,
  type TPruneProgress,
  type TPruneReport,
} from "./retention/prune";
export { pruneLine } from "./retention/prune-line";
export {
  fuseCandidates,
  fusionFeatures,
  fusionFor,
  retrievalCandidates,
  retrieveCfbs,
  type TFusion,
  type TRetrievalCandidate,
  type TSemanticChannel,
} from "./retrieval";
export { rankCfbs } from "./retrieval-ranking";
export { canSeeThread, requireJam, requireSignedIn } from "./services/access";
// The application services. Each is `(ctx, parsedInput)`: ctx holds the dependencies and the
// caller its transport narrowed (services/context.ts). Transports call them directly.
export {
  createAccount,
  deleteAccount,
  listAccounts,
  me,
  resetAccountPassword,
  setAccountDisabled,
  setAccountRole,
} from "./services/accounts";
export { actorFromBearer, actorFromSession } from "./services/actors";
export { listAudit } from "./services/audit";
export { getCfbActivity } from "./services/cfb-activity";
export { mergeCfbs, restoreCfb, retireCfb, revertCfb } from "./services/cfb-repair";
export { createCfb, endorseCfb, getCfb, listCfbs, updateCfb } from "./services/cfbs";
export type { TCaller, TServiceContext } from "./services/context";
export {
  DEFAULT_LIMITS,
  DEFAULT_RETENTION,
  type TActor,
  type TLimits,
  type TRetention,
  type TServiceDeps,
} from "./services/deps";
export { dismissTrigger, giveFeedback, listTriggers } from "./services/feedback";
export { evaluateGate, listGateEvaluations } from "./services/gate";
export { getJob, listJobs, retryJob } from "./services/jobs";
export { getMemento, putMemento } from "./services/mementos";
export { getProcedureCatalog, getThreadProcedure } from "./services/procedures";
export { promoteProposal } from "./services/promote";
export {
  assignProposals,
  commentOnProposal,
  listProposalComments,
  proposalQueues,
} from "./services/proposal-desk";
export { reopenProposal } from "./services/proposal-reopen";
export { reviewProposal } from "./services/proposal-review";
export { getProposal, listProposals } from "./services/proposals";
export { chargeRead } from "./services/rate-limits";
export {
  activateResolveRule,
  listResolveRules,
  MIN_REFIT_DECISIONS,
  refitResolveRule,
  resolveAgreement,
  startRefit,
} from "./services/resolve-rule";
export { respondToTurn } from "./services/respond";
export { addRoutingExample, removeRoutingExample, routingOverview, teachRouting } from "./services/routing";
export {
  getSchedule,
  SCHEDULE_RUNS_SHOWN,
  type TTickItem,
  type TTickReport,
  tickSchedules,
  updateSchedule,
} from "./services/schedules";
export { refuseDisabled, reserveSignIn, signInSucceeded, type TSignInReservation } from "./services/sign-in-guard";
export {
  backoffDelaySeconds,
  backoffRule,
  backoffVerdict,
  DEFAULT_SIGN_IN_POLICY,
  type TBackoff,
  type TSignInPolicy,
  type TThrottleVerdict,
} from "./services/sign-in-policy";
export {
  health,
  READY_TIMEOUT_MS,
  readiness,
  ready,
  semanticStatus,
  warmUp,
} from "./services/system";
export { getThread, listThreads } from "./services/threads";
export { createToken, hashToken, listTokens, revokeToken, TOKEN_PREFIX } from "./services/tokens";
export type { TStreamEvent } from "./services/turn/stream-guard";
export { databaseUnavailable } from "./services/unavailable";
export {
  claimWorkflowPhase,
  completeWorkflowPhase,
  heartbeatWorkflowPhase,
} from "./services/workflow-workers";
export {
  cancelWorkflow,
  decideWorkflow,
  getWorkflowRun,
  listWorkflowRuns,
  resumeWorkflow,
  startWorkflow,
  type TStartedVia,
  waitingCheckpoints,
} from "./services/workflows";
export { openTelemetry, type TTelemetry, type TTelemetryConfig } from "./telemetry/otel";
export {
  clientAddressOf,
  normalizeAddress,
  proxyMatcher,
  type TProxyMatcher,
  throttleAddress,
  trustedProxyProblem,
} from "./trusted-proxies";
export { tickLines } from "./workflows/tick-lines";
