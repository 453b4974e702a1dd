export { createAuth, createPasswordAccount, MIN_PASSWORD_LENGTH, type TAuth } from "./auth/auth";
export {
  createControlPlane,
  newThreadId,
  openControlPlane,
  openControlPlaneFromEnv,
  type TControlPlane,
  type TOpenOptions,
} from "./control-plane";
export { DEMO_JAM, DEMO_USER, ensureFirstRunAccounts } from "./demo/accounts";
export { DEMO_CFBS, DEMO_THREADS } from "./demo/demo-data";
export { seedDemo, type TSeedReport } from "./demo/seed-demo";
export {
  createOpenAICompatibleEmbeddings,
  type TEmbeddingsOptions,
  type TEmbeddingsProvider,
} from "./embeddings/openai-embeddings";
export { loadServerEnv, type TServerEnv } from "./env";
export { proposalText, resolveCandidates, type TResolveKnowledge } from "./knowledge/resolve-candidates";
export { reciprocalRankFusion, type TSemanticSearch } from "./knowledge/semantic";
export { openSemanticSearch, type TSemanticMatching, type TSemanticStatus } from "./knowledge/semantic-matching";
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
export { proposalFingerprint } from "./proposals/fingerprint";
export { rankCfbs, retrieveCfbs } from "./retrieval";
export { canSeeThread, requireJam, requireSignedIn } from "./services/access";
export { hashToken, TOKEN_PREFIX } from "./services/admin";
export { DEFAULT_LIMITS, type TActor, type TLimits, type TServiceDeps } from "./services/deps";
export { SCHEDULE_RUNS_SHOWN, type TTickItem, type TTickReport } from "./services/schedules";
export type { TStreamEvent } from "./services/turn-stream";
export { startScheduler, type TSchedulerOptions, tickLines } from "./workflows/scheduler";
