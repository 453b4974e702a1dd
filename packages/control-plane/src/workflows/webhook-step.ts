import { RESERVED_CONTEXT_KEYS, type TRunState, toPlainData } from "@solserver/checkpoint";
import type { TStep, TStepResult } from "./driver";
import { deliverWebhook, oneLine, shown, type TDeliveryOptions, webhookSecret } from "./webhook-delivery";
import { WebhookError } from "./webhook-error";

// The address rules and the delivery are their own modules; everything stays importable from here.
export * from "./webhook-address";
export * from "./webhook-delivery";
export * from "./webhook-error";

// The webhook executor on the server (docs/workflows-webhooks.md): a phase whose `run` is
// `{ webhook: url, secret_env, timeout, retries }` POSTs the run's context as JSON to the URL,
// signed with HMAC-SHA256 when secret_env names a key, and merges the JSON answer into the
// context. Deliveries are retried on network errors, timeouts, 5xx and 429 with exponential
// backoff; every delivery of one attempt of the phase carries the same idempotency key. By default
// an address that resolves to a loopback, private or link-local network is refused, so that a
// definition cannot turn the server into a proxy to internal services.

export type TWebhookStepOptions = TDeliveryOptions & {
  /** The run's id (WR-…): the state does not carry it. */
  runId: string;
};

/** What a webhook step POSTs (docs/workflows-webhooks.md#the-request). */
type TWebhookRequestBody = {
  run_id: string;
  workflow: string;
  phase_id: string;
  iteration: number;
  attempt: number;
  context: TRunState["context"];
  variables: TRunState["variables"];
};

// ---------------------------------------------------------------------------------------------
// The step

/** The body a webhook step POSTs for the phase `state.next` names. */
function webhookRequestBody(runId: string, state: TRunState): TWebhookRequestBody {
  if (state.next.kind !== "run_phase") throw new WebhookError("the run is not waiting for a phase to run");
  return {
    run_id: runId,
    workflow: state.workflow,
    phase_id: state.next.phase_id,
    iteration: state.next.iteration,
    attempt: state.next.attempt,
    context: state.context,
    variables: state.variables,
  };
}

function objectOrProblem(value: unknown, path: string): Record<string, unknown> | string {
  let plain: unknown;
  try {
    plain = toPlainData(value, path);
  } catch (error) {
    return error instanceof Error ? error.message : `${path}: is not plain JSON data`;
  }
  if (typeof plain !== "object" || plain === null || Array.isArray(plain)) {
    return `${path} must be a JSON object, not ${Array.isArray(plain) ? "an array" : plain === null ? "null" : typeof plain}`;
  }
  return plain as Record<string, unknown>;
}

/**
 * A 2xx answer as the step's result. The contract (docs/workflows-webhooks.md#the-answer):
 * 204 or an empty body: nothing; a JSON object whose only keys are `data` and/or `variables`:
 * those (each an object, or null for none); any other JSON object: the whole object is the data.
 * Anything else (not JSON, an array, a string) fails the phase. Data may not set the runner's own
 * context keys (phases, skip_phases, checkpoints).
 */
function parseWebhookAnswer(status: number, text: string): TStepResult {
  if (status === 204 || text.trim() === "") return {};
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new WebhookError(`answered ${status} with a body that is not JSON: ${oneLine(text, 120)}`, status);
  }
  const answer = objectOrProblem(json, "answer");
  if (typeof answer === "string") throw new WebhookError(`answered ${status} but ${answer}`, status);
  const keys = Object.keys(answer);
  const envelope = keys.length > 0 && keys.every((key) => key === "data" || key === "variables");
  const result: TStepResult = {};
  const take = (value: unknown, path: string): Record<string, unknown> | undefined => {
    if (value === undefined || value === null) return undefined;
    const checked = objectOrProblem(value, path);
    if (typeof checked === "string") throw new WebhookError(`answered ${status} but ${checked}`, status);
    return checked;
  };
  const data = envelope ? take(answer.data, "answer.data") : answer;
  const variables = envelope ? take(answer.variables, "answer.variables") : undefined;
  if (data !== undefined) {
    const reserved = Object.keys(data).find((key) => RESERVED_CONTEXT_KEYS.has(key));
    if (reserved !== undefined) {
      const where = envelope ? "answer.data" : "answer";
      throw new WebhookError(`answered ${status} but ${where}.${reserved} is reserved for the runner`, status);
    }
    result.data = data;
  }
  if (variables !== undefined) result.variables = variables;
  return result;
}

/**
 * The step for phases whose `run` is a webhook executor: POSTs TWebhookRequestBody to the
 * executor's URL (retries, timeout and signing as the executor says) and returns the answer as
 * data/variables (parseWebhookAnswer). Throws WebhookError, one line without the secret, when the
 * secret is missing, the address is private, or the deliveries fail.
 */
export function webhookStep(options: TWebhookStepOptions): TStep {
  return async ({ state, phaseId }) => {
    const next = state.next;
    if (next.kind !== "run_phase" || next.phase_id !== phaseId || next.executor?.kind !== "webhook") {
      throw new WebhookError(`phase ${phaseId} has no webhook to call`);
    }
    const executor = next.executor;
    const secret = webhookSecret(executor.secret_env, options.env ?? {});
    const body = JSON.stringify(webhookRequestBody(options.runId, state));
    const answer = await deliverWebhook(
      {
        url: executor.webhook,
        body,
        idempotencyKey: `${options.runId}:${next.phase_id}:${next.iteration}:${next.attempt}`,
        secret,
        timeoutMs: executor.timeout_ms,
        retries: executor.retries,
      },
      options,
    );
    try {
      return parseWebhookAnswer(answer.status, answer.text);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const shownUrl = (() => {
        try {
          return shown(new URL(executor.webhook));
        } catch {
          return executor.webhook;
        }
      })();
      const clean = secret ? message.split(secret).join("[secret]") : message;
      throw new WebhookError(`webhook ${shownUrl}: ${clean}`, answer.status, answer.deliveries);
    }
  };
}
