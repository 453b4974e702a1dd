import { readFileSync } from "node:fs";
import path from "node:path";
import { type TGateConfig, ZGateConfig } from "@solserver/contracts";
import { GateInputError, parseGateConfig } from "@solserver/gate";
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

/** Read and parse a JSON or YAML file (by extension, else `fallback`). */
export function readDocument(file: string, fallback: TDocumentFormat): unknown {
  const text = readTextFile(file);
  return formatForPath(file, fallback) === "json" ? parseJson(text, file) : parseYamlText(text, file);
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
  const data = readDocument(file, "json");
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
export function configKey(field: string): string {
  return field === "config" ? "" : field.replace(/^config\./, "");
}

interface TSchemaDef {
  type?: string;
  innerType?: { def?: TSchemaDef };
  shape?: Record<string, { def?: TSchemaDef }>;
}

/** The keys ZGateConfig allows in the object at `keyPath` ("" = top level), or null if it is no fixed object. */
export function allowedConfigKeys(keyPath: string): string[] | null {
  let def: TSchemaDef | undefined = (ZGateConfig as unknown as { def: TSchemaDef }).def;
  const unwrap = () => {
    while (def?.innerType && ["prefault", "default", "optional", "nullable"].includes(def.type ?? "")) {
      def = def.innerType.def;
    }
  };
  for (const key of keyPath === "" ? [] : keyPath.split(".")) {
    unwrap();
    def = def?.type === "object" ? def.shape?.[key]?.def : undefined;
  }
  unwrap();
  return def?.type === "object" && def.shape ? Object.keys(def.shape) : null;
}

/** "rule (key path)" for a config error, with an unknown key named in full and the allowed ones listed. */
export function describeConfigError(err: GateInputError): string {
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

/**
 * A partial gate config from a YAML or JSON file (by extension; otherwise YAML, which also reads
 * JSON). An empty file is the default config. Errors name the file and the key path.
 */
export function readConfigFile(file: string): TGateConfig {
  const raw = readDocument(file, "yaml") ?? {};
  try {
    return parseGateConfig(raw);
  } catch (err) {
    if (isGateInputError(err)) {
      throw new InputError(file, describeConfigError(err));
    }
    throw err;
  }
}
