import { randomUUID } from "node:crypto";
import type {
  TCfbActivityRequest,
  TChatRespondRequest,
  TGateConfigInput,
  TPromoteRequest,
  TProposalReviewRequest,
  TRepetitionKind,
  TRoutingConfig,
  TWorkflowDecideRequest,
  TWorkflowStartRequest,
  ZAccountCreateRequest,
  ZAccountSetRoleRequest,
  ZAuditListRequest,
  ZCfbCreateRequest,
  ZCfbUpdateRequest,
  ZFeedbackRequest,
  ZGateEvaluateRequest,
  ZGateEvaluationListQuery,
  ZScheduleGetRequest,
  ZScheduleUpdateRequest,
  ZThreadMementoWrite,
  ZTokenCreateRequest,
  ZTriggerDismissRequest,
  ZTriggerListRequest,
} from "@solserver/contracts";
import { ZCfbListRequest, ZProposalListRequest, ZWorkflowRunListRequest } from "@solserver/contracts";
import { createPrismaClient, createRepositories, type DbClient, type TRepositories } from "@solserver/db";
import { RV_SERVICE_CATALOG, type TCatalog } from "@solserver/engine";
import type { z } from "zod";
import { createAuth, createPasswordAccount, type TAuth } from "./auth/auth";
import { createOpenAICompatibleEmbeddings, type TEmbeddingsProvider } from "./embeddings/openai-embeddings";
import { loadServerEnv, type TServerEnv } from "./env";
import { pipelineGateConfig } from "./gate/pipeline-config";
import { semanticHandle } from "./knowledge/semantic-matching";
import { createOfflineModel } from "./model/offline-model";
import type { TModelProvider } from "./model/provider";
import { createModel } from "./model/registry";
import { DEFAULT_ROUTING } from "./routing/default-routing";
import { actorFromBearer, actorFromSession } from "./services/actors";
import * as admin from "./services/admin";
import { getCfbActivity } from "./services/cfb-activity";
import { DEFAULT_LIMITS, type TActor, type TLimits, type TServiceDeps } from "./services/deps";
import { dismissTrigger, giveFeedback, listTriggers } from "./services/feedback";
import { evaluateGate, listGateEvaluations } from "./services/gate";
import { getMemento, putMemento } from "./services/mementos";
import { getProcedureCatalog, getThreadProcedure } from "./services/procedures";
import { promoteProposal } from "./services/promote";
import { reviewProposal } from "./services/proposal-review";
import { refundSignIn, reserveSignIn } from "./services/rate-limits";
import { getCfb, getProposal, listCfbs, listProposals } from "./services/read";
import { DEFAULT_REPETITION_THRESHOLDS } from "./services/resolve";
import { respondToTurn } from "./services/respond";
import { getSchedule, tickSchedules, updateSchedule } from "./services/schedules";
import type { TStreamEvent } from "./services/turn-stream";
import {
  decideWorkflow,
  getWorkflowRun,
  listWorkflowRuns,
  resumeWorkflow,
  startWorkflow,
  type TStartedVia,
} from "./services/workflows";

/**
 * The application services, bound to their dependencies. Transports call only these, passing
 * the actor they resolved; every service checks that actor itself.
 */
