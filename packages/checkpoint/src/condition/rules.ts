// The condition language, as a whitelist both the load-time check and the interpreter apply to
// every node they visit: a node that is not described here is refused, whatever jsep produced.

import { BLOCKED_KEYS, isPlainArray, isPlainObject, ownDataValue } from "../plain-data";

export const MAX_CONDITION_LENGTH = 1000;
export const MAX_CONDITION_DEPTH = 32;
export const DEFAULT_MAX_STEPS = 10_000;

/** The only identifiers a condition may start from. */
export const ROOTS: ReadonlySet<string> = new Set(["context", "phase"]);
export const METHODS: ReadonlySet<string> = new Set(["includes", "startsWith", "endsWith"]);
const UNARY_OPERATORS: ReadonlySet<string> = new Set(["!", "-"]);
const BINARY_OPERATORS: ReadonlySet<string> = new Set(["&&", "||", "==", "===", "!=", "!==", "<", "<=", ">", ">="]);

/** An expression node: jsep's output, or anything claiming to be one (hence every read is checked). */
export type TConditionNode = { readonly type: string; readonly [key: string]: unknown };

/** A field of a node, read as an own data property (a node is data, never code). */
export function field(node: object, key: string): unknown {
  const read = ownDataValue(node, key);
  return read.found ? read.value : undefined;
}

export function asNode(value: unknown): TConditionNode | undefined {
  return isPlainObject(value) && typeof field(value, "type") === "string" ? (value as TConditionNode) : undefined;
}

/** What went wrong with one node, and a token to locate it in the source (best effort). */
export type TNodeProblem = { message: string; token?: string };

/** Checks one node's own shape (not its children): the rules shared by load time and run time. */
export function nodeProblem(node: TConditionNode): TNodeProblem | undefined {
  switch (node.type) {
    case "Literal": {
      const value = field(node, "value");
      if (value === null || typeof value === "string" || typeof value === "boolean") return undefined;
      if (typeof value === "number" && Number.isFinite(value)) return undefined;
      return { message: "unsupported literal" };
    }
    case "Identifier": {
      const name = field(node, "name");
      if (typeof name === "string" && ROOTS.has(name)) return undefined;
      return {
        message: `unknown identifier "${String(name)}": a condition may only read context and phase`,
        token: String(name),
      };
    }
    case "ThisExpression":
      return { message: "`this` is not allowed", token: "this" };
    case "MemberExpression":
      return memberProblem(node);
    case "CallExpression":
      return callProblem(node);
    case "UnaryExpression": {
      const operator = String(field(node, "operator"));
      if (UNARY_OPERATORS.has(operator)) return undefined;
      return { message: `operator "${operator}" is not supported`, token: operator };
    }
    case "BinaryExpression": {
      const operator = String(field(node, "operator"));
      if (BINARY_OPERATORS.has(operator)) return undefined;
      return { message: `operator "${operator}" is not supported`, token: operator };
    }
    case "ConditionalExpression":
      return { message: "conditional (? :) expressions are not supported", token: "?" };
    case "ArrayExpression":
      return { message: "array literals are not supported", token: "[" };
    case "SequenceExpression":
      return { message: "sequences (a, b) are not allowed", token: "," };
    case "Compound": {
      const body = field(node, "body");
      const first = isPlainArray(body) ? asNode(body[0]) : undefined;
      if (first?.type === "Identifier" && field(first, "name") === "new")
        return { message: "`new` is not allowed", token: "new" };
      return { message: "expected a single expression" };
    }
    default:
      return { message: `unsupported syntax (${node.type})` };
  }
}

function memberProblem(node: TConditionNode): TNodeProblem | undefined {
  const property = asNode(field(node, "property"));
  if (!asNode(field(node, "object")) || !property) return { message: "malformed member access" };
  if (field(node, "computed") === true) {
    const key = property.type === "Literal" ? field(property, "value") : undefined;
    return typeof key === "string" && BLOCKED_KEYS.has(key) ? blocked(key) : undefined;
  }
  const name = property.type === "Identifier" ? field(property, "name") : undefined;
  if (typeof name !== "string") return { message: "malformed member access" };
  return BLOCKED_KEYS.has(name) ? blocked(name) : undefined;
}

function callProblem(node: TConditionNode): TNodeProblem | undefined {
  const callee = asNode(field(node, "callee"));
  const method = methodName(callee);
  if (method === undefined) {
    const named = callee?.type === "MemberExpression" ? asNode(field(callee, "property")) : callee;
    const name = named?.type === "Identifier" ? String(field(named, "name")) : "(";
    return { message: "only .includes(), .startsWith() and .endsWith() may be called", token: name };
  }
  if (field(node, "optional") === true) return { message: "optional calls (?.()) are not supported", token: "?.(" };
  const args = field(node, "arguments");
  if (!isPlainArray(args) || args.length !== 1 || !asNode(args[0])) {
    return { message: `.${method}() takes exactly one argument`, token: method };
  }
  return undefined;
}

/** `x.includes` → "includes"; undefined unless the callee is a whitelisted method read by dot. */
export function methodName(callee: TConditionNode | undefined): string | undefined {
  if (callee?.type !== "MemberExpression" || field(callee, "computed") === true) return undefined;
  const property = asNode(field(callee, "property"));
  const name = property?.type === "Identifier" ? field(property, "name") : undefined;
  return typeof name === "string" && METHODS.has(name) ? name : undefined;
}

function blocked(name: string): TNodeProblem {
  return { message: `property "${name}" is not allowed`, token: name };
}

/** The nodes under `node` that are evaluated (a method's name and a dotted property are not). */
export function childNodes(node: TConditionNode): unknown[] {
  switch (node.type) {
    case "MemberExpression":
      return field(node, "computed") === true
        ? [field(node, "object"), field(node, "property")]
        : [field(node, "object")];
    case "CallExpression": {
      const callee = asNode(field(node, "callee"));
      const args = field(node, "arguments");
      return [callee ? field(callee, "object") : undefined, ...(isPlainArray(args) ? args : [])];
    }
    case "UnaryExpression":
      return [field(node, "argument")];
    case "BinaryExpression":
      return [field(node, "left"), field(node, "right")];
    default:
      return [];
  }
}
