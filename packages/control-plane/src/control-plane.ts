import { randomUUID } from "node:crypto";
import type { TGateConfigInput, TRepetitionKind, TRoutingConfig, TTagAliasConfigInput } from "@solserver/contracts";
import { ZTagAliasConfig } from "@solserver/contracts";
import { createPrismaClient, createRepositories, type DbClient, type TRepositories } from "@solserver/db";
import { RV_SERVICE_CATALOG, type TCatalog } from "@solserver/engine";
import { createAuth, createPasswordAccount, setAccountPassword, type TAuth } from "./auth/auth";
import { createLocalEmbeddings } from "./embeddings/local-embeddings";
import { createOpenAICompatibleEmbeddings, type TEmbeddingsProvider } from "./embeddings/openai-embeddings";
import { loadServerEnv, type TServerEnv } from "./env";
import { pipelineGateConfig } from "./gate/pipeline-config";
import { openJobQueue } from "./jobs/jobs";
import { semanticHandle } from "./knowledge/semantic-matching";
import { createTagNormalizer, tagAliasTable } from "./knowledge/tags";
import { createOfflineModel } from "./model/offline-model";
import type { TModelProvider } from "./model/provider";
import { createModel } from "./model/registry";
import { routingHandle } from "./routing/router";
import { DEFAULT_ROUTING } from "./routing/routing-config";
import { DEFAULT_LIMITS, DEFAULT_RETENTION, type TLimits, type TRetention, type TServiceDeps } from "./services/deps";
import { DEFAULT_REPETITION_THRESHOLDS } from "./services/resolve";
import { openTelemetry, type TTelemetry } from "./telemetry/otel";

// Opening the control plane: the database, the model and the settings every service is handed
// (TServiceDeps). Transports then call the services (./services/*) directly with a context of
// those dependencies and the caller they narrowed: there is no binding layer in between.

/** Short, URL-safe thread id: "th-" and 16 hex characters. */
export function newThreadId(): string {
  return `th-${randomUUID().replaceAll("-", "").slice(0, 16)}`;
}

export type TOpenOptions = {
  databaseUrl: string;
  model?: TModelProvider;
  limits?: Partial<TLimits>;
  /** Days trace runs and gate decisions are kept (0: forever); 30 each when not given. */
  retention?: Partial<TRetention>;
  /** Overrides of the output gate's pipeline config (thresholds, pricing, PII allowlist). */
  gate?: TGateConfigInput;
  /** Overrides of the repetition thresholds that raise promotion triggers. */
  repetitionThresholds?: Partial<Record<TRepetitionKind, number>>;
  /** The procedure catalog; the shipped RV service catalog when not given. */
  catalog?: TCatalog;
  /** The selector step's routing config; the shipped domains when not given. */
  routing?: TRoutingConfig;
  /** Tag aliases over (or instead of) the shipped table; the shipped table when not given. */
  tagAliases?: TTagAliasConfigInput | null;
  /** When given, accounts can be created (users.create, the setup command) and cookies resolved. */
  auth?: Omit<Parameters<typeof createAuth>[0], "prisma">;
  /** An embeddings provider switches semantic matching on (docs/resolve.md). */
  embeddings?: TEmbeddingsProvider;
  /** Exports every turn as an OpenTelemetry trace (telemetry/otel.ts). */
  telemetry?: TTelemetry;
  /** Opens the background job queue (jobs/jobs.ts): the web server and `pnpm jobs`. */
  jobs?: boolean;
  /** Where workflow links point and whether webhooks may call private addresses (off, no links, when not given). */
  workflows?: Partial<TServiceDeps["workflows"]>;
};

/**
 * Opens the control plane on a (migrated) database, with the offline model unless another is
 * given. The web app and scripts use this (see `openControlPlaneFromEnv`); tests pass their own.
 */
export async function openControlPlane(opts: TOpenOptions): Promise<{
  deps: TServiceDeps;
  repos: TRepositories;
  auth: TAuth | null;
  db: DbClient;
}> {
  const db = await createPrismaClient(opts.databaseUrl);
  const repos = createRepositories(db);
  const auth = opts.auth ? createAuth({ ...opts.auth, prisma: db }) : null;
  const semantic = opts.embeddings ? semanticHandle(repos, opts.embeddings) : undefined;
  const jobs = opts.jobs
    ? await openJobQueue(db, opts.databaseUrl).catch(async (error: unknown) => {
        await db.$disconnect();
        throw error;
      })
    : undefined;
  const deps: TServiceDeps = {
    repos,
    model: opts.model ?? createOfflineModel(),
    now: () => new Date(),
    newThreadId,
    limits: { ...DEFAULT_LIMITS, ...opts.limits },
    retention: { ...DEFAULT_RETENTION, ...opts.retention },
    gate: pipelineGateConfig(opts.gate),
    repetitionThresholds: { ...DEFAULT_REPETITION_THRESHOLDS, ...opts.repetitionThresholds },
    workflows: { baseURL: null, allowPrivateNetworks: false, webhookSecrets: {}, ...opts.workflows },
    catalog: opts.catalog ?? RV_SERVICE_CATALOG,
    routing: routingHandle(opts.routing ?? DEFAULT_ROUTING, repos, semantic),
    tags: createTagNormalizer(tagAliasTable(opts.tagAliases ? ZTagAliasConfig.parse(opts.tagAliases) : null)),
    semantic,
    telemetry: opts.telemetry,
    jobs,
    ...(auth
      ? {
          createAccount: (u: Parameters<typeof createPasswordAccount>[1]) => createPasswordAccount(auth, u),
          setPassword: (userId: string, password: string) => setAccountPassword(auth, userId, password),
        }
      : {}),
  };
  return { deps, repos, auth, db };
}

/** The embeddings provider SOLSERVER_EMBEDDINGS names (when it is not off). */
export function embeddingsProvider(config: NonNullable<TServerEnv["embeddings"]>): TEmbeddingsProvider {
  return config.kind === "local" ? createLocalEmbeddings() : createOpenAICompatibleEmbeddings(config);
}

/** The control plane as the environment configures it (database, model, limits, auth). */
export function openControlPlaneFromEnv(env: TServerEnv = loadServerEnv(), extra: { jobs?: boolean } = {}) {
  return openControlPlane({
    ...extra,
    databaseUrl: env.DATABASE_URL,
    model: createModel(env.SOLSERVER_MODEL, env),
    limits: { chatTurnsPerMinute: env.SOLSERVER_CHAT_TURNS_PER_MINUTE, readsPerMinute: env.SOLSERVER_READS_PER_MINUTE },
    retention: env.retention,
    gate: env.gateConfig,
    repetitionThresholds: env.repetitionThresholds,
    catalog: env.catalog,
    routing: env.routing,
    tagAliases: env.tagAliases,
    ...(env.embeddings ? { embeddings: embeddingsProvider(env.embeddings) } : {}),
    ...(env.telemetry ? { telemetry: openTelemetry(env.telemetry) } : {}),
    auth: { secret: env.BETTER_AUTH_SECRET, baseURL: env.SOLSERVER_BASE_URL, trustedOrigins: env.trustedOrigins },
    workflows: {
      baseURL: env.SOLSERVER_BASE_URL,
      allowPrivateNetworks: env.workflowWebhooksPrivate,
      webhookSecrets: env.webhookSecrets,
    },
  });
}
