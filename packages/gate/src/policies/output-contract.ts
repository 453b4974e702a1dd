// Output contract policy (seed "Policy 5", full mode): structured output must stay structured.
// It judges what the config asks for (json, required_keys, types, json_schema). With none of
// those, a JSON baseline (object or array) is the contract: the candidate must be JSON and keep
// the baseline's keys and types (infer-contract.ts); otherwise it is skipped. A configured
// contract always wins. Every violation BLOCKs: a consumer parsing the output would break.

import type { TGateConfig, TGateRecord, TPolicyResult } from "@solserver/contracts";
import { GATE_CODES } from "../codes";
import { compareToBaseline, structuredBaseline } from "../infer-contract";
import { compileJsonSchema, describeSchemaErrors, jsonDepth, MAX_JSON_DEPTH, validateJson } from "../json-schema";
import { applyEnforcement, policyResult, skippedResult } from "../result";

/** How many schema errors a reason quotes (the count covers all of them). */
const MAX_SCHEMA_ERRORS = 3;

type JsonTypeName = TGateConfig["output_contract"]["types"][string];

export function evaluateOutputContractPolicy(
  baseline: TGateRecord,
  candidate: TGateRecord,
  config: TGateConfig["output_contract"],
): TPolicyResult {
  const typeEntries = Object.entries(config.types);
  const wantsObject = config.required_keys.length > 0 || typeEntries.length > 0;
  const configured = config.json || wantsObject || config.json_schema !== undefined;
  // No contract configured: a structured baseline implies one (bounded: its depth is checked first).
  const inferred =
    configured || jsonDepth(baseline.output) > MAX_JSON_DEPTH
      ? undefined
      : structuredBaseline(baseline.output, JSON.parse);
  if (!configured && inferred === undefined) {
    return skippedResult(
      "output_contract",
      "Output contract: not evaluated (no contract configured).",
      "no contract configured",
    );
  }
  // Compiled before looking at the output, so a bad schema is reported whatever the output is.
  const validator = config.json_schema === undefined ? null : compileJsonSchema(config.json_schema);

  const reasons: string[] = [];
  const codes: string[] = [];
  const details: Record<string, unknown> = inferred === undefined ? {} : { contract: "inferred from the baseline" };
  const violation = (code: string, reason: string) => {
    if (!codes.includes(code)) codes.push(code);
    reasons.push(reason);
  };

  // Depth first (one cheap pass that stops early): V8's JSON.parse needs ~10 ms for 100 KB of
  // nested brackets, and no legitimate structured output nests hundreds of levels deep.
  if (jsonDepth(candidate.output) > MAX_JSON_DEPTH) {
    violation(
      GATE_CODES.CONTRACT_BLOCK_INVALID_JSON,
      `Output JSON nests deeper than ${MAX_JSON_DEPTH} levels; not parsed.`,
    );
    return finish(reasons, codes, details, config);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(candidate.output);
  } catch {
    // The engine's message is left out: it quotes the output and differs between Node versions.
    violation(GATE_CODES.CONTRACT_BLOCK_INVALID_JSON, "Output is not valid JSON.");
    return finish(reasons, codes, details, config);
  }

  if (wantsObject) {
    if (!isPlainObject(parsed)) {
      violation(GATE_CODES.CONTRACT_BLOCK_NOT_OBJECT, `Output JSON is ${describeType(parsed)}, expected an object.`);
    } else {
      const missing = config.required_keys.filter((key) => !Object.hasOwn(parsed as object, key));
      if (missing.length > 0) {
        details.missing_keys = missing;
        violation(
          GATE_CODES.CONTRACT_BLOCK_MISSING_KEY,
          `Output JSON is missing required key(s): ${missing.join(", ")}.`,
        );
      }
      // A typed key that is absent is only a violation if it is also required (reported above).
      const mismatched: string[] = [];
      for (const [key, expected] of typeEntries) {
        if (!Object.hasOwn(parsed, key)) continue;
        const actual = (parsed as Record<string, unknown>)[key];
        if (!hasType(actual, expected)) mismatched.push(`${key} (expected ${expected}, got ${jsonType(actual)})`);
      }
      if (mismatched.length > 0) {
        details.type_mismatches = mismatched;
        violation(GATE_CODES.CONTRACT_BLOCK_TYPE_MISMATCH, `Output JSON type mismatch: ${mismatched.join(", ")}.`);
      }
    }
  }

  if (inferred !== undefined) {
    const { missing, mismatched } = compareToBaseline(inferred, parsed);
    if (missing.length > 0) {
      details.missing_keys = missing;
      violation(
        GATE_CODES.CONTRACT_BLOCK_MISSING_KEY,
        `Output JSON is missing key(s) the baseline has: ${missing.slice(0, MAX_SCHEMA_ERRORS * 3).join(", ")}${missing.length > MAX_SCHEMA_ERRORS * 3 ? ` (+${missing.length - MAX_SCHEMA_ERRORS * 3} more)` : ""}.`,
      );
    }
    if (mismatched.length > 0) {
      details.type_mismatches = mismatched;
      violation(
        GATE_CODES.CONTRACT_BLOCK_TYPE_MISMATCH,
        `Output JSON type differs from the baseline: ${mismatched.slice(0, MAX_SCHEMA_ERRORS * 3).join(", ")}${mismatched.length > MAX_SCHEMA_ERRORS * 3 ? ` (+${mismatched.length - MAX_SCHEMA_ERRORS * 3} more)` : ""}.`,
      );
    }
  }

  if (validator !== null) {
    // The depth limit above also bounds the validator's recursion (one level per nesting level).
    const errors = describeSchemaErrors(validateJson(validator, parsed));
    if (errors.length > 0) {
      const shown = errors.slice(0, MAX_SCHEMA_ERRORS);
      const more = errors.length > MAX_SCHEMA_ERRORS ? ` (+${errors.length - MAX_SCHEMA_ERRORS} more)` : "";
      details.schema_errors = errors;
      violation(GATE_CODES.CONTRACT_BLOCK_SCHEMA, `Output JSON does not match the schema: ${shown.join("; ")}${more}.`);
    }
  }
  return finish(reasons, codes, details, config);
}

function finish(
  reasons: string[],
  codes: string[],
  details: Record<string, unknown>,
  config: TGateConfig["output_contract"],
): TPolicyResult {
  details.metrics = { contract_violations: reasons.length };
  if (reasons.length === 0) {
    return policyResult("output_contract", "ALLOW", "Output contract: No issues.", [], [], details);
  }
  const title = `Output contract: ${reasons.length} violation(s).`;
  return applyEnforcement(policyResult("output_contract", "BLOCK", title, reasons, codes, details), config.enforce);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The JSON type name of a parsed value; whole numbers are "integer" (and also satisfy "number"). */
function jsonType(value: unknown): JsonTypeName {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  if (typeof value === "string" || typeof value === "boolean") return typeof value as JsonTypeName;
  return "object";
}

function hasType(value: unknown, expected: JsonTypeName): boolean {
  const actual = jsonType(value);
  return actual === expected || (expected === "number" && actual === "integer");
}

function describeType(value: unknown): string {
  const type = jsonType(value);
  if (type === "null") return "null";
  return type === "array" || type === "integer" || type === "object" ? `an ${type}` : `a ${type}`;
}
