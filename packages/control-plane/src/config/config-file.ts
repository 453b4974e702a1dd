import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import {
  type TGateConfigInput,
  type TRoutingConfig,
  type TTagAliasConfig,
  ZGateConfig,
  ZTagAliasConfig,
} from "@solserver/contracts";
import { type TCatalog, withExamples, ZCatalog } from "@solserver/engine";
import { parse as parseYaml } from "yaml";
import { ZodError, type z } from "zod";
import { ZRoutingFile } from "../routing/routing-config";

// Operator config files (the gate's thresholds, procedure catalogs): YAML, or JSON, which YAML
// accepts. Every error names the file, and for invalid content the key path and the rule.

/** The file's content as data; errors name the file and say what is wrong. */
function readYamlFile(file: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new Error(`${file}: cannot read the ${what} (${(error as NodeJS.ErrnoException).code ?? "error"})`);
  }
  try {
    return parseYaml(text) ?? {};
  } catch (error) {
    throw new Error(`${file}: not valid YAML or JSON (${(error as Error).message.split("\n")[0]})`);
  }
}

/** Reads and validates a config file against `schema`; the first problem is reported with its path. */
function readConfigFile<S extends z.ZodType>(
  file: string,
  schema: S,
  what: string,
): { raw: unknown; data: z.output<S> } {
  const raw = readYamlFile(file, what);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join(".") : "(top level)";
    throw new Error(`${file}: ${where}: ${issue?.message ?? `invalid ${what}`}`);
  }
  return { raw, data: parsed.data };
}

/**
 * Reads an output-gate config file: any subset of the gate's thresholds, pricing and allowlist.
 * Returns the raw object, not the parsed one: defaults are applied once, by pipelineGateConfig.
 */
export function readGateConfigFile(file: string): TGateConfigInput {
  return readConfigFile(file, ZGateConfig, "gate config").raw as TGateConfigInput;
}

/** "rv-service.es.json" beside "rv-service.json": the catalog's translation into Spanish. */
function translationFiles(file: string): string[] {
  const dir = path.dirname(file);
  const ext = path.extname(file);
  const base = path.basename(file, ext);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((name) => {
      if (!name.startsWith(`${base}.`)) return false;
      const rest = name.slice(base.length + 1).split(".");
      return (
        rest.length === 2 && /^[a-z]{2}$/.test(rest[0] ?? "") && [".json", ".yaml", ".yml"].includes(`.${rest[1]}`)
      );
    })
    .sort()
    .map((name) => path.join(dir, name));
}

/** "rv-service.conversations.json" beside "rv-service.json": its tune split teaches the learned reader. */
function withConversations(file: string, catalog: unknown): unknown {
  const conversations = path.join(path.dirname(file), `${path.basename(file, path.extname(file))}.conversations.json`);
  const systems = (catalog as { systems?: unknown } | null)?.systems;
  if (!Array.isArray(systems) || !existsSync(conversations)) return catalog;
  try {
    return withExamples(
      catalog as { systems: { id: string }[] },
      readYamlFile(conversations, "labelled conversations"),
    );
  } catch (error) {
    if (!(error instanceof ZodError)) throw error;
    const issue = error.issues[0];
    throw new Error(`${conversations}: ${issue?.path.join(".") || "(top level)"}: ${issue?.message}`);
  }
}

/**
 * Reads a procedure catalog (packages/engine/src/context/CATALOG.md) and validates it whole. A
 * catalog without inline `translations` takes the translation files beside it
 * ("<name>.<language>.json|yaml"), so a new language is one more data file; labelled
 * conversations beside it ("<name>.conversations.json") give its systems their examples.
 */
export function readCatalogFile(file: string): TCatalog {
  const raw = readYamlFile(file, "procedure catalog");
  const inline = typeof raw === "object" && raw !== null && "translations" in raw;
  const siblings = inline ? [] : translationFiles(file);
  const translated =
    siblings.length === 0
      ? raw
      : { ...(raw as object), translations: siblings.map((f) => readYamlFile(f, "catalog translation")) };
  const parsed = ZCatalog.safeParse(withConversations(file, translated));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const at = issue?.path ?? [];
    // a problem inside a sibling translation names that file
    const where =
      !inline && at[0] === "translations" && typeof at[1] === "number" && siblings[at[1]] !== undefined
        ? `${siblings[at[1]]}: ${at.slice(2).join(".") || "(top level)"}`
        : `${file}: ${at.length ? at.join(".") : "(top level)"}`;
    throw new Error(`${where}: ${issue?.message ?? "invalid procedure catalog"}`);
  }
  return parsed.data;
}

/** Reads a routing config (docs/routing.md): the selector step's domains, strictness and scope. */
export function readRoutingFile(file: string): TRoutingConfig {
  return readConfigFile(file, ZRoutingFile, "routing config").data;
}

/** Reads a tag alias file (docs/tags.md): each tag with the other names that mean it. */
export function readTagAliasFile(file: string): TTagAliasConfig {
  return readConfigFile(file, ZTagAliasConfig, "tag alias file").data;
}
