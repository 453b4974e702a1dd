import { readFileSync } from "node:fs";
import path from "node:path";
import { type TGateConfig, ZGateConfig } from "@solserver/contracts";
import { GateInputError, resolveGateConfig } from "@solserver/gate";
import { parse as parseYaml } from "yaml";
import { locateJsonError } from "./json-error";

/**
 * An input the CLI cannot use. `file` is the path as the user gave it (so the one stderr line
 * names what to fix); `message` says what is wrong, naming the field or key when there is one.
 */
export class InputError extends Error {
  override readonly name = "InputError";
  constructor(
    readonly file: string | null,
    message: string,
  ) {
    super(message);
  }

  /** The single stderr line, without the `breakpoint: error: ` prefix. */
  get line(): string {
    return oneLine(this.file === null ? this.message : `${this.file}: ${this.message}`);
  }
}

export type TDocumentFormat = "json" | "yaml";

/** Collapse whitespace runs (newlines included) so every error fits on one line. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

const ERRNO_MESSAGES: Record<string, string> = {
  ENOENT: "no such file",
  EACCES: "permission denied",
  EPERM: "permission denied",
  EISDIR: "is a directory, expected a file",
  ENOTDIR: "a parent of this path is not a directory",
  ELOOP: "too many symbolic links",
  EMFILE: "too many open files",
};

/** Read a UTF-8 text file; any failure becomes an InputError naming the file. */
export function readTextFile(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? "";
    const reason = ERRNO_MESSAGES[code] ?? (err instanceof Error ? err.message : String(err));
    throw new InputError(file, `cannot read file: ${reason}`);
  }
  return text.startsWith("\uFEFF") ? text.slice(1) : text;
}

/** `.yaml` / `.yml` -> YAML, `.json` -> JSON, anything else -> `fallback`. */
export function formatForPath(file: string, fallback: TDocumentFormat): TDocumentFormat {
  const ext = path.extname(file).toLowerCase();
  if (ext === ".yaml" || ext === ".yml") return "yaml";
  if (ext === ".json") return "json";
  return fallback;
}

/** Line and column (1-based) of a character offset. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split("\n");
  return { line: lines.length, column: (lines.at(-1)?.length ?? 0) + 1 };
}

function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    if (text.trim() === "") throw new InputError(file, "invalid JSON: the file is empty");
    const where = locateJsonError(text);
    if (where !== null) {
      const { line, column } = lineColumn(text, where.offset);
      throw new InputError(
        file,
        `invalid JSON: ${where.found} at line ${line}, column ${column} (expected ${where.expected})`,
      );
    }
    throw new InputError(file, `invalid JSON: ${oneLine(err instanceof Error ? err.message : String(err))}`);
  }
}

function parseYamlText(text: string, file: string): unknown {
  try {
    // YAML 1.2 core schema: a JSON file parses the same; duplicate keys are an error.
    return parseYaml(text, { prettyErrors: true, uniqueKeys: true, maxAliasCount: 100 });
  } catch (err) {
    // The yaml package appends a multi-line excerpt after the first line; keep the first.
    const first = (err instanceof Error ? err.message : String(err)).split("\n")[0] ?? "";
    throw new InputError(file, `invalid YAML: ${oneLine(first).replace(/:$/, "")}`);
  }
}

/** Parse a document's text; `label` names it in errors (a path, or "stdin"). */
export function parseDocumentText(text: string, label: string, format: TDocumentFormat): unknown {
  return format === "json" ? parseJson(text, label) : parseYamlText(text, label);
}

/** Read and parse a JSON or YAML file (by extension, else `fallback`). */
export function readDocument(file: string, fallback: TDocumentFormat): unknown {
  return parseDocumentText(readTextFile(file), file, formatForPath(file, fallback));
}

function describeJsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}

/**
 * A baseline or candidate record: a JSON object (YAML when the file is .yaml/.yml). The gate
 * validates its fields; this only checks the top level so the error can say what the file holds.
 */
export function readRecordFile(file: string, side: "baseline" | "candidate"): Record<string, unknown> {
  return asRecord(readDocument(file, "json"), file, side);
}

/** The top-level check of a record, wherever it was read from. */
export function asRecord(data: unknown, file: string, side: string): Record<string, unknown> {
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    throw new InputError(
      file,
      `expected a JSON object with an "output" string, got ${describeJsonType(data)} (field ${side})`,
    );
  }
  return data as Record<string, unknown>;
}