export function createControlPlane(deps: TServiceDeps) {
  return {
    actors: {
      fromBearer: (token: string) => actorFromBearer(deps, token),
      fromSession: (userId: string) => actorFromSession(deps, userId),
    },
    signIn: {
      reserve: (email: string, ip: string) => reserveSignIn(deps, email, ip),
      refund: (email: string, ip: string) => refundSignIn(deps, email, ip),
    },
    me: (actor: TActor) => admin.me(deps, actor),
    chat: {
      respond: (actor: TActor, input: TChatRespondRequest) => respondToTurn(deps, actor, input),
      /** The same turn, with the answer's text sent to `send` as the model writes it (see turn-stream.ts). */
      respondStreaming: (actor: TActor, input: TChatRespondRequest, send: (event: TStreamEvent) => void) =>
        respondToTurn(deps, actor, input, { send }),
    },
    proposals: {
      list: (actor: TActor, input: z.input<typeof ZProposalListRequest>) =>
        listProposals(deps, actor, ZProposalListRequest.parse(input)),
      get: (actor: TActor, proposalId: string) => getProposal(deps, actor, proposalId),
      review: (actor: TActor, input: TProposalReviewRequest) => reviewProposal(deps, actor, input),
    },
    promotion: {
      promote: (actor: TActor, input: TPromoteRequest) => promoteProposal(deps, actor, input),
    },
    cfbs: {
      list: (actor: TActor, input: z.input<typeof ZCfbListRequest>) =>
        listCfbs(deps, actor, ZCfbListRequest.parse(input)),
      get: (actor: TActor, cfbId: string) => getCfb(deps, actor, cfbId),
      activity: (actor: TActor, input: TCfbActivityRequest) => getCfbActivity(deps, actor, input),
      create: (actor: TActor, input: z.output<typeof ZCfbCreateRequest>) => admin.createCfb(deps, actor, input),
      update: (actor: TActor, input: z.output<typeof ZCfbUpdateRequest>) => admin.updateCfb(deps, actor, input),
    },
    workflows: {
      start: (actor: TActor, input: TWorkflowStartRequest, via?: TStartedVia) => startWorkflow(deps, actor, input, via),
      decide: (actor: TActor, input: TWorkflowDecideRequest) => decideWorkflow(deps, actor, input),
      resume: (actor: TActor, runId: string) => resumeWorkflow(deps, actor, runId),
      get: (actor: TActor, runId: string) => getWorkflowRun(deps, actor, runId),
      list: (actor: TActor, input: z.input<typeof ZWorkflowRunListRequest>) =>
        listWorkflowRuns(deps, actor, ZWorkflowRunListRequest.parse(input)),
    },
    schedules: {
      get: (actor: TActor, input: z.input<typeof ZScheduleGetRequest>) => getSchedule(deps, actor, input),
      update: (actor: TActor, input: z.input<typeof ZScheduleUpdateRequest>) => updateSchedule(deps, actor, input),
      /** Starts every due scheduled workflow (the server's timer, `pnpm workflow tick`); no actor. */
      tick: (now?: Date) => {
        // Each tick also embeds what a failed sync left pending (semantic matching on).
        deps.semantic?.afterWrite();
        return tickSchedules(deps, now);
      },
    },
    procedures: {
      catalog: (actor: TActor) => getProcedureCatalog(deps, actor),
      get: (actor: TActor, threadId: string) => getThreadProcedure(deps, actor, threadId),
    },
    mementos: {
      get: (actor: TActor, threadId: string) => getMemento(deps, actor, threadId),
      put: (actor: TActor, input: z.output<typeof ZThreadMementoWrite>) => putMemento(deps, actor, input),
    },
    threads: {
      list: (actor: TActor, limit: number) => admin.listThreads(deps, actor, limit),
      get: (actor: TActor, threadId: string) => admin.getThread(deps, actor, threadId),
    },
    tokens: {
      list: (actor: TActor) => admin.listTokens(deps, actor),
      create: (actor: TActor, input: z.output<typeof ZTokenCreateRequest>) => admin.createToken(deps, actor, input),
      revoke: (actor: TActor, tokenId: string) => admin.revokeToken(deps, actor, tokenId),
    },
    users: {
      list: (actor: TActor) => admin.listAccounts(deps, actor),
      create: (actor: TActor, input: z.output<typeof ZAccountCreateRequest>) => admin.createAccount(deps, actor, input),
      setRole: (actor: TActor, input: z.output<typeof ZAccountSetRoleRequest>) =>
        admin.setAccountRole(deps, actor, input),
    },
    audit: {
      list: (actor: TActor, input: z.output<typeof ZAuditListRequest>) => admin.listAudit(deps, actor, input),
    },
    feedback: {
      give: (actor: TActor, input: z.input<typeof ZFeedbackRequest>) => giveFeedback(deps, actor, input),
    },
    triggers: {
      list: (actor: TActor, input: z.input<typeof ZTriggerListRequest>) => listTriggers(deps, actor, input),
      dismiss: (actor: TActor, input: z.input<typeof ZTriggerDismissRequest>) => dismissTrigger(deps, actor, input),
    },
    gate: {
      evaluate: (actor: TActor, input: z.input<typeof ZGateEvaluateRequest>) => evaluateGate(deps, actor, input),
      list: (actor: TActor, input: z.input<typeof ZGateEvaluationListQuery>) => listGateEvaluations(deps, actor, input),
    },
    system: {
      /** Liveness with a real database read, for probes and start-up checks. */
      health: async () => ({ status: "ok" as const, model: deps.model.name, cfbs: await deps.repos.cfbs.count() }),
    },
  };
}
export type TControlPlane = ReturnType<typeof createControlPlane>;

