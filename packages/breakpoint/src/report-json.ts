import type { TGateDecision } from "@solserver/contracts";
import type { TExitCode } from "./exit-codes";

export type TJsonReport = TGateDecision & { exit_code: TExitCode };

/** `evaluate --json`: the gate's decision as is, plus the exit code the CLI returns. */
export function toJsonReport(decision: TGateDecision, exitCode: TExitCode): TJsonReport {
  return { ...decision, exit_code: exitCode };
}

/** Pretty-printed (2 spaces) with a trailing newline: the only thing written to stdout. */
export function renderJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
