import type { TGateConfig, TGateDecision, TGateMode } from "@solserver/contracts";
import { evaluate } from "@solserver/gate";
import { describeConfigError, gateErrorRule, InputError, isGateInputError, readRecordFile } from "./read-input";

export interface TEvaluateFilesInput {
  baselineFile: string;
  candidateFile: string;
  mode: TGateMode;
  strict: boolean;
  /** Already parsed (readConfigFile), so its errors were attributed to the config file. */
  config?: TGateConfig | undefined;
  /** The config file's path, for an error the gate still reports under `config.`. */
  configFile?: string | undefined;
}

/**
 * Read both records and run the gate. Every problem with the input comes out as an InputError
 * naming the file it is in and the field (`candidate.output`), never as a stack trace.
 */
export function evaluateFiles(input: TEvaluateFilesInput): TGateDecision {
  const baseline = readRecordFile(input.baselineFile, "baseline");
  const candidate = readRecordFile(input.candidateFile, "candidate");
  try {
    return evaluate({ baseline, candidate, mode: input.mode, strict: input.strict, config: input.config });
  } catch (err) {
    if (!isGateInputError(err)) throw err;
    const rule = gateErrorRule(err);
    const side = err.field.split(".")[0];
    if (side === "baseline") throw new InputError(input.baselineFile, `${rule} (field ${err.field})`);
    if (side === "candidate") throw new InputError(input.candidateFile, `${rule} (field ${err.field})`);
    if (side === "config") throw new InputError(input.configFile ?? null, describeConfigError(err));
    throw new InputError(null, `${rule} (field ${err.field})`);
  }
}
