// Load-time rules for a phase's `run` that need more than its shape: exactly one executor kind,
// no keys of another kind, `{{vars}}` declared, and the working directory and webhook address
// still valid once the declared values are substituted (the runner checks the run's values again).

import { EXECUTOR_KEYS, EXECUTOR_KINDS, type TExecutorKind } from "./executors";
import { addIssue, type TIssues, type TPath, templateIssue } from "./issues";
import { relativePathProblem } from "./paths";
import { isPlainArray, isPlainObject } from "./plain-data";
import { webhookUrlProblem } from "./urls";

export const NO_EXECUTOR_KIND = "needs one of command, webhook or worker (or a step name as text)";

export function runIssues(issues: TIssues, at: TPath, run: unknown, variables: Record<string, unknown>): void {
  if (typeof run === "string") {
    // A step named like a kind would reach the host's handler for that kind without an executor.
    if ((EXECUTOR_KINDS as readonly string[]).includes(run)) {
      addIssue(issues, at, `"${run}" is an executor kind, not a step name; write run: { ${run}: … }`);
    }
    return;
  }
  if (!isPlainObject(run)) return;
  const kinds = EXECUTOR_KINDS.filter((kind) => run[kind] !== undefined);
  const [kind] = kinds;
  if (kind === undefined) addIssue(issues, at, NO_EXECUTOR_KIND);
  else if (kinds.length > 1) {
    addIssue(issues, at, `names ${kinds.join(" and ")}; an executor is exactly one of command, webhook or worker`);
  } else foreignKeys(issues, at, run, kind);
  if (isPlainArray(run.command)) {
    run.command.forEach((arg, i) => {
      templateIssue(issues, [...at, "command", i], arg, variables);
    });
  }
  if (isPlainObject(run.env)) {
    for (const [name, value] of Object.entries(run.env)) templateIssue(issues, [...at, "env", name], value, variables);
  }
  const cwd = templateIssue(issues, [...at, "cwd"], run.cwd, variables);
  const cwdProblem = cwd === undefined ? undefined : relativePathProblem(cwd);
  if (cwdProblem !== undefined) addIssue(issues, [...at, "cwd"], cwdProblem);
  const webhook = templateIssue(issues, [...at, "webhook"], run.webhook, variables);
  const urlProblem = webhook === undefined ? undefined : webhookUrlProblem(webhook);
  if (urlProblem !== undefined) addIssue(issues, [...at, "webhook"], urlProblem);
}

/** `{ command: [...], retries: 2 }`: retries is a webhook's; say so rather than "unknown key". */
function foreignKeys(issues: TIssues, at: TPath, run: Record<string, unknown>, kind: TExecutorKind): void {
  for (const key of Object.keys(run)) {
    if (EXECUTOR_KEYS[kind].includes(key)) continue;
    const owners = EXECUTOR_KINDS.filter((other) => EXECUTOR_KEYS[other].includes(key));
    if (owners.length > 0)
      addIssue(issues, [...at, key], `belongs to a ${owners.join(" or ")} executor, not a ${kind}`);
  }
}
