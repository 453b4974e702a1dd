// Run-time half: a small interpreter over the checked tree. It re-applies the whitelist at every
// node (a tree handed in directly is not trusted), reads only own data properties, counts its
// steps, and never throws: every failure, even a stack overflow, comes back as `{ ok: false }`.

import { BLOCKED_KEYS, isPlainArray, isPlainObject, ownDataValue } from "../plain-data";
import { compileCondition, type TCompiledCondition } from "./compile";
import {
  asNode,
  DEFAULT_MAX_STEPS,
  field,
  MAX_CONDITION_DEPTH,
  methodName,
  nodeProblem,
  type TConditionNode,
} from "./rules";

/** What a condition can see: the run context and the phase whose checkpoint is being decided. */
export type TConditionScope = { context: unknown; phase?: unknown };
export type TConditionResult = { ok: true; value: boolean } | { ok: false; error: string };
export type TEvaluateOptions = { maxSteps?: number };

class ConditionFailure extends Error {}

/** `a?.b.c` with `a` null: the rest of the chain is skipped, and the whole chain is undefined. */
const SHORT_CIRCUIT: unique symbol = Symbol("short-circuit");

type TRun = { readonly scope: TConditionScope; readonly maxSteps: number; steps: number };

export function evaluateCondition(
  condition: string | TCompiledCondition,
  scope: TConditionScope,
  options: TEvaluateOptions = {},
): TConditionResult {
  try {
    let compiled: TCompiledCondition;
    if (typeof condition === "string") {
      const result = compileCondition(condition);
      if (!result.ok) return { ok: false, error: result.error.message };
      compiled = result.condition;
    } else {
      compiled = condition;
    }
    const run: TRun = { scope, maxSteps: options.maxSteps ?? DEFAULT_MAX_STEPS, steps: 0 };
    return { ok: true, value: Boolean(value(field(compiled, "ast"), run, 1)) };
  } catch (error) {
    if (error instanceof ConditionFailure) return { ok: false, error: error.message };
    if (error instanceof RangeError) return { ok: false, error: "expression is too deep to evaluate" };
    return { ok: false, error: "expression could not be evaluated" };
  }
}

function fail(message: string): never {
  throw new ConditionFailure(message);
}

/** A node's value where a chain ends (operands, arguments, the result). */
function value(raw: unknown, run: TRun, depth: number): unknown {
  const result = chain(raw, run, depth);
  return result === SHORT_CIRCUIT ? undefined : result;
}

function chain(raw: unknown, run: TRun, depth: number): unknown {
  run.steps += 1;
  if (run.steps > run.maxSteps) fail(`evaluation exceeded its budget of ${run.maxSteps} steps`);
  if (depth > MAX_CONDITION_DEPTH) fail(`expression nests deeper than ${MAX_CONDITION_DEPTH} levels`);
  const node = asNode(raw);
  if (!node) fail("malformed expression");
  const problem = nodeProblem(node);
  if (problem) fail(problem.message);
  switch (node.type) {
    case "Literal":
      return field(node, "value");
    case "Identifier":
      return root(run.scope, String(field(node, "name")));
    case "MemberExpression":
      return member(node, run, depth);
    case "CallExpression":
      return call(node, run, depth);
    case "UnaryExpression":
      return unary(node, run, depth);
    case "BinaryExpression":
      return binary(node, run, depth);
    default:
      return fail(`unsupported syntax (${node.type})`);
  }
}

function root(scope: TConditionScope, name: string): unknown {
  if (!isPlainObject(scope)) fail("condition scope is not plain data");
  const read = ownDataValue(scope, name);
  if (!read.found && read.reason === "accessor") fail(`"${name}" is not data`);
  return read.found ? read.value : undefined;
}

function member(node: TConditionNode, run: TRun, depth: number): unknown {
  const object = chain(field(node, "object"), run, depth + 1);
  if (object === SHORT_CIRCUIT) return SHORT_CIRCUIT;
  if ((object === null || object === undefined) && field(node, "optional") === true) return SHORT_CIRCUIT;
  const property = asNode(field(node, "property"));
  const key =
    field(node, "computed") === true
      ? propertyKey(value(property, run, depth + 1))
      : String(field(property ?? {}, "name"));
  return read(object, key);
}

function propertyKey(key: unknown): string {
  if (typeof key === "string") return key;
  if (typeof key === "number" && Number.isInteger(key) && key >= 0) return String(key);
  return fail("a computed property must be a string or a non-negative integer");
}

