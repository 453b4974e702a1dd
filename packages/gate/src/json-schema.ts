// JSON Schema checking for the output contract, through @cfworker/json-schema: an interpreter
// that never compiles schemas to code (no eval / new Function, which our security rules forbid
// and which rules out ajv). The schema comes from the config (trusted, written by the team);
// the instance is model output (untrusted), so two of the validator's weak spots are closed here:
// - `format: "url"`: its regex backtracks exponentially (28 characters take over a second), so a
//   schema using it is refused (use "uri", whose check is linear);
// - deep nesting: validation recurses once per level of the instance, so the output contract
//   refuses output nested deeper than MAX_JSON_DEPTH before parsing it.
// `pattern` / `patternProperties` are regexes the team wrote; keeping them linear is on the
// config author, like any regex in a config.

import { type OutputUnit, type Schema, type SchemaDraft, Validator } from "@cfworker/json-schema";
import { GateInputError } from "./errors";

export const MAX_JSON_DEPTH = 256;

const FIELD = "config.output_contract.json_schema";

// Compiled validators by the schema's JSON text. Compiling (checking the tree, copying,
// dereferencing) costs far more than validating one output, and a gate that runs on every model
// attempt uses the same schema each time. Bounded, oldest first out; deterministic either way.
const COMPILED_LIMIT = 32;
const compiled = new Map<string, Validator>();

/** A validator for a config schema, compiled once per distinct schema; GateInputError when unusable. */
export function compileJsonSchema(schema: Record<string, unknown>): Validator {
  // Checked first, every time: a cyclic schema cannot even be turned into a key.
  checkSchemaTree(schema, new Set());
  const key = JSON.stringify(schema);
  const cached = compiled.get(key);
  if (cached) return cached;
  const validator = compileUncached(schema);
  if (compiled.size >= COMPILED_LIMIT) compiled.delete(compiled.keys().next().value as string);
  compiled.set(key, validator);
  return validator;
}

function compileUncached(schema: Record<string, unknown>): Validator {
  try {
    // dereference() annotates the schema objects it is given: work on a copy, never the config.
    const copy = structuredClone(schema) as Schema;
    return new Validator(copy, draftOf(schema.$schema), false);
  } catch (error) {
    throw new GateInputError(FIELD, `schema cannot be compiled: ${(error as Error).message}`);
  }
}

/** Validates a parsed instance; GateInputError when the schema turns out unusable (unresolved $ref). */
export function validateJson(validator: Validator, instance: unknown): OutputUnit[] {
  try {
    return validator.validate(instance).errors;
  } catch (error) {
    throw new GateInputError(FIELD, `schema cannot be applied: ${firstLine((error as Error).message)}`);
  }
}

/**
 * The errors worth quoting. cfworker reports every level of a failure ('Property "a" does not
 * match schema.' then the actual '#/a: Instance type "string" is invalid'), and each failed
 * alternative of anyOf/oneOf; people need the leaves, and the anyOf verdict itself.
 */
const SUMMARY_KEYWORDS = new Set([
  "properties",
  "items",
  "prefixItems",
  "additionalItems",
  "patternProperties",
  "dependentSchemas",
  "allOf",
  "$ref",
  "$recursiveRef",
  "false",
]);

export function describeSchemaErrors(errors: readonly OutputUnit[]): string[] {
  const leaves = errors.filter(
    (e) =>
      !SUMMARY_KEYWORDS.has(e.keyword) &&
      !e.keywordLocation.includes("/anyOf/") &&
      !e.keywordLocation.includes("/oneOf/"),
  );
  const lines = (leaves.length > 0 ? leaves : errors).map((e) => `${e.instanceLocation}: ${trimDot(e.error)}`);
  return [...new Set(lines)];
}

function trimDot(message: string): string {
  return message.endsWith(".") ? message.slice(0, -1) : message;
}

function firstLine(message: string): string {
  const cut = message.indexOf("\n");
  return cut === -1 ? message : message.slice(0, cut);
}

/** "$schema" names the draft; without it, 2020-12 (the current one). */
function draftOf(uri: unknown): SchemaDraft {
  if (typeof uri !== "string") return "2020-12";
  if (uri.includes("draft-04")) return "4";
  if (uri.includes("draft-06") || uri.includes("draft-07")) return "7";
  if (uri.includes("2019-09")) return "2019-09";
  return "2020-12";
}

/** Refuses cycles (YAML aliases can make them; the validator would recurse forever) and "url". */
function checkSchemaTree(node: unknown, ancestors: Set<object>): void {
  if (node === null || typeof node !== "object") return;
  if (ancestors.has(node)) throw new GateInputError(FIELD, "schema must not contain cycles");
  ancestors.add(node);
  if (!Array.isArray(node) && (node as Record<string, unknown>).format === "url") {
    throw new GateInputError(
      FIELD,
      'format "url" is not supported (its validator backtracks exponentially on crafted input); use "uri"',
    );
  }
  for (const child of Object.values(node)) checkSchemaTree(child, ancestors);
  ancestors.delete(node);
}

/**
 * Nesting depth of a JSON text, by one pass over it (brackets inside strings do not count).
 * Stops counting once past `limit`, so the answer is min(depth, limit + 1).
 */
export function jsonDepth(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) {
      inString = true;
    } else if (c === 91 || c === 123) {
      depth++;
      if (depth > max) {
        max = depth;
        if (max > limit) return max;
      }
    } else if (c === 93 || c === 125) {
      depth--;
    }
  }
  return max;
}
