// Building and capping policy results. Every policy returns the same shape (contracts'
// ZPolicyResult); numeric metrics live under `details.metrics` so evaluate() can merge them
// into the decision without knowing which policy produced which figure.

import type { TGatePolicyName, TGateStatus, TPolicyEnforcement, TPolicyResult } from "@solserver/contracts";
import { WARN_VARIANT } from "./codes";

export type Metrics = Record<string, number>;

export function policyResult(
  policy: TGatePolicyName,
  status: TGateStatus,
  title: string,
  reasons: string[],
  codes: string[],
  details: Record<string, unknown>,
): TPolicyResult {
  return { policy, status, title, reasons, codes, details };
}

const SEVERITY: Record<TGateStatus, number> = { ALLOW: 0, WARN: 1, BLOCK: 2 };

/** The more severe of two statuses (BLOCK > WARN > ALLOW). */
export function worst(a: TGateStatus, b: TGateStatus): TGateStatus {
  return SEVERITY[b] > SEVERITY[a] ? b : a;
}

/** A policy that could not judge (missing data): ALLOW, no reasons, and why in details. */
export function skippedResult(policy: TGatePolicyName, title: string, skipped: string): TPolicyResult {
  return policyResult(policy, "ALLOW", title, [], [], { skipped });
}

/**
 * Applies `enforce: "warn"`: a BLOCK becomes a WARN, BLOCK codes become their WARN twin where
 * one exists, and `details.capped` records that the verdict was softened. "block" (and "off",
 * which evaluate() handles by not running the policy) leave the result untouched.
 */
export function applyEnforcement(result: TPolicyResult, enforce: TPolicyEnforcement): TPolicyResult {
  if (enforce !== "warn" || result.status !== "BLOCK") return result;
  const codes: string[] = [];
  for (const code of result.codes) {
    const mapped = WARN_VARIANT[code] ?? code;
    if (!codes.includes(mapped)) codes.push(mapped);
  }
  return { ...result, status: "WARN", codes, details: { ...result.details, capped: true } };
}

/** The metrics a result carries (finite numbers only: JSON and the contracts reject Infinity). */
export function resultMetrics(result: TPolicyResult): Metrics {
  const raw = result.details.metrics;
  const out: Metrics = {};
  if (raw === null || typeof raw !== "object") return out;
  for (const [key, value] of Object.entries(raw)) {
    if (typeof value === "number" && Number.isFinite(value)) out[key] = value;
  }
  return out;
}
