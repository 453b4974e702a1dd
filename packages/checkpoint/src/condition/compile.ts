// Load-time half of the condition language: bound the text, let jsep parse it (jsep only builds a
// tree, it never runs anything), then walk the tree once against the whitelist in rules.ts.

import jsep from "jsep";
import {
  asNode,
  childNodes,
  MAX_CONDITION_DEPTH,
  MAX_CONDITION_LENGTH,
  nodeProblem,
  type TConditionNode,
} from "./rules";

export type TCompiledCondition = { readonly source: string; readonly ast: TConditionNode };
/** `position` is the 0-based character index in the expression, when one is known. */
export type TConditionError = { message: string; position: number | undefined };
export type TCompileResult = { ok: true; condition: TCompiledCondition } | { ok: false; error: TConditionError };

export function compileCondition(source: unknown): TCompileResult {
  if (typeof source !== "string") return failure("a condition must be a string", undefined);
  if (source.length > MAX_CONDITION_LENGTH) {
    return failure(`expression is ${source.length} characters; the limit is ${MAX_CONDITION_LENGTH}`, undefined);
  }
  if (source.trim() === "") return failure("expression is empty", 0);
  let ast: unknown;
  try {
    ast = jsep(source);
  } catch (error) {
    return parseFailure(error);
  }
  const root = asNode(ast);
  if (!root) return failure("expression is empty", 0);
  const problem = check(root, 1, source);
  return problem ? { ok: false, error: problem } : { ok: true, condition: { source, ast: root } };
}

/** Depth-first; the recursion stops at MAX_CONDITION_DEPTH, however deep jsep's tree is. */
function check(node: TConditionNode, depth: number, source: string): TConditionError | undefined {
  if (depth > MAX_CONDITION_DEPTH)
    return { message: `expression nests deeper than ${MAX_CONDITION_DEPTH} levels`, position: undefined };
  const problem = nodeProblem(node);
  if (problem) {
    const at = problem.token === undefined ? -1 : source.indexOf(problem.token);
    return { message: problem.message, position: at >= 0 ? at : undefined };
  }
  for (const child of childNodes(node)) {
    const childNode = asNode(child);
    if (!childNode) return { message: "malformed expression", position: undefined };
    const found = check(childNode, depth + 1, source);
    if (found) return found;
  }
  return undefined;
}

function parseFailure(error: unknown): TCompileResult {
  if (error instanceof RangeError) return failure("expression nests too deeply to parse", undefined);
  const description = error instanceof Error ? ((error as { description?: unknown }).description ?? error.message) : "";
  const index = error instanceof Error ? (error as { index?: unknown }).index : undefined;
  const position = typeof index === "number" ? index : undefined;
  const suffix = position === undefined ? "" : ` at character ${position}`;
  return failure(`cannot parse: ${String(description)}${suffix}`, position);
}

function failure(message: string, position: number | undefined): TCompileResult {
  return { ok: false, error: { message, position } };
}
