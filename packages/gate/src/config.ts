// Config parsing: contracts' ZGateConfig owns the defaults; this only turns zod's failure into a
// GateInputError that names the path, so `breakpoint --config` can say which key is wrong.

import { type TGateConfig, ZGateConfig } from "@solserver/contracts";
import { GateInputError } from "./errors";
import { checkWaiverCodes } from "./waivers";

/** Parses a config (any subset of keys; `undefined` means "all defaults"). */
export function parseGateConfig(raw: unknown): TGateConfig {
  const parsed = ZGateConfig.safeParse(raw === undefined ? {} : raw);
  if (parsed.success) {
    checkWaiverCodes(parsed.data.waivers);
    return parsed.data;
  }
  const issue = parsed.error.issues[0];
  const path = issue ? issue.path.map(String).join(".") : "";
  throw new GateInputError(path ? `config.${path}` : "config", issue?.message ?? "invalid config");
}
