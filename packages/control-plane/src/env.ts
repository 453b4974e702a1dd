import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { WEBHOOK_SECRET_PREFIX } from "@solserver/checkpoint";
import {
  REPETITION_KINDS,
  type TGateConfigInput,
  type TRepetitionKind,
  type TRoutingConfig,
  type TTagAliasConfig,
  trimEndWhile,
  ZRepetitionKind,
} from "@solserver/contracts";
import { databaseUrlProblem, repositoryRoot, resolveDatabaseUrl } from "@solserver/db";
import { RV_SERVICE_CATALOG, type TCatalog } from "@solserver/engine";
import { z } from "zod";
import { readCatalogFile, readGateConfigFile, readRoutingFile, readTagAliasFile } from "./config/config-file";
import { DEFAULT_ROUTING } from "./routing/routing-config";
import type { TRetention } from "./services/deps";
import type { TTelemetryConfig } from "./telemetry/otel";
import { trustedProxyProblem } from "./trusted-proxies";

/** Days to keep a kind of record: 0 keeps it forever; at most 100 years. */
const retentionDays = () =>
  z.coerce
    .number()
    .int({ error: "must be a whole number of days (0 keeps everything)" })
    .min(0, { error: "must be between 0 (keep forever) and 36500 days" })
    .max(36_500, { error: "must be between 0 (keep forever) and 36500 days" })
    .default(30);

/** An empty or blank variable reads as unset. */
const blankAsUnset = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

