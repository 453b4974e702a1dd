import { readFileSync } from "node:fs";
import { type TGateConfigInput, ZGateConfig } from "@solserver/contracts";
import { parse as parseYaml } from "yaml";

/**
 * Reads an output-gate config file (YAML, or JSON which YAML accepts): any subset of the gate's
 * thresholds, pricing and allowlist. Errors name the file and the key path.
 */
export function readGateConfigFile(file: string): TGateConfigInput {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new Error(`${file}: cannot read the gate config (${(error as NodeJS.ErrnoException).code ?? "error"})`);
  }
  let raw: unknown;
  try {
    raw = parseYaml(text) ?? {};
  } catch (error) {
    throw new Error(`${file}: not valid YAML or JSON (${(error as Error).message.split("\n")[0]})`);
  }
  const parsed = ZGateConfig.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join(".") : "(top level)";
    throw new Error(`${file}: ${where}: ${issue?.message ?? "invalid gate config"}`);
  }
  // The raw object, not the parsed one: defaults are applied once, by pipelineGateConfig.
  return raw as TGateConfigInput;
}