/** Short, URL-safe thread id: "th-" and 16 hex characters. */
export function newThreadId(): string {
  return `th-${randomUUID().replaceAll("-", "").slice(0, 16)}`;
}

export type TOpenOptions = {
  databaseUrl: string;
  model?: TModelProvider;
  limits?: Partial<TLimits>;
  /** Overrides of the output gate's pipeline config (thresholds, pricing, PII allowlist). */
  gate?: TGateConfigInput;
  /** Overrides of the repetition thresholds that raise promotion triggers. */
  repetitionThresholds?: Partial<Record<TRepetitionKind, number>>;
  /** The procedure catalog; the shipped RV service catalog when not given. */
  catalog?: TCatalog;
  /** The selector step's routing config; the shipped domains when not given. */
  routing?: TRoutingConfig;
  /** When given, accounts can be created (users.create, the setup command) and cookies resolved. */
  auth?: Omit<Parameters<typeof createAuth>[0], "prisma">;
  /** An embeddings provider switches semantic matching on (docs/resolve.md). */
  embeddings?: TEmbeddingsProvider;
};

/**
 * Opens the control plane on a (migrated) database, with the offline model unless another is
 * given. The web app and scripts use this (see `openControlPlaneFromEnv`); tests pass their own.
 */
export async function openControlPlane(opts: TOpenOptions): Promise<{
  controlPlane: TControlPlane;
  repos: TRepositories;
  auth: TAuth | null;
  db: DbClient;
}> {
  const db = await createPrismaClient(opts.databaseUrl);
  const repos = createRepositories(db);
  const auth = opts.auth ? createAuth({ ...opts.auth, prisma: db }) : null;
  const controlPlane = createControlPlane({
    repos,
    model: opts.model ?? createOfflineModel(),
    now: () => new Date(),
    newThreadId,
    limits: { ...DEFAULT_LIMITS, ...opts.limits },
    gate: pipelineGateConfig(opts.gate),
    repetitionThresholds: { ...DEFAULT_REPETITION_THRESHOLDS, ...opts.repetitionThresholds },
    catalog: opts.catalog ?? RV_SERVICE_CATALOG,
    routing: opts.routing ?? DEFAULT_ROUTING,
    semantic: opts.embeddings ? semanticHandle(repos, opts.embeddings) : undefined,
    ...(auth
      ? { createAccount: (u: Parameters<typeof createPasswordAccount>[1]) => createPasswordAccount(auth, u) }
      : {}),
  });
  return { controlPlane, repos, auth, db };
}

/** The control plane as the environment configures it (database, model, limits, auth). */
export function openControlPlaneFromEnv(env: TServerEnv = loadServerEnv()) {
  return openControlPlane({
    databaseUrl: env.DATABASE_URL,
    model: createModel(env.SOLSERVER_MODEL, env),
    limits: { chatTurnsPerMinute: env.SOLSERVER_CHAT_TURNS_PER_MINUTE },
    gate: env.gateConfig,
    repetitionThresholds: env.repetitionThresholds,
    catalog: env.catalog,
    routing: env.routing,
    ...(env.embeddings ? { embeddings: createOpenAICompatibleEmbeddings(env.embeddings) } : {}),
    auth: { secret: env.BETTER_AUTH_SECRET, baseURL: env.SOLSERVER_BASE_URL, trustedOrigins: env.trustedOrigins },
  });
}
