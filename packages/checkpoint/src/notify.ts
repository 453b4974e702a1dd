// A workflow's notifications: where the host POSTs when a run waits at a checkpoint (signed with
// the key in secret_env). The definition only names the address; the host sends.

import { z } from "zod";
import { ZEnvName } from "./executors";
import { addIssue, type TIssues, type TPath } from "./issues";
import { isPlainObject } from "./plain-data";
import { webhookUrlProblem } from "./urls";

export const ZNotify = z.strictObject({
  webhook: z.string(),
  secret_env: ZEnvName.optional(),
});
export type TNotify = z.output<typeof ZNotify>;

export function notifyIssues(issues: TIssues, at: TPath, raw: unknown): void {
  if (!isPlainObject(raw) || typeof raw.webhook !== "string") return;
  // No run is in scope when the address is read, so nothing would substitute a template.
  if (raw.webhook.includes("{{")) {
    addIssue(issues, [...at, "webhook"], "{{variables}} are not substituted in notify.webhook; write the address");
    return;
  }
  const problem = webhookUrlProblem(raw.webhook);
  if (problem !== undefined) addIssue(issues, [...at, "webhook"], problem);
}
