// Executors: a phase's `run` may name, instead of an opaque step, how the host runs it — a
// command (argv, no shell), a webhook (POST the context, merge the JSON answer) or a worker queue
// (an external agent claims the phase). The definition declares it; the host does the I/O.
//
// A loaded phase keeps `run` a string (the step name, or the executor's kind) and carries the
// executor beside it in `executor`: hosts that look steps up by `run` find one function per kind,
// and hosts that only know named steps keep working (a kind they lack is an unknown step).

import { z } from "zod";
import { durationProblem, parseDuration } from "./duration";
import { CheckpointError } from "./errors";
import { artifactPatternProblem, relativePathProblem } from "./paths";
import type { TWorkflow } from "./schema";
import { substitute } from "./template";
import { webhookUrlProblem } from "./urls";

export const EXECUTOR_KINDS = ["command", "webhook", "worker"] as const;
export type TExecutorKind = (typeof EXECUTOR_KINDS)[number];

/** Which keys belong to which kind; the kind's own key comes first. */
export const EXECUTOR_KEYS: Readonly<Record<TExecutorKind, readonly string[]>> = {
  command: ["command", "cwd", "env", "timeout", "artifacts"],
  webhook: ["webhook", "secret_env", "timeout", "retries"],
  worker: ["worker", "lease"],
};

export const EXECUTOR_DEFAULTS = {
  command: { timeout: "10m" },
  webhook: { timeout: "10s", retries: 3 },
  worker: { lease: "5m" },
} as const;

const ENV_NAME_PATTERN = /^[A-Z_][A-Z0-9_]*$/;
export const QUEUE_NAME_PATTERN = /^[a-z][a-z0-9_.-]*$/;
export const MAX_WEBHOOK_RETRIES = 10;

export const ZDuration = z
  .string({ error: (issue) => (issue.input === undefined ? undefined : durationProblem(issue.input)) })
  .superRefine((text, ctx) => {
    const problem = durationProblem(text);
    if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem });
  });

export const ZEnvName = z.string().regex(ENV_NAME_PATTERN, {
  error: "must be an environment variable name: A-Z, 0-9 and _, not starting with a digit",
});

/**
 * The variables a webhook may be signed with: this prefix only. Anyone who may define a workflow
 * may name its key, so any other name would let them probe the server's environment (whether
 * HOME is set, and by the signature, guesses of its value).
 */
export const WEBHOOK_SECRET_PREFIX = "SOLSERVER_WEBHOOK_SECRET_";

/** The rule a new definition's secret_env must meet (`secretEnvProblems`), in words. */
const SECRET_ENV_RULE = `must name a variable starting with ${WEBHOOK_SECRET_PREFIX} (A-Z, 0-9 and _): only those sign webhooks`;

/**
 * Every secret_env of a definition that does not name a SOLSERVER_WEBHOOK_SECRET_* variable, as
 * "path: rule". Checked when a definition is started or validated, not when a stored run is loaded
 * again: a run stored before the rule can still be read, decided and cancelled, and its delivery
 * refuses the name (the host's webhook step).
 */
export function secretEnvProblems(workflow: TWorkflow): string[] {
  const named = (name: string | null | undefined) =>
    name != null && !/^SOLSERVER_WEBHOOK_SECRET_[A-Z0-9_]+$/.test(name);
  return [
    ...(named(workflow.notify?.secret_env) ? [`notify.secret_env: ${SECRET_ENV_RULE}`] : []),
    ...workflow.phases.flatMap((p) =>
      p.executor?.kind === "webhook" && named(p.executor.secret_env)
        ? [`phases.${p.id}.run.secret_env: ${SECRET_ENV_RULE}`]
        : [],
    ),
  ];
}

const ZArtifact = z.string().superRefine((pattern, ctx) => {
  const problem = artifactPatternProblem(pattern);
  if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem });
});

/**
 * An executor as a definition writes it. Every kind's keys are optional here; which one is given,
 * and whether the others fit it, are whole-definition rules (executor-rules.ts) so that each
 * problem gets its own message instead of zod's "Invalid input" for a failed union.
 */
export const ZExecutorSpec = z.strictObject({
  command: z
    .array(z.string({ error: "must be a string" }).min(1, { error: "must not be empty" }), {
      error: (issue) =>
        issue.input === undefined ? undefined : 'must be a list of arguments, e.g. ["npm", "test"] (no shell string)',
    })
    .min(1, { error: "must name the program to run" })
    .optional(),
  cwd: z.string().optional(),
  env: z.record(ZEnvName, z.string({ error: "must be a string (quote numbers and booleans)" })).optional(),
  timeout: ZDuration.optional(),
  artifacts: z.array(ZArtifact).optional(),
  webhook: z.string().optional(),
  secret_env: ZEnvName.optional(),
  retries: z.int().min(0).max(MAX_WEBHOOK_RETRIES).optional(),
  worker: z
    .string()
    .regex(QUEUE_NAME_PATTERN, { error: 'must be a queue name: lowercase letters, digits, "_", "." or "-"' })
    .optional(),
  lease: ZDuration.optional(),
});
export type TExecutorSpec = z.output<typeof ZExecutorSpec>;

