// Definition loading: YAML text → validated TWorkflow, or every problem found, each naming its
// path (`phases[2].checkpoint.options[1].on_select.action: unknown action "jump"`).

import { parseDocument } from "yaml";
import type { z } from "zod";
import { CheckpointError } from "./errors";
import { uniqueIssues } from "./issues";
import { isPlainObject } from "./plain-data";
import { type TWorkflow, ZWorkflow } from "./schema";
import { blockedKeyIssues, formatPath, semanticIssues, type TWorkflowIssue } from "./validate";

export const MAX_DEFINITION_CHARS = 1_000_000;

export type TLoadResult = { ok: true; workflow: TWorkflow } | { ok: false; issues: TWorkflowIssue[]; errors: string[] };

export function loadWorkflow(text: string): TLoadResult {
  if (typeof text !== "string") return failed([{ path: "workflow", message: "must be YAML text" }]);
  if (text.length > MAX_DEFINITION_CHARS) {
    return failed([
      { path: "workflow", message: `is ${text.length} characters; the limit is ${MAX_DEFINITION_CHARS}` },
    ]);
  }
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) return failed(doc.errors.map((error) => ({ path: "yaml", message: error.message })));
  let raw: unknown;
  try {
    raw = doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    return failed([{ path: "yaml", message: error instanceof Error ? error.message : "cannot be read" }]);
  }
  if (!isPlainObject(raw)) return failed([{ path: "workflow", message: "must be a YAML mapping" }]);
  const blocked = blockedKeyIssues(raw);
  if (blocked.length > 0) return failed(blocked);
  const parsed = ZWorkflow.safeParse(raw, {
    error: (issue) => (issue.input === undefined ? "is required" : undefined),
  });
  const issues = uniqueIssues([
    ...(parsed.success ? [] : parsed.error.issues.flatMap((issue) => zodIssue(issue, []))),
    ...semanticIssues(raw),
  ]);
  if (issues.length > 0 || !parsed.success) return failed(issues);
  return { ok: true, workflow: parsed.data };
}

/** loadWorkflow for callers that prefer an exception: CheckpointError("INVALID_DEFINITION"). */
export function loadWorkflowOrThrow(text: string): TWorkflow {
  const result = loadWorkflow(text);
  if (result.ok) return result.workflow;
  throw new CheckpointError("INVALID_DEFINITION", `invalid workflow:\n${result.errors.join("\n")}`, result.errors);
}

function zodIssue(issue: z.core.$ZodIssue, prefix: (string | number)[]): TWorkflowIssue[] {
  const path = [...prefix, ...issue.path.filter((s): s is string | number => typeof s !== "symbol")];
  if (issue.code === "unrecognized_keys")
    return issue.keys.map((key) => ({ path: formatPath([...path, key]), message: "unknown key" }));
  if (issue.code === "invalid_key") return issue.issues.flatMap((inner) => zodIssue(inner, path));
  if (issue.code === "invalid_union") {
    // `run: "step" | { executor }`: report the branch the value was meant for (the one that did
    // not fail on its type alone), not zod's bare "Invalid input".
    const meant = issue.errors.filter((branch) => !branch.every((inner) => isTypeMismatch(inner)));
    if (meant.length === 1) return (meant[0] ?? []).flatMap((inner) => zodIssue(inner, path));
  }
  return [{ path: formatPath(path), message: issue.message }];
}

function isTypeMismatch(issue: z.core.$ZodIssue): boolean {
  return issue.code === "invalid_type" && issue.path.length === 0;
}

function failed(issues: TWorkflowIssue[]): TLoadResult {
  return { ok: false, issues, errors: issues.map((issue) => `${issue.path}: ${issue.message}`) };
}