// The server environment, parsed in one place for the web app and the scripts alike. A bad
// value stops start-up with the variable's name and the rule it breaks.
const ZServerEnv = z
  .object({
    // Empty or unset: the default file; relative paths resolve against the repository root.
    DATABASE_URL: z
      .string()
      .optional()
      .transform((value) => resolveDatabaseUrl(value))
      .superRefine((url, ctx) => {
        // The database's dialect decides which URLs it can open (packages/db/src/dialect).
        const unsupported = databaseUrlProblem(url);
        if (unsupported) ctx.addIssue({ code: "custom", message: unsupported });
      }),
    SOLSERVER_MODEL: z
      .enum(["offline", "openai"], { error: 'must be "offline" or "openai" (docs/model-providers.md)' })
      .default("offline"),
    // The OpenAI-compatible provider (SOLSERVER_MODEL=openai): OpenAI, vLLM, Ollama, llama.cpp.
    OPENAI_BASE_URL: z
      .url({ error: "must be a URL such as https://api.openai.com/v1 or http://127.0.0.1:11434/v1" })
      .default("https://api.openai.com/v1"),
    // Empty counts as unset, so a blank line in .env does not pass for a key.
    OPENAI_API_KEY: z
      .string()
      .optional()
      .transform((v) => v?.trim() || undefined),
    SOLSERVER_OPENAI_MODEL: z
      .string()
      .optional()
      .transform((v) => v?.trim() || undefined),
    SOLSERVER_MODEL_TIMEOUT_MS: z.coerce
      .number()
      .int()
      .min(100, { error: "must be at least 100 (milliseconds)" })
      .max(600_000, { error: "must be at most 600000 (10 minutes)" })
      .default(30_000),
    SOLSERVER_MODEL_MAX_ATTEMPTS: z.coerce
      .number()
      .int()
      .min(1, { error: "must be between 1 and 5" })
      .max(5, { error: "must be between 1 and 5" })
      .default(3),
    // The offline model computes an answer at once; streamed, it pauses this long between chunks
    // of a few words so that a reader sees it arrive (0: no pause).
    SOLSERVER_OFFLINE_STREAM_DELAY_MS: z.coerce
      .number()
      .int()
      .min(0, { error: "must be between 0 and 1000 (milliseconds)" })
      .max(1000, { error: "must be between 0 and 1000 (milliseconds)" })
      .default(15),
    // Where people open the dashboard. https makes session cookies Secure.
    SOLSERVER_BASE_URL: z.url({ error: "must be a URL such as http://localhost:3000" }).optional(),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    // Extra origins allowed to send cookie-authenticated requests, comma-separated.
    SOLSERVER_TRUSTED_ORIGINS: z.string().default(""),
    BETTER_AUTH_SECRET: z.string().min(32, { error: "must be at least 32 characters" }).optional(),
    SOLSERVER_CHAT_TURNS_PER_MINUTE: z.coerce.number().int().min(1, { error: "must be at least 1" }).default(30),
    // Reverse proxies whose X-Forwarded-For is believed, comma-separated addresses or CIDR ranges
    // (docs/security.md#client-addresses); unset: the socket's address, X-Forwarded-For ignored.
    SOLSERVER_TRUSTED_PROXIES: z
      .string()
      .default("")
      .transform((value, ctx) => {
        const entries = value
          .split(",")
          .map((p) => p.trim())
          .filter(Boolean);
        for (const entry of entries) {
          const problem = trustedProxyProblem(entry);
          if (problem) ctx.addIssue({ code: "custom", message: `"${entry}" ${problem}` });
        }
        return entries;
      }),
    // Read calls (each tRPC query of a batch, each REST GET) per account per minute.
    SOLSERVER_READS_PER_MINUTE: z.coerce.number().int().min(1, { error: "must be at least 1" }).default(600),
    // Repetition thresholds as "kind=count" pairs, e.g. "missing_query=3,cfb_ignored=5".
    SOLSERVER_REPETITION_THRESHOLDS: z
      .string()
      .default("")
      .transform((value, ctx) => {
        const out: Partial<Record<TRepetitionKind, number>> = {};
        for (const pair of value
          .split(",")
          .map((p) => p.trim())
          .filter(Boolean)) {
          const [kind, count] = pair.split("=").map((p) => p.trim());
          const parsedKind = ZRepetitionKind.safeParse(kind);
          const n = Number(count);
          if (!parsedKind.success || !Number.isInteger(n) || n < 1) {
            ctx.addIssue({
              code: "custom",
              message: `"${pair}" must be kind=count with kind one of ${REPETITION_KINDS.join(", ")} and count a whole number >= 1`,
            });
            return z.NEVER;
          }
          out[parsedKind.data] = n;
        }
        return out;
      }),
    // A YAML or JSON file overriding the output gate's thresholds, pricing and PII allowlist.
    SOLSERVER_GATE_CONFIG: z
      .string()
      .optional()
      .transform((v) => v?.trim() || undefined),
    // A YAML or JSON routing config for the selector step; unset: the shipped domains.
    SOLSERVER_ROUTING_CONFIG: z
      .string()
      .optional()
      .transform((v) => v?.trim() || undefined),
    // A YAML or JSON file of tag aliases on top of (or instead of) the shipped ones (docs/tags.md).
    SOLSERVER_TAG_ALIASES: z
      .string()
      .optional()
      .transform((v) => v?.trim() || undefined),
    // A YAML or JSON procedure catalog for procedure mode; unset: the shipped RV service catalog.
    SOLSERVER_PROCEDURE_CATALOG: z
      .string()
      .optional()
      .transform((v) => v?.trim() || undefined),
    // Whether the web process runs background jobs (docs/operations.md#background-work), or only
    // queues them for `pnpm jobs work` processes.
    SOLSERVER_JOB_WORKERS: z
      .enum(["on", "off"], { error: 'must be "on" (the web process runs jobs) or "off" (`pnpm jobs work` does)' })
      .default("on"),
    // How often the schedules-tick job runs (the Umbra beat); 0: never (for deployments that run
    // `pnpm workflow tick` from cron instead).
    SOLSERVER_SCHEDULER_INTERVAL_MS: z.coerce
      .number()
      .int({ error: "must be a whole number of milliseconds (0 turns the scheduler off)" })
      .min(0, { error: "must be 0 (off) or at least 1000 (milliseconds)" })
      .max(86_400_000, { error: "must be at most 86400000 (a day)" })
      .refine((ms) => ms === 0 || ms >= 1000, { error: "must be 0 (off) or at least 1000 (milliseconds)" })
      .default(60_000),
    // Workflow webhooks and checkpoint notifications may call loopback / private addresses only
    // when this is 1 (a receiver on the same host or network); otherwise they are refused (SSRF).
    SOLSERVER_WORKFLOW_WEBHOOKS_PRIVATE: z.enum(["0", "1"], { error: "must be 1 (allow) or 0" }).optional(),
    // OpenTelemetry (the standard variables, docs/operations.md): with an endpoint every turn is
    // exported as a trace over OTLP/HTTP. The exporter reads the rest (OTEL_EXPORTER_OTLP_HEADERS,
    // _TIMEOUT) itself.
    // Empty counts as unset (as the OpenTelemetry SDKs read them); OTEL_SDK_DISABLED in any case.
    OTEL_EXPORTER_OTLP_ENDPOINT: z.preprocess(
      blankAsUnset,
      z.url({ protocol: /^https?$/, error: "must be a URL such as http://localhost:4318" }).optional(),
    ),
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.preprocess(
      blankAsUnset,
      z.url({ protocol: /^https?$/, error: "must be a URL such as http://localhost:4318/v1/traces" }).optional(),
    ),
    OTEL_SERVICE_NAME: z.preprocess(blankAsUnset, z.string().max(200).default("solserver")),
    OTEL_SDK_DISABLED: z.preprocess(
      (v) => (typeof v === "string" ? v.trim().toLowerCase() || undefined : v),
      z.enum(["true", "false"], { error: "must be true or false" }).optional(),
    ),
    // Retention (docs/operations.md): trace runs with their events, and gate decisions, older
    // than this many days are pruned; turns, proposals, audit events and knowledge are kept.
    SOLSERVER_TRACE_RETENTION_DAYS: retentionDays(),
    SOLSERVER_GATE_RETENTION_DAYS: retentionDays(),
    // How often the retention-prune job runs; 0: never (cron runs `pnpm db:prune`).
    SOLSERVER_PRUNE_INTERVAL_HOURS: z.coerce
      .number()
      .int({ error: "must be a whole number of hours (0 turns the web server's pruning off)" })
      .min(0, { error: "must be between 0 (off) and 168 (a week)" })
      .max(168, { error: "must be between 0 (off) and 168 (a week)" })
      .default(24),
    // Semantic matching (docs/resolve.md): the embedded sentence model by default.
    SOLSERVER_EMBEDDINGS: z
      .enum(["local", "openai", "off"], {
        error: 'must be "local", "openai" or "off" (docs/resolve.md#semantic-matching)',
      })
      .default("local"),
    SOLSERVER_EMBEDDINGS_BASE_URL: z
      .url({ error: "must be a URL such as https://api.openai.com/v1 or http://127.0.0.1:8080/v1" })
      .optional(),
    SOLSERVER_EMBEDDINGS_API_KEY: z
      .string()
      .optional()
      .transform((v) => v?.trim() || undefined),
    SOLSERVER_EMBEDDINGS_MODEL: z
      .string()
      .optional()
      .transform((v) => v?.trim() || undefined),
    SOLSERVER_EMBEDDINGS_TIMEOUT_MS: z.coerce
      .number()
      .int()
      .min(100, { error: "must be at least 100 (milliseconds)" })
      .max(600_000, { error: "must be at most 600000 (10 minutes)" })
      .default(10_000),
    // Load shedding (apps/web/src/server/load-shedding.ts): requests doing work at once per
    // process (0: no bound; unset: by model, see loadShedding below), how many may wait for a
    // slot, and for how long, before a 503.
    SOLSERVER_MAX_CONCURRENT_REQUESTS: z.coerce
      .number()
      .int()
      .min(0, { error: "must be between 0 (no bound) and 1000" })
      .max(1000, { error: "must be between 0 (no bound) and 1000" })
      .optional(),
    SOLSERVER_MAX_QUEUED_REQUESTS: z.coerce
      .number()
      .int()
      .min(0, { error: "must be between 0 and 10000" })
      .max(10_000, { error: "must be between 0 and 10000" })
      .default(16),
    SOLSERVER_MAX_QUEUE_WAIT_MS: z.coerce
      .number()
      .int()
      .min(1, { error: "must be between 1 and 60000 (milliseconds)" })
      .max(60_000, { error: "must be between 1 and 60000 (milliseconds)" })
      .default(2_000),
  })
  .superRefine((e, ctx) => {
    if (e.SOLSERVER_EMBEDDINGS === "openai" && !e.SOLSERVER_EMBEDDINGS_MODEL)
      ctx.addIssue({
        code: "custom",
        path: ["SOLSERVER_EMBEDDINGS_MODEL"],
        message: "is required when SOLSERVER_EMBEDDINGS=openai (the model id, e.g. text-embedding-3-small)",
      });
    // The openai provider cannot start without a key and a model id.
    if (e.SOLSERVER_MODEL !== "openai") return;
    if (!e.OPENAI_API_KEY)
      ctx.addIssue({
        code: "custom",
        path: ["OPENAI_API_KEY"],
        message:
          'is required when SOLSERVER_MODEL=openai (local servers without auth accept any placeholder, e.g. "local")',
      });
    if (!e.SOLSERVER_OPENAI_MODEL)
      ctx.addIssue({
        code: "custom",
        path: ["SOLSERVER_OPENAI_MODEL"],
        message: "is required when SOLSERVER_MODEL=openai (the model id, e.g. gpt-4o-mini or llama3.1:8b)",
      });
  });

