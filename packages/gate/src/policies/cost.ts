// Cost policy (seed "Policy 1"): a candidate that costs noticeably more than the baseline.

import type { TGateConfig, TGateRecord, TPolicyResult } from "@solserver/contracts";
import { GATE_CODES } from "../codes";
import { absoluteBand, increaseBand, percentChange, roundTo, signed, threshold, worseBand } from "../numbers";
import { mergePricing, resolveCost } from "../pricing";
import { applyEnforcement, type Metrics, policyResult, skippedResult } from "../result";

/** USD figures are rounded to 1e-9 (nano-dollars): enough for per-token costs, and 1.4 - 1.0 reads 0.4. */
const USD_DECIMALS = 9;

export function evaluateCostPolicy(
  baseline: TGateRecord,
  candidate: TGateRecord,
  config: TGateConfig["cost"],
): TPolicyResult {
  const pricing = mergePricing(config.pricing);
  const baseCost = resolveCost(baseline, pricing);
  const candCost = resolveCost(candidate, pricing);
  if (baseCost === null || candCost === null) {
    return skippedResult("cost", "Cost: not evaluated (no cost data).", "no cost data");
  }

  // percentChange rounds to 9 decimals before the comparison (see numbers.ts), and treats a
  // zero-cost baseline as an unbounded increase when the candidate costs anything at all.
  const increasePct = percentChange(baseCost, candCost);
  const metrics: Metrics = {
    cost_delta_usd: roundTo(candCost - baseCost, USD_DECIMALS),
    baseline_cost_usd: roundTo(baseCost, USD_DECIMALS),
    candidate_cost_usd: roundTo(candCost, USD_DECIMALS),
  };
  // Infinity is not a JSON number (nor a contracts metric): an unbounded increase has no cost_delta_pct.
  if (Number.isFinite(increasePct)) metrics.cost_delta_pct = roundTo(increasePct, 2);

  const relative = increaseBand(increasePct, config);
  // An absolute threshold decides only when it reaches a worse band than the percentage did.
  const absolute = absoluteBand(candCost - baseCost, config.warn_increase_usd, config.block_increase_usd);
  const byDollars = worseBand(absolute.status, relative.status);
  const { status, crossed } = byDollars ? absolute : relative;

  const reasons: string[] = [];
  const codes: string[] = [];
  if (status !== "ALLOW") {
    reasons.push(
      byDollars
        ? `Cost increased by $${metrics.cost_delta_usd} (>=$${threshold(crossed)}).`
        : Number.isFinite(increasePct)
          ? `Cost increased by ${increasePct.toFixed(1)}% (>=${threshold(crossed)}%).`
          : `Cost increased from 0 to ${metrics.candidate_cost_usd} USD (unbounded increase, >=${threshold(crossed)}%).`,
    );
    codes.push(status === "BLOCK" ? GATE_CODES.COST_BLOCK_INCREASE : GATE_CODES.COST_WARN_INCREASE);
  }

  const details = {
    increase_pct: Number.isFinite(increasePct) ? increasePct : null,
    delta_usd: metrics.cost_delta_usd,
    baseline_cost_usd: metrics.baseline_cost_usd,
    candidate_cost_usd: metrics.candidate_cost_usd,
    metrics,
  };
  const title = `Cost: Delta ${signed(increasePct, 2)}%.`;
  return applyEnforcement(policyResult("cost", status, title, reasons, codes, details), config.enforce);
}
