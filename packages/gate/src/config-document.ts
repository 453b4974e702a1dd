// A config as people write it (a file, an API request): any subset of the gate's keys, plus
// `preset` (built-in thresholds underneath) and `environments` (named overrides on top, chosen
// with `--env`). Resolved in one order, lowest first: defaults < preset < document <
// environment. Objects merge key by key; arrays and values replace. Every environment is
// validated whichever is chosen, so a typo in `production` fails the developer's run too.

import { GATE_PRESETS, type TGateConfig, type TGatePresetName } from "@solserver/contracts";
import { parseGateConfig } from "./config";
import { GateInputError } from "./errors";
import { PRESETS } from "./presets";

export type TConfigSources = {
  /** The parsed file or request body (undefined: none). */
  document?: unknown;
  /** A preset chosen outside the document (`--preset`, BREAKPOINT_PRESET); wins over the document's `preset`. */
  preset?: string | undefined;
  /** The environment to apply (`--env`, BREAKPOINT_ENV). */
  environment?: string | undefined;
};

export type TResolvedConfig = {
  config: TGateConfig;
  preset: TGatePresetName | null;
  environment: string | null;
  /** The environments the document defines, sorted. */
  environments: string[];
};

type TPlain = Record<string, unknown>;

function isPlain(value: unknown): value is TPlain {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `over` merged onto `base`: objects key by key, anything else replaced. Never touches prototypes. */
export function deepMerge(base: TPlain, over: TPlain): TPlain {
  const out: TPlain = {};
  const put = (key: string, value: unknown) =>
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  for (const [key, value] of Object.entries(base)) put(key, value);
  for (const [key, value] of Object.entries(over)) {
    const current = Object.hasOwn(out, key) ? out[key] : undefined;
    put(key, isPlain(current) && isPlain(value) ? deepMerge(current, value) : value);
  }
  return out;
}

function presetName(value: unknown, field: string): TGatePresetName {
  if (typeof value === "string" && (GATE_PRESETS as readonly string[]).includes(value)) {
    return value as TGatePresetName;
  }
  throw new GateInputError(field, `unknown preset ${JSON.stringify(value)} (available: ${GATE_PRESETS.join(", ")})`);
}

/** Re-roots a config error inside an environment: `config.cost.x` -> `config.environments.ci.cost.x`. */
function withinEnvironment(err: unknown, name: string): unknown {
  if (!(err instanceof GateInputError)) return err;
  const rule = err.message.slice(err.field.length + 2);
  const field = `config.environments.${name}${err.field === "config" ? "" : err.field.slice("config".length)}`;
  return new GateInputError(field, rule);
}

export function resolveGateConfig(sources: TConfigSources): TResolvedConfig {
  const document = sources.document ?? {};
  if (!isPlain(document)) {
    throw new GateInputError("config", "must be an object (policy names to their settings)");
  }
  const { preset: documentPreset, environments: rawEnvironments, ...own } = document;
  let preset: TGatePresetName | null = null;
  if (sources.preset !== undefined) preset = presetName(sources.preset, "preset");
  else if (documentPreset !== undefined) preset = presetName(documentPreset, "config.preset");

  if (rawEnvironments !== undefined && !isPlain(rawEnvironments)) {
    throw new GateInputError("config.environments", "must be an object (environment names to config overrides)");
  }
  const environments = rawEnvironments ?? {};
  const base = preset === null ? own : deepMerge(PRESETS[preset].config as TPlain, own);
  const config = parseGateConfig(base);
  const resolved = new Map<string, TGateConfig>();
  for (const [name, override] of Object.entries(environments)) {
    if (!isPlain(override)) {
      throw new GateInputError(`config.environments.${name}`, "must be an object (config keys to override)");
    }
    try {
      resolved.set(name, parseGateConfig(deepMerge(base, override)));
    } catch (err) {
      throw withinEnvironment(err, name);
    }
  }
  const names = [...resolved.keys()].sort();
  const environment = sources.environment ?? null;
  if (environment === null) return { config, preset, environment, environments: names };
  const chosen = resolved.get(environment);
  if (chosen === undefined) {
    const known = names.length === 0 ? "the config defines no environments" : `defined: ${names.join(", ")}`;
    throw new GateInputError("env", `unknown environment ${JSON.stringify(environment)} (${known})`);
  }
  return { config: chosen, preset, environment, environments: names };
}
