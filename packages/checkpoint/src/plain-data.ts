// Plain data only. Conditions, templates and the runner read host values through these helpers:
// own data properties of plain objects and arrays, never a getter, never the prototype chain.

import { CheckpointError } from "./errors";

/** Property names that lead to prototypes or constructors: refused everywhere, in any form. */
export const BLOCKED_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

export type TJsonValue = null | boolean | number | string | TJsonValue[] | { [key: string]: TJsonValue };
export type TJsonObject = { [key: string]: TJsonValue };

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export function isPlainArray(value: unknown): value is unknown[] {
  return Array.isArray(value) && Object.getPrototypeOf(value) === Array.prototype;
}

export type TOwnValue = { found: true; value: unknown } | { found: false; reason: "absent" | "accessor" };

/** An own data property, read from its descriptor so a getter is reported, never invoked. */
export function ownDataValue(target: object, key: string): TOwnValue {
  const descriptor = Object.getOwnPropertyDescriptor(target, key);
  if (descriptor === undefined) return { found: false, reason: "absent" };
  if (!("value" in descriptor)) return { found: false, reason: "accessor" };
  return { found: true, value: descriptor.value };
}

const MAX_DATA_DEPTH = 64;

/**
 * A deep copy of host data that keeps only what JSON keeps: null, booleans, finite numbers,
 * strings, plain arrays and plain objects (undefined members are dropped, as JSON does). Getters,
 * class instances, functions, symbols, non-finite numbers and blocked keys are refused, so run
 * state stays serialisable and nothing host-supplied can run code while a condition reads it.
 */
export function toPlainData(value: unknown, path = "data"): TJsonValue {
  return copy(value, path, 0);
}

function copy(value: unknown, path: string, depth: number): TJsonValue {
  if (depth > MAX_DATA_DEPTH) throw invalid(path, `nested deeper than ${MAX_DATA_DEPTH} levels`);
  if (value === null || typeof value === "boolean" || typeof value === "string") return value;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw invalid(path, "must be a finite number");
    return value;
  }
  if (isPlainArray(value)) {
    const out: TJsonValue[] = [];
    for (let i = 0; i < value.length; i++) {
      const item = ownDataValue(value, String(i));
      if (!item.found && item.reason === "accessor") throw invalid(`${path}[${i}]`, "is a getter, not data");
      out.push(item.found && item.value !== undefined ? copy(item.value, `${path}[${i}]`, depth + 1) : null);
    }
    return out;
  }
  if (isPlainObject(value)) {
    const out: TJsonObject = {};
    for (const key of Object.keys(value)) {
      if (BLOCKED_KEYS.has(key)) throw invalid(`${path}.${key}`, "is a reserved property name");
      const item = ownDataValue(value, key);
      if (!item.found) throw invalid(`${path}.${key}`, "is a getter, not data");
      if (item.value === undefined) continue;
      out[key] = copy(item.value, `${path}.${key}`, depth + 1);
    }
    return out;
  }
  throw invalid(path, `must be JSON data, not ${describe(value)}`);
}

function describe(value: unknown): string {
  if (typeof value === "object" && value !== null) return "a non-plain object";
  return typeof value;
}

function invalid(path: string, rule: string): CheckpointError {
  return new CheckpointError("INVALID_INPUT", `${path}: ${rule}`);
}