export type TServerEnv = {
  DATABASE_URL: string;
  SOLSERVER_MODEL: "offline" | "openai";
  OPENAI_BASE_URL: string;
  /** Set whenever SOLSERVER_MODEL=openai; null otherwise when not given. */
  OPENAI_API_KEY: string | null;
  /** Set whenever SOLSERVER_MODEL=openai; null otherwise when not given. */
  SOLSERVER_OPENAI_MODEL: string | null;
  SOLSERVER_MODEL_TIMEOUT_MS: number;
  SOLSERVER_MODEL_MAX_ATTEMPTS: number;
  SOLSERVER_OFFLINE_STREAM_DELAY_MS: number;
  SOLSERVER_BASE_URL: string;
  BETTER_AUTH_SECRET: string;
  SOLSERVER_CHAT_TURNS_PER_MINUTE: number;
  /** Proxies whose X-Forwarded-For is believed: addresses and CIDR ranges, validated. */
  trustedProxies: string[];
  SOLSERVER_READS_PER_MINUTE: number;
  /** Repetition thresholds over the defaults (SOLSERVER_REPETITION_THRESHOLDS). */
  repetitionThresholds: Partial<Record<TRepetitionKind, number>>;
  /** The operator's output-gate overrides (SOLSERVER_GATE_CONFIG), already validated. */
  gateConfig: TGateConfigInput;
  /** Origins whose cookie-authenticated requests are accepted (CSRF) and by better-auth. */
  trustedOrigins: string[];
  /** The procedure catalog (SOLSERVER_PROCEDURE_CATALOG, validated), or the shipped RV catalog. */
  catalog: TCatalog;
  /** The selector step's routing config (SOLSERVER_ROUTING_CONFIG, validated), or the shipped one. */
  routing: TRoutingConfig;
  /** Tag aliases over the shipped table (SOLSERVER_TAG_ALIASES, validated), or null: the shipped table. */
  tagAliases: TTagAliasConfig | null;
  /** Whether the web process runs background jobs, or only queues them for `pnpm jobs work`. */
  jobWorkers: boolean;
  /** How often the schedules-tick job runs; 0: never. */
  SOLSERVER_SCHEDULER_INTERVAL_MS: number;
  /** Days trace runs and gate decisions are kept (0: forever), and how often the retention-prune job runs. */
  retention: TRetention;
  SOLSERVER_PRUNE_INTERVAL_HOURS: number;
  /** Semantic matching's embeddings: the embedded model, an OpenAI-compatible server, or null (off). */
  embeddings:
    | { kind: "local" }
    | { kind: "openai"; baseUrl: string; apiKey: string | undefined; model: string; timeoutMs: number }
    | null;
  /** The load shedder's bound (0: none), queue length and longest wait in the queue. */
  loadShedding: { concurrency: number; queue: number; maxWaitMs: number };
  /** Whether workflow webhooks and notifications may call loopback and private addresses. */
  workflowWebhooksPrivate: boolean;
  /** The SOLSERVER_WEBHOOK_SECRET_* variables that are set: the only keys a webhook's secret_env may name. */
  webhookSecrets: Readonly<Record<string, string>>;
  /** Where turns are exported as OpenTelemetry traces; null: not exported. */
  telemetry: TTelemetryConfig | null;
};

