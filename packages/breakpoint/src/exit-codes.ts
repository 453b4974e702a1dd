import type { TGateStatus } from "@solserver/contracts";

/**
 * The CLI's exit codes. 0/1/2 are the gate's decision (the seed's contract, so a CI step can
 * branch on them); 3 and 4 say the gate did not decide at all.
 */
export const EXIT = {
  /** ALLOW: safe to deploy. */
  ALLOW: 0,
  /** WARN: review recommended (never with --strict, which turns WARN into BLOCK). */
  WARN: 1,
  /** BLOCK: do not deploy. */
  BLOCK: 2,
  /** The input could not be used: unreadable file, invalid JSON/YAML, bad record or config, bad option. */
  INPUT_ERROR: 3,
  /** A bug or a missing build (dist/breakpoint.mjs): nothing was decided. */
  INTERNAL_ERROR: 4,
} as const;

export type TExitCode = (typeof EXIT)[keyof typeof EXIT];

/**
 * What fails a CI step (`--fail-on`): `warn` (the default) fails on WARN (1) and BLOCK (2);
 * `block` fails on BLOCK only, a WARN exits 0. As the original library's flag.
 */
export type TFailOn = "warn" | "block";

export function exitCodeForStatus(status: TGateStatus, failOn: TFailOn = "warn"): TExitCode {
  if (status === "WARN" && failOn === "block") return EXIT.ALLOW;
  return EXIT[status];
}

/** The exit line's phrase: the code's meaning, or for a WARN let through by --fail-on block, that. */
export function describeOutcome(status: TGateStatus, code: TExitCode): string {
  if (status === "WARN" && code === EXIT.ALLOW) return "WARN: review recommended, not failing (--fail-on block)";
  return describeExitCode(code);
}

const STATUS_RANK: Record<TGateStatus, number> = { ALLOW: 0, WARN: 1, BLOCK: 2 };

/** The worse of two decisions (BLOCK > WARN > ALLOW); `null` stands for "none yet". */
export function worseStatus(a: TGateStatus | null, b: TGateStatus): TGateStatus {
  return a === null || STATUS_RANK[b] > STATUS_RANK[a] ? b : a;
}

/** One phrase per exit code, for the text report's last line. */
export function describeExitCode(code: TExitCode): string {
  switch (code) {
    case EXIT.ALLOW:
      return "ALLOW: safe to deploy";
    case EXIT.WARN:
      return "WARN: review recommended";
    case EXIT.BLOCK:
      return "BLOCK: do not deploy";
    case EXIT.INPUT_ERROR:
      return "input error";
    default:
      return "internal error";
  }
}