/** One property read: own data of a plain object, array or string, and nothing else. */
function read(object: unknown, key: string): unknown {
  if (BLOCKED_KEYS.has(key)) fail(`property "${key}" is not allowed`);
  if (object === null || object === undefined) fail(`cannot read "${key}" of ${String(object)}`);
  if (typeof object === "string") {
    if (key === "length") return object.length;
    return /^(0|[1-9]\d*)$/.test(key) ? object[Number(key)] : undefined;
  }
  if (isPlainArray(object) || isPlainObject(object)) {
    const found = ownDataValue(object, key);
    if (!found.found && found.reason === "accessor") fail(`property "${key}" is a getter, not data`);
    return found.found ? found.value : undefined;
  }
  return fail(`cannot read "${key}" of a ${typeof object === "object" ? "non-plain object" : typeof object}`);
}

function call(node: TConditionNode, run: TRun, depth: number): unknown {
  const callee = asNode(field(node, "callee"));
  const method = methodName(callee);
  if (!callee || method === undefined) return fail("only .includes(), .startsWith() and .endsWith() may be called");
  const receiver = chain(field(callee, "object"), run, depth + 1);
  if (receiver === SHORT_CIRCUIT) return SHORT_CIRCUIT;
  if ((receiver === null || receiver === undefined) && field(callee, "optional") === true) return SHORT_CIRCUIT;
  const args = field(node, "arguments");
  const arg = value(isPlainArray(args) ? args[0] : undefined, run, depth + 1);
  if (typeof receiver === "string") {
    if (typeof arg !== "string") return fail(`.${method}() on a string needs a string argument`);
    if (method === "includes") return receiver.includes(arg);
    return method === "startsWith" ? receiver.startsWith(arg) : receiver.endsWith(arg);
  }
  if (method === "includes" && isPlainArray(receiver)) return arrayIncludes(receiver, arg, run);
  return fail(`.${method}() needs a ${method === "includes" ? "string or an array" : "string"}`);
}

/** Array.prototype.includes by hand: each element is read as own data and costs a step. */
function arrayIncludes(array: unknown[], needle: unknown, run: TRun): boolean {
  const length = array.length;
  for (let i = 0; i < length; i++) {
    run.steps += 1;
    if (run.steps > run.maxSteps) fail(`evaluation exceeded its budget of ${run.maxSteps} steps`);
    const item = ownDataValue(array, String(i));
    if (!item.found && item.reason === "accessor") fail(`element ${i} is a getter, not data`);
    const element = item.found ? item.value : undefined;
    if (element === needle || (Number.isNaN(element) && Number.isNaN(needle))) return true;
  }
  return false;
}

function unary(node: TConditionNode, run: TRun, depth: number): unknown {
  const argument = value(field(node, "argument"), run, depth + 1);
  if (field(node, "operator") === "!") return !argument;
  if (typeof argument !== "number") return fail("unary - needs a number");
  return -argument;
}

function binary(node: TConditionNode, run: TRun, depth: number): unknown {
  const operator = field(node, "operator");
  const left = value(field(node, "left"), run, depth + 1);
  if (operator === "&&") return left ? value(field(node, "right"), run, depth + 1) : left;
  if (operator === "||") return left ? left : value(field(node, "right"), run, depth + 1);
  const right = value(field(node, "right"), run, depth + 1);
  switch (operator) {
    case "===":
      return left === right;
    case "!==":
      return left !== right;
    case "==":
      return looseEquals(left, right);
    case "!=":
      return !looseEquals(left, right);
    default:
      return compare(String(operator), left, right);
  }
}

/** `==` is `===` except that null and undefined equal each other: no coercion, no valueOf. */
function looseEquals(left: unknown, right: unknown): boolean {
  return left === right || ((left === null || left === undefined) && (right === null || right === undefined));
}

/** Numbers with numbers, strings with strings; any other pair is false (as NaN compares in JS). */
function compare(operator: string, left: unknown, right: unknown): boolean {
  const comparable =
    (typeof left === "number" && typeof right === "number") || (typeof left === "string" && typeof right === "string");
  if (!comparable) return false;
  const [a, b] = [left as number | string, right as number | string];
  if (operator === "<") return a < b;
  if (operator === "<=") return a <= b;
  if (operator === ">") return a > b;
  if (operator === ">=") return a >= b;
  return fail(`operator "${operator}" is not supported`);
}
