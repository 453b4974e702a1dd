import { readFileSync } from "node:fs";
import {
  type TGateConfigInput,
  type TRoutingConfig,
  type TTagAliasConfig,
  ZGateConfig,
  ZRoutingConfig,
  ZTagAliasConfig,
} from "@solserver/contracts";
import { type TCatalog, ZCatalog } from "@solserver/engine";
import { parse as parseYaml } from "yaml";
import type { z } from "zod";

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
export function readConfigFile<S extends z.ZodType>(
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

/** Reads a procedure catalog (packages/engine/src/context/CATALOG.md) and validates it whole. */
export function readCatalogFile(file: string): TCatalog {
  return readConfigFile(file, ZCatalog, "procedure catalog").data;
}

/** Reads a routing config (docs/routing.md): the selector step's domains, strictness and scope. */
export function readRoutingFile(file: string): TRoutingConfig {
  return readConfigFile(file, ZRoutingConfig, "routing config").data;
}

/** Reads a tag alias file (docs/tags.md): each tag with the other names that mean it. */
export function readTagAliasFile(file: string): TTagAliasConfig {
  return readConfigFile(file, ZTagAliasConfig, "tag alias file").data;
}
