// `expect(candidate).toPassGate(baseline, options?)`: the BreakPoint gate as a vitest matcher, so
// a TypeScript project's own tests fail when a model output regresses against its baseline (the
// original library's pytest `assert_stable`, in vitest's shape). Only types come from vitest:
// the caller registers the matcher with its own `expect.extend(gateMatchers)`, so this module
// runs in any vitest version (and bundles into @solserver/breakpoint/vitest without vitest).

import type { TGateConfigInput, TGateDecision, TGateMode, TGatePresetName, TGateRecord } from "@solserver/contracts";
import { GateInputError } from "./errors";
import { evaluate } from "./evaluate";

/** One side of the comparison: a record, or a plain string standing for `{ output: string }`. */
export type TGateSide = string | TGateRecord;

export type TPassGateOptions = {
  mode?: TGateMode;
  strict?: boolean;
  /** Any subset of the gate config, or a config document (`preset`, `environments`). */
  config?: TGateConfigInput | Record<string, unknown>;
  preset?: TGatePresetName;
  /** The time waivers expire against; defaults to the clock, as the CLI does. */
  now?: Date | string;
  /** "warn" (default): WARN and BLOCK fail the assertion; "block": only BLOCK does. */
  failOn?: "warn" | "block";
};

/** The part of vitest's MatcherState the matcher reads (a test can pass `{ isNot: false }`). */
export type TGateMatcherContext = { isNot?: boolean };

export type TGateMatcherResult = { pass: boolean; message: () => string };

const OPTION_KEYS: readonly string[] = ["mode", "strict", "config", "preset", "now", "failOn"];

function asRecord(side: unknown): unknown {
  return typeof side === "string" ? { output: side } : side;
}

function readOptions(options: unknown): TPassGateOptions {
  if (options === undefined) return {};
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw new Error("toPassGate: options must be an object ({ mode, strict, config, preset, now, failOn })");
  }
  // A misspelt option (`failon`) silently ignored would let a test pass for the wrong reason.
  for (const key of Object.keys(options)) {
    if (!OPTION_KEYS.includes(key)) {
      throw new Error(`toPassGate: unknown option ${JSON.stringify(key)} (allowed: ${OPTION_KEYS.join(", ")})`);
    }
  }
  const failOn = (options as TPassGateOptions).failOn;
  if (failOn !== undefined && failOn !== "warn" && failOn !== "block") {
    throw new Error(`toPassGate: options.failOn must be "warn" or "block", got ${JSON.stringify(failOn)}`);
  }
  return options as TPassGateOptions;
}

/** One line per reason of every policy that did not pass, with its reason code. */
function reasonLines(decision: TGateDecision): string[] {
  const lines: string[] = [];
  for (const policy of decision.policies) {
    if (policy.status === "ALLOW") continue;
    const head = `${policy.policy} ${policy.status}`;
    if (policy.reasons.length === policy.codes.length) {
      policy.reasons.forEach((reason, i) => {
        lines.push(`  - ${head}: ${reason} [${policy.codes[i]}]`);
      });
    } else {
      for (const reason of policy.reasons) lines.push(`  - ${head}: ${reason}`);
      lines.push(`  - ${head} codes: ${policy.codes.join(", ") || "(none)"}`);
    }
  }
  if (decision.metadata.strict && decision.status === "BLOCK" && !decision.policies.some((p) => p.status === "BLOCK")) {
    lines.push("  - strict: WARN promoted to BLOCK");
  }
  return lines;
}

function describeFailOn(failOn: "warn" | "block"): string {
  return failOn === "warn" ? 'failOn "warn": WARN and BLOCK fail' : 'failOn "block": only BLOCK fails';
}

/**
 * The matcher. `received` is the candidate. Passes when the gate's decision does not fail at
 * `failOn`. Invalid input throws (naming the field) instead of failing, so `.not.toPassGate`
 * cannot pass on a typo.
 */
export function toPassGate(
  this: TGateMatcherContext | undefined,
  received: unknown,
  baseline: unknown,
  options?: TPassGateOptions,
): TGateMatcherResult {
  const opts = readOptions(options);
  const failOn = opts.failOn ?? "warn";
  let decision: TGateDecision;
  try {
    decision = evaluate({
      baseline: asRecord(baseline),
      candidate: asRecord(received),
      ...(opts.mode === undefined ? {} : { mode: opts.mode }),
      ...(opts.strict === undefined ? {} : { strict: opts.strict }),
      ...(opts.config === undefined ? {} : { config: opts.config }),
      ...(opts.preset === undefined ? {} : { preset: opts.preset }),
      now: opts.now ?? new Date(),
    });
  } catch (err) {
    if (!(err instanceof GateInputError)) throw err;
    const prefix = `${err.field}: `;
    const rule = err.message.startsWith(prefix) ? err.message.slice(prefix.length) : err.message;
    throw new Error(`toPassGate: invalid input (field ${err.field}): ${rule}`, { cause: err });
  }

  const pass = decision.status === "ALLOW" || (decision.status === "WARN" && failOn === "block");
  const reasons = reasonLines(decision);
  const isNot = this?.isNot === true;
  const message = () => {
    const head = isNot
      ? `expected the candidate not to pass the BreakPoint gate (${describeFailOn(failOn)}), but it did: ${decision.status}`
      : `expected the candidate to pass the BreakPoint gate (${describeFailOn(failOn)}), but it was ${decision.status}`;
    return reasons.length === 0 ? `${head} (all policies passed)` : `${head}:\n${reasons.join("\n")}`;
  };
  return { pass, message };
}

/** For `expect.extend(gateMatchers)` (in a setup file or at the top of a test file). */
export const gateMatchers = { toPassGate };

/** The matcher's signature once registered (R is what vitest's assertion returns). */
export interface TGateMatchers<R = unknown> {
  /**
   * Runs the BreakPoint gate on the received candidate against `baseline` and fails on WARN or
   * BLOCK (`failOn: "block"`: on BLOCK only), listing each reason with its code.
   */
  toPassGate(baseline: TGateSide, options?: TPassGateOptions): R;
}

// `Matchers` (vitest >= 3.2) is what `Assertion` (expect(x).toPassGate, .not) and `expect`
// itself (expect.toPassGate as an asymmetric matcher) extend; augmenting `Assertion` through
// "vitest" does not merge, as it is re-declared inside vitest. `expect.not.toPassGate` is typed
// by AsymmetricMatchersContaining.
declare module "vitest" {
  // T must be declared exactly as vitest declares it (`T = any`) for the interfaces to merge.
  // biome-ignore lint/suspicious/noExplicitAny: mirrors vitest's own declaration
  interface Matchers<T = any> extends TGateMatchers<T> {}
  interface AsymmetricMatchersContaining extends TGateMatchers {}
}
