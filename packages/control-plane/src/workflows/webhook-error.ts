// The webhook executor's error and the switch for private networks, shared by its address rules
// (webhook-address.ts), its delivery (webhook-delivery.ts) and the step (webhook-step.ts).

/** Set to 1 to let webhooks reach loopback and private addresses (a receiver on the same host). */
export const WEBHOOKS_PRIVATE_ENV = "SOLSERVER_WORKFLOW_WEBHOOKS_PRIVATE";

/** A failed delivery, in one line without the secret. `status` is the last HTTP status, if any. */
export class WebhookError extends Error {
  override readonly name = "WebhookError";
  readonly status: number | null;
  /** Requests actually sent (0: refused before sending). */
  readonly deliveries: number;
  constructor(message: string, status: number | null = null, deliveries = 0) {
    super(message);
    this.status = status;
    this.deliveries = deliveries;
  }
}

/** Whether the env var SOLSERVER_WORKFLOW_WEBHOOKS_PRIVATE allows private networks. */
