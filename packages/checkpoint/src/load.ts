// Definition loading: YAML text → validated TWorkflow, or every problem found, each naming its
// path (`phases[2].checkpoint.options[1].on_select.action: unknown action "jump"`).

import { parseDocument } from "yaml";
import type { z } from "zod";
import { CheckpointError } from "./errors";
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
  const issues = [...(parsed.success ? [] : parsed.error.issues.flatMap(zodIssue)), ...semanticIssues(raw)];
  if (issues.length > 0 || !parsed.success) return failed(issues);
  return { ok: true, workflow: parsed.data };
}

/** loadWorkflow for callers that prefer an exception: CheckpointError("INVALID_DEFINITION"). */
export function loadWorkflowOrThrow(text: string): TWorkflow {
  const result = loadWorkflow(text);
  if (result.ok) return result.workflow;
  throw new CheckpointError("INVALID_DEFINITION", `invalid workflow:\n${result.errors.join("\n")}`, result.errors);
}

function zodIssue(issue: z.core.$ZodIssue): TWorkflowIssue[] {
  const path = issue.path.filter((s): s is string | number => typeof s !== "symbol");
  if (issue.code === "unrecognized_keys")
    return issue.keys.map((key) => ({ path: formatPath([...path, key]), message: "unknown key" }));
  return [{ path: formatPath(path), message: issue.message }];
}

function failed(issues: TWorkflowIssue[]): TLoadResult {
  return { ok: false, issues, errors: issues.map((issue) => `${issue.path}: ${issue.message}`) };
}
