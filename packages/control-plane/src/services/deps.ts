import type { TGateConfig, TRepetitionKind } from "@solserver/contracts";
import type { TJobQueue, TRepositories } from "@solserver/db";
import type { TCatalog } from "@solserver/engine";
import type { TSemanticHandle } from "../knowledge/semantic-matching";
import type { TTagNormalizer } from "../knowledge/tags";
import type { TModelProvider } from "../model/provider";
import type { TRoutingHandle } from "../routing/router";
import type { TTelemetry } from "../telemetry/otel";
import { DEFAULT_SIGN_IN_POLICY, type TSignInPolicy } from "./sign-in-policy";

export type TLimits = {
  /** Chat turns per account per minute. */
  chatTurnsPerMinute: number;
  /** Read calls (tRPC queries, REST GETs) per account per minute. */
  readsPerMinute: number;
  /** Growing delays after failed sign-ins (sign-in-policy.ts). */
  signIn: TSignInPolicy;
};

export const DEFAULT_LIMITS: TLimits = {
  chatTurnsPerMinute: 30,
  readsPerMinute: 600,
  signIn: DEFAULT_SIGN_IN_POLICY,
};

/**
 * How many days trace runs (with their events) and gate decisions are kept; 0 keeps them forever.
 * Turns, messages, proposals, promotions, audit events and knowledge are always kept.
 */
export type TRetention = { traceDays: number; gateDays: number };

export const DEFAULT_RETENTION: TRetention = { traceDays: 30, gateDays: 30 };

/** What every service is handed: no globals, so tests wire their own. */
export type TServiceDeps = {
  repos: TRepositories;
  model: TModelProvider;
  /** Wall clock for trace timestamps and rate-limit windows. */
  now: () => Date;
  /** Id for a thread a turn creates. */
  newThreadId: () => string;
  limits: TLimits;
  /** What pruning deletes, and what a pruned turn's trace says (retention/). */
  retention: TRetention;
  /** The output gate every model attempt passes (seed 002; see gate/pipeline-config.ts). */
  gate: TGateConfig;
  /** The selector step's router (seed 001 §7.1): router_domain, modeLabel, strictness, scope. */
  routing: TRoutingHandle;
  /** The procedure catalog of procedure mode (seed 004): data only, the context engine decides. */
  catalog: TCatalog;
  /** One tag per meaning wherever tags are written (case, plurals, aliases: docs/tags.md). */
  tags: TTagNormalizer;
  /** Semantic matching (embeddings), when switched on; resolve and retrieval stay lexical without it. */
  semantic?: TSemanticHandle | undefined;
  /**
   * The background job queue (jobs/jobs.ts) of the web server and `pnpm jobs work`; absent (the
   * library, scripts): work such as a webhook delivery runs beside the request in this process.
   */
  jobs?: TJobQueue | undefined;
  /** OpenTelemetry export of every turn (OTEL_EXPORTER_OTLP_ENDPOINT); absent: not exported. */
  telemetry?: TTelemetry | undefined;
  /** Counts at which a repetition raises a promotion trigger (seed 001 §5.2). */
  repetitionThresholds: Record<TRepetitionKind, number>;
  /**
   * Workflow webhooks and checkpoint notifications (env.ts: SOLSERVER_BASE_URL for the links they
   * carry, SOLSERVER_WORKFLOW_WEBHOOKS_PRIVATE for loopback and private receivers).
   */
  workflows: {
    baseURL: string | null;
    allowPrivateNetworks: boolean;
    /** The keys webhooks are signed with: SOLSERVER_WEBHOOK_SECRET_* by name (env.ts). */
    webhookSecrets: Readonly<Record<string, string>>;
  };
  /** Creates a password account (better-auth), for user management; absent where no auth runs. */
  createAccount?: (u: {
    email: string;
    name: string;
    password: string;
    role: "user" | "jam";
  }) => Promise<{ id: string }>;
  /** Sets an account's password (better-auth's hash); absent where accounts are not managed here. */
  setPassword?: (userId: string, password: string) => Promise<void>;
};

/**
 * Who is acting: anonymous, or a signed-in account (by session cookie or API token). The role
 * is read from the account on every request, never from the client.
 */
export type TActor =
  | { kind: "anonymous" }
  | { kind: "user"; userId: string; email: string; role: "user" | "jam"; via: "cookie" | "token" | "cli" };
