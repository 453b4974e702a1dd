import type { TGateDecision } from "@solserver/contracts";
import type { TExitCode } from "./exit-codes";
import { SCHEMA_VERSION, type TRunMetadata } from "./run-metadata";

export type TJsonReport = { schema_version: string } & TGateDecision & { exit_code: TExitCode; run: TRunMetadata };

/**
 * `evaluate --json`: the report's schema version first, the gate's decision as is, the exit code
 * the CLI returns, and the run's metadata (run-metadata.ts).
 */
export function toJsonReport(decision: TGateDecision, exitCode: TExitCode, run: TRunMetadata): TJsonReport {
  return { schema_version: SCHEMA_VERSION, ...decision, exit_code: exitCode, run };
}

/** Pretty-printed (2 spaces) with a trailing newline: the only thing written to stdout. */
export function renderJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