/**
 * The session-signing secret: BETTER_AUTH_SECRET, or one generated on first run and kept in
 * `.data/auth-secret` (mode 600) so sessions survive restarts of a local install.
 */
function authSecret(given: string | undefined): string {
  if (given) return given;
  const file = path.join(repositoryRoot(), ".data", "auth-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(path.dirname(file), { recursive: true });
  const secret = randomBytes(48).toString("base64url");
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/** The base URL's origin and its localhost / 127.0.0.1 twin, plus any extra origins given. */
function trustedOrigins(baseURL: string, extra: string): string[] {
  const base = new URL(baseURL);
  const twins = ["localhost", "127.0.0.1"].includes(base.hostname)
    ? ["localhost", "127.0.0.1"].map((h) => `${base.protocol}//${h}${base.port ? `:${base.port}` : ""}`)
    : [base.origin];
  const more = extra
    .split(",")
    .map((o) => o.trim())
    .filter(Boolean)
    .map((o) => new URL(o).origin);
  return [...new Set([base.origin, ...twins, ...more])];
}

/** A config file named by `variable` (relative paths from the repository root), read by `read`. */
function configFile<T>(variable: string, file: string, read: (file: string) => T): T {
  try {
    return read(path.resolve(repositoryRoot(), file));
  } catch (error) {
    throw new Error(`Invalid environment:\n  ${variable}: ${(error as Error).message}`);
  }
}

/**
 * Requests at work at once per process when SOLSERVER_MAX_CONCURRENT_REQUESTS is unset. With the
 * offline model a turn is CPU from start to end (SQLite is synchronous): more at once only delays
 * every answer and the health probes (bench/load.ts, docs/performance.md). A remote model's turn
 * mostly waits on the network, holding its slot without the CPU: the bound is then about turns in
 * flight, so it is set much higher.
 */
export const DEFAULT_CONCURRENT_REQUESTS = { offline: 1, openai: 32 } as const;

/** The OTLP/HTTP traces URL the standard variables name (the traces one wins), or null. */
function telemetryConfig(e: z.output<typeof ZServerEnv>): TTelemetryConfig | null {
  if (e.OTEL_SDK_DISABLED === "true") return null;
  const tracesUrl =
    e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ??
    (e.OTEL_EXPORTER_OTLP_ENDPOINT
      ? `${trimEndWhile(e.OTEL_EXPORTER_OTLP_ENDPOINT, (c) => c === "/")}/v1/traces`
      : undefined);
  return tracesUrl ? { tracesUrl, serviceName: e.OTEL_SERVICE_NAME } : null;
}

/** Every SOLSERVER_WEBHOOK_SECRET_* variable that is set (not empty), by name. */
function webhookSecrets(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter(
      (entry): entry is [string, string] => entry[0].startsWith(WEBHOOK_SECRET_PREFIX) && !!entry[1],
    ),
  );
}

export function loadServerEnv(env: Record<string, string | undefined> = process.env): TServerEnv {
  const parsed = ZServerEnv.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n");
    throw new Error(`Invalid environment:\n${lines}`);
  }
  const e = parsed.data;
  const baseURL = e.SOLSERVER_BASE_URL ?? `http://localhost:${e.PORT}`;
  return {
    DATABASE_URL: e.DATABASE_URL,
    SOLSERVER_MODEL: e.SOLSERVER_MODEL,
    OPENAI_BASE_URL: e.OPENAI_BASE_URL,
    OPENAI_API_KEY: e.OPENAI_API_KEY ?? null,
    SOLSERVER_OPENAI_MODEL: e.SOLSERVER_OPENAI_MODEL ?? null,
    SOLSERVER_MODEL_TIMEOUT_MS: e.SOLSERVER_MODEL_TIMEOUT_MS,
    SOLSERVER_MODEL_MAX_ATTEMPTS: e.SOLSERVER_MODEL_MAX_ATTEMPTS,
    SOLSERVER_OFFLINE_STREAM_DELAY_MS: e.SOLSERVER_OFFLINE_STREAM_DELAY_MS,
    SOLSERVER_BASE_URL: baseURL,
    BETTER_AUTH_SECRET: authSecret(e.BETTER_AUTH_SECRET),
    SOLSERVER_CHAT_TURNS_PER_MINUTE: e.SOLSERVER_CHAT_TURNS_PER_MINUTE,
    trustedProxies: e.SOLSERVER_TRUSTED_PROXIES,
    SOLSERVER_READS_PER_MINUTE: e.SOLSERVER_READS_PER_MINUTE,
    gateConfig: e.SOLSERVER_GATE_CONFIG
      ? configFile("SOLSERVER_GATE_CONFIG", e.SOLSERVER_GATE_CONFIG, readGateConfigFile)
      : {},
    routing: e.SOLSERVER_ROUTING_CONFIG
      ? configFile("SOLSERVER_ROUTING_CONFIG", e.SOLSERVER_ROUTING_CONFIG, readRoutingFile)
      : DEFAULT_ROUTING,
    tagAliases: e.SOLSERVER_TAG_ALIASES
      ? configFile("SOLSERVER_TAG_ALIASES", e.SOLSERVER_TAG_ALIASES, readTagAliasFile)
      : null,
    catalog: e.SOLSERVER_PROCEDURE_CATALOG
      ? configFile("SOLSERVER_PROCEDURE_CATALOG", e.SOLSERVER_PROCEDURE_CATALOG, readCatalogFile)
      : RV_SERVICE_CATALOG,
    repetitionThresholds: e.SOLSERVER_REPETITION_THRESHOLDS,
    trustedOrigins: trustedOrigins(baseURL, e.SOLSERVER_TRUSTED_ORIGINS),
    jobWorkers: e.SOLSERVER_JOB_WORKERS === "on",
    SOLSERVER_SCHEDULER_INTERVAL_MS: e.SOLSERVER_SCHEDULER_INTERVAL_MS,
    retention: { traceDays: e.SOLSERVER_TRACE_RETENTION_DAYS, gateDays: e.SOLSERVER_GATE_RETENTION_DAYS },
    SOLSERVER_PRUNE_INTERVAL_HOURS: e.SOLSERVER_PRUNE_INTERVAL_HOURS,
    workflowWebhooksPrivate: e.SOLSERVER_WORKFLOW_WEBHOOKS_PRIVATE === "1",
    webhookSecrets: webhookSecrets(env),
    telemetry: telemetryConfig(e),
    embeddings:
      e.SOLSERVER_EMBEDDINGS === "local"
        ? { kind: "local" }
        : e.SOLSERVER_EMBEDDINGS === "openai" && e.SOLSERVER_EMBEDDINGS_MODEL
          ? {
              kind: "openai",
              baseUrl: e.SOLSERVER_EMBEDDINGS_BASE_URL ?? e.OPENAI_BASE_URL,
              apiKey: e.SOLSERVER_EMBEDDINGS_API_KEY ?? e.OPENAI_API_KEY,
              model: e.SOLSERVER_EMBEDDINGS_MODEL,
              timeoutMs: e.SOLSERVER_EMBEDDINGS_TIMEOUT_MS,
            }
          : null,
    loadShedding: {
      concurrency: e.SOLSERVER_MAX_CONCURRENT_REQUESTS ?? DEFAULT_CONCURRENT_REQUESTS[e.SOLSERVER_MODEL],
      queue: e.SOLSERVER_MAX_QUEUED_REQUESTS,
      maxWaitMs: e.SOLSERVER_MAX_QUEUE_WAIT_MS,
    },
  };
}
