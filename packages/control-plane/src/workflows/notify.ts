import type { TAssignees, TNotify, TRunState } from "@solserver/checkpoint";
import { trimEndWhile } from "@solserver/contracts";
import { deliverWebhook, type TDeliveryOptions, webhookSecret } from "./webhook-step";

// A workflow's `notify: { webhook, secret_env? }` (docs/workflows-webhooks.md#notifications):
// when a run stops at a checkpoint, the server POSTs who should decide what, and where, signed
// like a webhook step. A chat channel being down must not fail the run, so this never throws.

const NOTIFY_EVENT = "checkpoint.waiting";
const NOTIFY_TIMEOUT_MS = 5_000;
const NOTIFY_RETRIES = 2;

/** What notifyCheckpoint POSTs. */
type TCheckpointNotification = {
  event: typeof NOTIFY_EVENT;
  run_id: string;
  workflow: string;
  phase_id: string;
  prompt: string;
  /** The options' labels, in order. */
  options: string[];
  assignees: TAssignees | null;
  /** ISO time the checkpoint's timeout applies, or null. */
  deadline: string | null;
  /** The decision in the dashboard, or null when the server knows no base URL. */
  url: string | null;
};

export type TNotifyOptions = TDeliveryOptions & {
  runId: string;
  /** The definition's name and notify block (a TWorkflow will do). */
  workflow: { name: string; notify?: TNotify | undefined };
  /** The run, waiting at its checkpoint (state.pending). */
  state: TRunState;
  /** Where people open the dashboard (SOLSERVER_BASE_URL); null: the body's url is null. */
  baseURL?: string | null;
  timeoutMs?: number;
  retries?: number;
};

export type TNotifyResult = { delivered: boolean; error?: string };

/** The dashboard link to a run's decision: the workflows page, scrolled to the run's inbox card. */
export function checkpointLink(baseURL: string, runId: string): string {
  return `${trimEndWhile(baseURL, (c) => c === "/")}/workflows#checkpoint-${encodeURIComponent(runId)}`;
}

/** The notification for a run waiting at its checkpoint, or undefined when it is not waiting. */
function checkpointNotification(
  runId: string,
  state: TRunState,
  baseURL: string | null = null,
): TCheckpointNotification | undefined {
  const pending = state.pending;
  if (state.status !== "awaiting_decision" || pending === null) return undefined;
  return {
    event: NOTIFY_EVENT,
    run_id: runId,
    workflow: state.workflow,
    phase_id: pending.phase_id,
    prompt: pending.prompt,
    options: pending.options.map((option) => option.label),
    assignees: pending.assignees,
    deadline: pending.deadline,
    url: baseURL ? checkpointLink(baseURL, runId) : null,
  };
}

/**
 * POSTs the checkpoint.waiting notification to `workflow.notify.webhook` (short timeout, a couple
 * of retries, the same private-network rule as webhook steps). Never throws: `{ delivered: false,
 * error }` says why it was not delivered, `{ delivered: false }` alone that the workflow has no
 * notify block. The idempotency key is the same for the retries of one notification and differs
 * each time the run waits at a checkpoint again (a repeat, an escalation).
 */
export async function notifyCheckpoint(options: TNotifyOptions): Promise<TNotifyResult> {
  try {
    const notify = options.workflow.notify;
    if (notify === undefined) return { delivered: false };
    const body = checkpointNotification(options.runId, options.state, options.baseURL ?? null);
    if (body === undefined) return { delivered: false, error: "the run is not waiting at a checkpoint" };
    const secret = webhookSecret(notify.secret_env, options.env ?? {});
    const iteration = options.state.context.phases.iteration_counts[body.phase_id] ?? 1;
    const seen = options.state.context.checkpoints.length;
    await deliverWebhook(
      {
        url: notify.webhook,
        body: JSON.stringify(body),
        idempotencyKey: `${options.runId}:${body.phase_id}:${iteration}:${NOTIFY_EVENT}:${seen}`,
        secret,
        timeoutMs: options.timeoutMs ?? NOTIFY_TIMEOUT_MS,
        retries: options.retries ?? NOTIFY_RETRIES,
        discardAnswer: true,
      },
      options,
    );
    return { delivered: true };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { delivered: false, error: `notify: ${message.replace(/\s+/g, " ")}` };
  }
}
