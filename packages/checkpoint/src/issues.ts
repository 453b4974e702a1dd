// Load-time problems: each names its path in the definition, so every rule file reports alike.

import { CheckpointError } from "./errors";
import { substitute } from "./template";

export type TPath = readonly (string | number)[];
/** `position`: for a condition that fails to parse, the 0-based character index in it. */
export type TWorkflowIssue = { path: string; message: string; position?: number };
export type TIssues = TWorkflowIssue[];

export function formatPath(path: TPath): string {
  let out = "";
  for (const segment of path) out += typeof segment === "number" ? `[${segment}]` : out ? `.${segment}` : segment;
  return out || "workflow";
}

export function addIssue(issues: TIssues, path: TPath, message: string, position?: number): void {
  issues.push(
    position === undefined ? { path: formatPath(path), message } : { path: formatPath(path), message, position },
  );
}

/**
 * Every `{{var}}` must resolve, among the declared variables, to a string, number or boolean.
 * Returns the text rendered with the declared values (for rules on the result), or undefined
 * when `text` is not a string or does not render (the issue is then recorded).
 */
export function templateIssue(
  issues: TIssues,
  at: TPath,
  text: unknown,
  variables: Record<string, unknown>,
): string | undefined {
  if (typeof text !== "string") return undefined;
  try {
    return substitute(text, variables);
  } catch (error) {
    if (!(error instanceof CheckpointError)) throw error;
    addIssue(issues, at, error.message);
    return undefined;
  }
}

/** The same problem reported by the shape check and by a whole-definition rule is listed once. */
export function uniqueIssues(issues: TIssues): TIssues {
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = `${issue.path}\n${issue.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
