import type { TRunState, TWorkflow } from "@solserver/checkpoint";
import type { TCaller } from "../services/context";
import type { TServiceDeps } from "../services/deps";
import type { TStep } from "./driver";
import { notifyCheckpoint } from "./notify";
import { umbraBeatSteps } from "./umbra-beat";
import { webhookStep } from "./webhook-step";

// What the server runs: the Umbra beat's named steps in the request that drives the run, and
// `webhook` executors beside it (services/workflow-webhooks.ts); `worker` phases wait for an
// external agent (services/workflow-workers.ts).
// `command` executors are the CLI's: the server never runs a local program a definition names.

export const SERVER_EXECUTORS = ["webhook", "worker"] as const;

/** The steps a run drives with, acting as `caller`; `runId` keys webhook deliveries (idempotency). */
export function serverSteps(deps: TServiceDeps, caller: TCaller, runId = ""): Record<string, TStep> {
  return {
    ...umbraBeatSteps(deps, caller),
    webhook: webhookStep({
      runId,
      allowPrivateNetworks: deps.workflows.allowPrivateNetworks,
      env: deps.workflows.webhookSecrets,
      now: deps.now,
    }),
  };
}

/**
 * Tells the workflow's `notify` webhook that a run waits at a checkpoint. Not awaited: a chat
 * channel that is slow or down never holds up or fails the run; a failed delivery is logged.
 */
export function notifyWaiting(deps: TServiceDeps, runId: string, workflow: TWorkflow, state: TRunState): void {
  if (!workflow.notify) return;
  void notifyCheckpoint({
    runId,
    workflow,
    state,
    baseURL: deps.workflows.baseURL,
    allowPrivateNetworks: deps.workflows.allowPrivateNetworks,
    env: deps.workflows.webhookSecrets,
    now: deps.now,
  }).then((result) => {
    if (!result.delivered && result.error) console.warn(`workflow ${runId}: checkpoint notification: ${result.error}`);
  });
}
