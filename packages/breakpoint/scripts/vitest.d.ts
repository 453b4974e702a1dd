// Types of @solserver/breakpoint/vitest, copied to dist/vitest.d.ts by scripts/build.mjs.
// Written by hand: the bundle inlines @solserver/gate, whose source types are not shipped, so
// these restate packages/gate/src/vitest-matcher.ts's in plain terms. test/pack.test.ts checks
// the unions against the gate's and type-checks a consumer of the installed package.

/** A model output record; unknown fields are allowed and ignored. */
export type TGateRecord = {
  output: string;
  cost_usd?: number;
  tokens_in?: number;
  tokens_out?: number;
  tokens_total?: number;
  latency_ms?: number;
  model?: string;
  [key: string]: unknown;
};

/** One side of the comparison: a record, or a plain string standing for `{ output: string }`. */
export type TGateSide = string | TGateRecord;

export type TGateMode = "lite" | "full";

export type TGatePresetName = "chatbot" | "extraction" | "support";

export type TPassGateOptions = {
  /** "lite" (default): PII, cost, drift; "full": also latency and the output contract. */
  mode?: TGateMode;
  /** Treat WARN as BLOCK. */
  strict?: boolean;
  /** Any subset of the gate config (the CLI's --config file, as an object). */
  config?: Record<string, unknown>;
  /** Built-in thresholds under the config. */
  preset?: TGatePresetName;
  /** The time waivers expire against; defaults to the clock. */
  now?: Date | string;
  /** "warn" (default): WARN and BLOCK fail the assertion; "block": only BLOCK does. */
  failOn?: "warn" | "block";
};

export type TGateMatcherContext = { isNot?: boolean };

export type TGateMatcherResult = { pass: boolean; message: () => string };

/** The matcher function (`this` is vitest's matcher state; only `isNot` is read). */
export declare function toPassGate(
  this: TGateMatcherContext | undefined,
  received: unknown,
  baseline: unknown,
  options?: TPassGateOptions,
): TGateMatcherResult;

/** For `expect.extend(gateMatchers)`. */
export declare const gateMatchers: { toPassGate: typeof toPassGate };

export interface TGateMatchers<R = unknown> {
  /**
   * Runs the BreakPoint gate on the received candidate against `baseline` and fails on WARN or
   * BLOCK (`failOn: "block"`: on BLOCK only), listing each reason with its code.
   */
  toPassGate(baseline: TGateSide, options?: TPassGateOptions): R;
}

// vitest >= 3.2: `Matchers` types expect(x).toPassGate and expect.toPassGate;
// AsymmetricMatchersContaining types expect.not.toPassGate.
declare module "vitest" {
  // biome-ignore lint/suspicious/noExplicitAny: must match vitest's own declaration to merge
  interface Matchers<T = any> extends TGateMatchers<T> {}
  interface AsymmetricMatchersContaining extends TGateMatchers {}
}