/**
 * The GateInputError's message without a leading copy of its field (the CLI appends the field
 * itself, in the same place for every error).
 */
export function gateErrorRule(err: GateInputError): string {
  let message = oneLine(err.message);
  for (const prefix of [`${err.field}: `, `${err.field} `]) {
    if (message.startsWith(prefix)) {
      message = message.slice(prefix.length);
      break;
    }
  }
  return message;
}

export function isGateInputError(err: unknown): err is GateInputError {
  return err instanceof GateInputError || (err instanceof Error && err.name === "GateInputError" && "field" in err);
}

/** A config field ("config.cost.warn_increase_pct") as the key path in the file ("cost.warn_increase_pct"). */
function configKey(field: string): string {
  return field === "config" ? "" : field.replace(/^config\./, "");
}

interface TSchemaDef {
  type?: string;
  innerType?: { def?: TSchemaDef };
  shape?: Record<string, { def?: TSchemaDef }>;
}

/** Keys a config document holds beside ZGateConfig's (resolveGateConfig takes them out). */
const DOCUMENT_KEYS = ["preset", "environments"];

/** The keys ZGateConfig allows in the object at `keyPath` ("" = top level), or null if it is no fixed object. */
function allowedConfigKeys(keyPath: string): string[] | null {
  // Inside an environment the same keys apply as at the top level (less the document's own).
  const inEnvironment = /^environments\.[^.]+(?:\.(.*))?$/.exec(keyPath);
  const path = inEnvironment ? (inEnvironment[1] ?? "") : keyPath;
  let def: TSchemaDef | undefined = (ZGateConfig as unknown as { def: TSchemaDef }).def;
  const unwrap = () => {
    while (def?.innerType && ["prefault", "default", "optional", "nullable"].includes(def.type ?? "")) {
      def = def.innerType.def;
    }
  };
  for (const key of path === "" ? [] : path.split(".")) {
    unwrap();
    def = def?.type === "object" ? def.shape?.[key]?.def : undefined;
  }
  unwrap();
  if (def?.type !== "object" || !def.shape) return null;
  const keys = Object.keys(def.shape);
  return keyPath === "" ? [...keys, ...DOCUMENT_KEYS] : keys;
}

/** "rule (key path)" for a config error, with an unknown key named in full and the allowed ones listed. */
function describeConfigError(err: GateInputError): string {
  const rule = gateErrorRule(err);
  const key = configKey(err.field);
  const unknown = /^Unrecognized keys?: "([^"]+)"/.exec(rule);
  if (unknown?.[1] !== undefined) {
    const allowed = allowedConfigKeys(key);
    const full = key === "" ? unknown[1] : `${key}.${unknown[1]}`;
    return `unknown key${allowed ? ` (allowed: ${allowed.join(", ")})` : ""} (key ${full})`;
  }
  return key === "" ? `${rule} (at the top level)` : `${rule} (key ${key})`;
}

/** Where a gate error outside the records belongs: the config file's keys, or an option. */
export function describeOptionError(err: GateInputError, configFile: string | null): InputError {
  const rule = gateErrorRule(err);
  if (err.field === "preset") return new InputError(null, `${rule} (option --preset or BREAKPOINT_PRESET)`);
  if (err.field === "env") return new InputError(configFile, `${rule} (option --env or BREAKPOINT_ENV)`);
  if (err.field === "now") return new InputError(null, `${rule} (option --now or BREAKPOINT_NOW)`);
  if (err.field === "config" || err.field.startsWith("config.")) {
    return new InputError(configFile, describeConfigError(err));
  }
  return new InputError(null, `${rule} (field ${err.field})`);
}

/**
 * A gate config from a YAML or JSON file (by extension; otherwise YAML, which also reads JSON),
 * with its preset and no environment. An empty file is the default config. Errors name the file
 * and the key path. (config-options.ts adds --preset, --env and the BREAKPOINT_* variables.)
 */
export function readConfigFile(file: string): TGateConfig {
  const raw = readDocument(file, "yaml") ?? {};
  try {
    return resolveGateConfig({ document: raw }).config;
  } catch (err) {
    if (isGateInputError(err)) throw describeOptionError(err, file);
    throw err;
  }
}
