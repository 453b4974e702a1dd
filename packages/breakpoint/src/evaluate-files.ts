import type { TGateConfig, TGateDecision, TGateMode } from "@solserver/contracts";
import { evaluate } from "@solserver/gate";
import { readPair, type TPairInput } from "./pair-input";
import { describeOptionError, gateErrorRule, InputError, isGateInputError } from "./read-input";

export interface TEvaluateOptions {
  mode: TGateMode;
  strict: boolean;
  /** Already resolved (config-options.ts), so its errors were attributed to the config file. */
  config?: TGateConfig | undefined;
  /** The config file's path, for an error the gate still reports under `config.`. */
  configFile?: string | undefined;
  /** The evaluation time waivers expire against (ISO-8601). */
  now?: string | undefined;
}

export interface TEvaluateFilesInput extends TEvaluateOptions {
  baselineFile: string;
  candidateFile: string;
}

/**
 * Run the gate on two records already read. Every problem with the input comes out as an
 * InputError naming where it is (`candidate.json`, `stdin`) and the field (`candidate.output`),
 * never as a stack trace.
 */
export function evaluatePair(pair: TPairInput, options: TEvaluateOptions): TGateDecision {
  try {
    return evaluate({
      baseline: pair.baseline.record,
      candidate: pair.candidate.record,
      mode: options.mode,
      strict: options.strict,
      config: options.config,
      ...(options.now === undefined ? {} : { now: options.now }),
    });
  } catch (err) {
    if (!isGateInputError(err)) throw err;
    const rule = gateErrorRule(err);
    const side = err.field.split(".")[0];
    if (side === "baseline") throw new InputError(pair.baseline.label, `${rule} (field ${err.field})`);
    if (side === "candidate") throw new InputError(pair.candidate.label, `${rule} (field ${err.field})`);
    throw describeOptionError(err, options.configFile ?? null);
  }
}

/** Read both record files and run the gate (batch's pairs). */
export function evaluateFiles(input: TEvaluateFilesInput): TGateDecision {
  return evaluatePair(readPair(input.baselineFile, input.candidateFile), input);
}
