// `{{ name }}` substitution with a one-pass scanner (indexOf, no backtracking): each `{{` is
// matched with the next `}}`, so the work is linear in the template's length.

import { CheckpointError } from "./errors";
import { BLOCKED_KEYS, isPlainArray, isPlainObject, ownDataValue } from "./plain-data";

const NAME_HEAD = /^[A-Za-z_]/;
const NAME_SEGMENT = /^[A-Za-z0-9_]+$/;

export type TTemplatePart = { kind: "text"; text: string } | { kind: "var"; name: string; path: string[] };

/** Splits a template into text and placeholders; throws CheckpointError("TEMPLATE") if malformed. */
export function parseTemplate(template: string): TTemplatePart[] {
  const parts: TTemplatePart[] = [];
  let at = 0;
  while (at < template.length) {
    const open = template.indexOf("{{", at);
    if (open < 0) break;
    const close = template.indexOf("}}", open + 2);
    if (close < 0) throw templateError(`unclosed "{{" at character ${open}`);
    if (open > at) parts.push({ kind: "text", text: template.slice(at, open) });
    const name = template.slice(open + 2, close).trim();
    parts.push({ kind: "var", name, path: namePath(name, open) });
    at = close + 2;
  }
  if (at < template.length) parts.push({ kind: "text", text: template.slice(at) });
  return parts;
}

function namePath(name: string, position: number): string[] {
  const path = name.split(".");
  if (!NAME_HEAD.test(name) || !path.every((segment) => NAME_SEGMENT.test(segment))) {
    throw templateError(`"{{${name}}}" at character ${position} is not a variable name`);
  }
  const blocked = path.find((segment) => BLOCKED_KEYS.has(segment));
  if (blocked !== undefined) throw templateError(`"{{${name}}}": "${blocked}" is not allowed in a variable name`);
  return path;
}

/** The variable names a template uses, in order (malformed templates throw). */
export function templateVariables(template: string): string[] {
  return parseTemplate(template).flatMap((part) => (part.kind === "var" ? [part.name] : []));
}

/**
 * Replaces every `{{ name }}` (dotted names read nested own data properties) with the variable's
 * value. Strings, numbers and booleans only; an unknown name or any other value throws.
 */
export function substitute(template: string, variables: Record<string, unknown>): string {
  return parseTemplate(template)
    .map((part) => (part.kind === "text" ? part.text : render(part.name, lookup(variables, part.path))))
    .join("");
}

/** Undefined when the dotted path does not lead to an own data property. */
function lookup(variables: unknown, path: readonly string[]): unknown {
  let current: unknown = variables;
  for (const segment of path) {
    if (!isPlainObject(current) && !isPlainArray(current)) return undefined;
    const read = ownDataValue(current, segment);
    if (!read.found) return undefined;
    current = read.value;
  }
  return current;
}

function render(name: string, value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  throw templateError(
    value === undefined ? `unknown variable "${name}"` : `variable "${name}" is not a string, number or boolean`,
  );
}

function templateError(message: string): CheckpointError {
  return new CheckpointError("TEMPLATE", message);
}
