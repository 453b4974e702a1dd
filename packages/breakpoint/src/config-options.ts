import type { TGateConfig, TGatePresetName } from "@solserver/contracts";
import { evaluationTime, resolveGateConfig } from "@solserver/gate";
import type { TEnv } from "./env";
import { describeOptionError, isGateInputError, readDocument } from "./read-input";

// The config a command runs with, from its options or, when an option is not given, the
// environment (as the original library): -c / BREAKPOINT_CONFIG, --preset / BREAKPOINT_PRESET,
// --env / BREAKPOINT_ENV, --now / BREAKPOINT_NOW. An empty variable counts as not set.

export interface TConfigOptions {
  config?: string;
  preset?: string;
  env?: string;
  now?: string;
}

export interface TLoadedConfig {
  config: TGateConfig;
  /** The config file read, if any (for the report and for errors). */
  file: string | null;
  preset: TGatePresetName | null;
  environment: string | null;
}

function fromEnv(env: TEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === "" ? undefined : value;
}

export function loadConfig(opts: TConfigOptions, env: TEnv): TLoadedConfig {
  const file = opts.config ?? fromEnv(env, "BREAKPOINT_CONFIG") ?? null;
  const document = file === null ? undefined : (readDocument(file, "yaml") ?? {});
  try {
    const resolved = resolveGateConfig({
      document,
      preset: opts.preset ?? fromEnv(env, "BREAKPOINT_PRESET"),
      environment: opts.env ?? fromEnv(env, "BREAKPOINT_ENV"),
    });
    return { config: resolved.config, file, preset: resolved.preset, environment: resolved.environment };
  } catch (err) {
    if (isGateInputError(err)) throw describeOptionError(err, file);
    throw err;
  }
}

/**
 * The evaluation time waivers expire against: --now / BREAKPOINT_NOW (a fixed time makes a CI
 * re-run reproducible), else the clock. Validated even when no waiver needs it.
 */
export function evaluationNow(opts: TConfigOptions, env: TEnv): string {
  const given = opts.now ?? fromEnv(env, "BREAKPOINT_NOW");
  if (given === undefined) return new Date().toISOString();
  try {
    return new Date(evaluationTime(given)).toISOString();
  } catch (err) {
    if (isGateInputError(err)) throw describeOptionError(err, null);
    throw err;
  }
}
