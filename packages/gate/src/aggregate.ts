// Aggregation (seed "Step 3"): any BLOCK -> BLOCK, else any WARN -> WARN, else ALLOW; strict
// promotes WARN to BLOCK. Reasons and codes are concatenated in evaluation order.

import type { TGateDecision, TGatePolicyName, TPolicyResult } from "@solserver/contracts";
import { type Metrics, resultMetrics } from "./result";

/**
 * Evaluation order, the seed's policy numbering (1 cost, 2 PII, 3 drift, 4 latency, 5 output
 * contract): its aggregation example lists Test 3's reasons as cost, then PII. decision.policies,
 * metadata.policies, reasons and codes all follow it.
 */
export const POLICY_ORDER: readonly TGatePolicyName[] = ["cost", "pii", "drift", "latency", "output_contract"];

/** The seed's text report lists the policy lines PII, cost, drift (then the full-mode ones). */
export const REPORT_ORDER: readonly TGatePolicyName[] = ["pii", "cost", "drift", "latency", "output_contract"];

const rank = (policy: TGatePolicyName) => POLICY_ORDER.indexOf(policy);

export function aggregate(
  results: TPolicyResult[],
  strict: boolean,
): Pick<TGateDecision, "status" | "reasons" | "reason_codes"> {
  let hasBlock = false;
  let hasWarn = false;
  for (const result of results) {
    if (result.status === "BLOCK") hasBlock = true;
    else if (result.status === "WARN") hasWarn = true;
  }
  const status = hasBlock || (strict && hasWarn) ? "BLOCK" : hasWarn ? "WARN" : "ALLOW";
  // Sorted (stably) into evaluation order, so the caller's array order never changes the decision.
  const ordered = [...results].sort((a, b) => rank(a.policy) - rank(b.policy));
  return {
    status,
    reasons: ordered.flatMap((r) => r.reasons),
    reason_codes: ordered.flatMap((r) => r.codes),
  };
}

/** Every policy's `details.metrics`, merged (a later policy in evaluation order wins a clash). */
export function collectMetrics(results: TPolicyResult[]): Metrics {
  const ordered = [...results].sort((a, b) => rank(a.policy) - rank(b.policy));
  return Object.assign({}, ...ordered.map(resultMetrics));
}