// The executor as the runner hands it to the host: its kind, defaults applied, durations also in
// milliseconds. A loaded definition holds the same shape with its `{{var}}` templates unresolved.
const ZCommandExecutor = z.object({
  kind: z.literal("command"),
  /** argv: the program, then its arguments; never passed through a shell. */
  command: z.array(z.string()).min(1),
  /** Relative to the host's workspace; null = the workspace itself. */
  cwd: z.string().nullable(),
  env: z.record(z.string(), z.string()),
  timeout: z.string(),
  timeout_ms: z.int().positive(),
  /** Files (or simple globs) the host collects as the phase's artifacts, relative to the workspace. */
  artifacts: z.array(z.string()),
});
const ZWebhookExecutor = z.object({
  kind: z.literal("webhook"),
  webhook: z.string(),
  /** The environment variable holding the HMAC key the host signs the request with. */
  secret_env: z.string().nullable(),
  timeout: z.string(),
  timeout_ms: z.int().positive(),
  /** Delivery retries within one attempt of the phase (the host's; then phaseFailed). */
  retries: z.int().min(0),
});
const ZWorkerExecutor = z.object({
  kind: z.literal("worker"),
  worker: z.string(),
  /** How long a claim holds before the phase may be handed to another worker. */
  lease: z.string(),
  lease_ms: z.int().positive(),
});
export const ZExecutor = z.discriminatedUnion("kind", [ZCommandExecutor, ZWebhookExecutor, ZWorkerExecutor]);

export type TCommandExecutor = z.output<typeof ZCommandExecutor>;
export type TWebhookExecutor = z.output<typeof ZWebhookExecutor>;
export type TWorkerExecutor = z.output<typeof ZWorkerExecutor>;
export type TExecutor = z.output<typeof ZExecutor>;

/** The kind a spec names, or undefined when it names none (a load-time issue). */
export function specKind(spec: Record<string, unknown>): TExecutorKind | undefined {
  return EXECUTOR_KINDS.find((kind) => spec[kind] !== undefined);
}

/** A valid spec with its defaults applied (load time; the templates stay as written). */
export function toExecutor(spec: TExecutorSpec, kind: TExecutorKind): TExecutor {
  switch (kind) {
    case "command": {
      const timeout = spec.timeout ?? EXECUTOR_DEFAULTS.command.timeout;
      return {
        kind,
        command: [...(spec.command ?? [])],
        cwd: spec.cwd ?? null,
        env: { ...spec.env },
        timeout,
        timeout_ms: parseDuration(timeout),
        artifacts: [...(spec.artifacts ?? [])],
      };
    }
    case "webhook": {
      const timeout = spec.timeout ?? EXECUTOR_DEFAULTS.webhook.timeout;
      return {
        kind,
        webhook: spec.webhook ?? "",
        secret_env: spec.secret_env ?? null,
        timeout,
        timeout_ms: parseDuration(timeout),
        retries: spec.retries ?? EXECUTOR_DEFAULTS.webhook.retries,
      };
    }
    case "worker": {
      const lease = spec.lease ?? EXECUTOR_DEFAULTS.worker.lease;
      return { kind, worker: spec.worker ?? "", lease, lease_ms: parseDuration(lease) };
    }
  }
}

/**
 * The executor with `{{var}}` replaced by the run's variables, as the phase starts. The rules the
 * load-time check applied to the declared values are applied again to the run's values: a variable
 * may not turn the working directory into "../x" or the webhook into a file: URL. Throws
 * CheckpointError (TEMPLATE or INVALID_INPUT), which the runner turns into a failed run.
 */
export function resolveExecutor(executor: TExecutor, variables: Record<string, unknown>): TExecutor {
  const render = (field: string, text: string) => {
    try {
      return substitute(text, variables);
    } catch (error) {
      if (error instanceof CheckpointError) throw new CheckpointError(error.code, `run.${field}: ${error.message}`);
      throw error;
    }
  };
  const check = (field: string, problem: string | undefined) => {
    if (problem !== undefined) throw new CheckpointError("INVALID_INPUT", `run.${field}: ${problem}`);
  };
  switch (executor.kind) {
    case "command": {
      const command = executor.command.map((arg, i) => render(`command[${i}]`, arg));
      command.forEach((arg, i) => {
        check(`command[${i}]`, arg === "" ? "is empty once the variables are substituted" : undefined);
      });
      const cwd = executor.cwd === null ? null : render("cwd", executor.cwd);
      if (cwd !== null) check("cwd", relativePathProblem(cwd));
      const env = Object.fromEntries(Object.entries(executor.env).map(([name, v]) => [name, render(`env.${name}`, v)]));
      return { ...executor, command, cwd, env, artifacts: [...executor.artifacts] };
    }
    case "webhook": {
      const webhook = render("webhook", executor.webhook);
      check("webhook", webhookUrlProblem(webhook));
      return { ...executor, webhook };
    }
    case "worker":
      return { ...executor };
  }
}

/** The executor kinds a workflow uses, each once, in EXECUTOR_KINDS order (step names are not kinds). */
export function executorKinds(workflow: TWorkflow): TExecutorKind[] {
  const used = new Set(workflow.phases.flatMap((phase) => (phase.executor ? [phase.executor.kind] : [])));
  return EXECUTOR_KINDS.filter((kind) => used.has(kind));
}

/**
 * For a host that runs only some kinds: one message per phase whose executor it cannot run
 * (`phases.build.run: command executors are not run here (this host runs: webhook, worker)`),
 * so a definition is refused when it is loaded, not when the run reaches the phase.
 */
export function unsupportedExecutors(workflow: TWorkflow, supported: Iterable<TExecutorKind>): string[] {
  const runs = new Set(supported);
  const list = EXECUTOR_KINDS.filter((kind) => runs.has(kind)).join(", ") || "none";
  return workflow.phases.flatMap((phase) =>
    phase.executor && !runs.has(phase.executor.kind)
      ? [`phases.${phase.id}.run: ${phase.executor.kind} executors are not run here (this host runs: ${list})`]
      : [],
  );
}
