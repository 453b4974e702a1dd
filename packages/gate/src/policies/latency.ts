// Latency policy (seed "Policy 4", full mode): the candidate answers noticeably slower.

import type { TGateConfig, TGateRecord, TPolicyResult } from "@solserver/contracts";
import { GATE_CODES } from "../codes";
import { absoluteBand, increaseBand, percentChange, roundTo, signed, threshold, worseBand } from "../numbers";
import { applyEnforcement, type Metrics, policyResult, skippedResult } from "../result";

export function evaluateLatencyPolicy(
  baseline: TGateRecord,
  candidate: TGateRecord,
  config: TGateConfig["latency"],
): TPolicyResult {
  if (baseline.latency_ms === undefined || candidate.latency_ms === undefined) {
    return skippedResult("latency", "Latency: not evaluated (no latency data).", "no latency data");
  }
  const base = baseline.latency_ms;
  const cand = candidate.latency_ms;
  // Same arithmetic as cost: rounded before comparing; a 0 ms baseline makes any slower
  // candidate an unbounded increase.
  const increasePct = percentChange(base, cand);
  const metrics: Metrics = { baseline_latency_ms: base, candidate_latency_ms: cand };
  if (Number.isFinite(increasePct)) metrics.latency_delta_pct = roundTo(increasePct, 2);

  const relative = increaseBand(increasePct, config);
  // An absolute threshold decides only when it reaches a worse band than the percentage did.
  const absolute = absoluteBand(cand - base, config.warn_increase_ms, config.block_increase_ms);
  const byMs = worseBand(absolute.status, relative.status);
  const { status, crossed } = byMs ? absolute : relative;
  const reasons: string[] = [];
  const codes: string[] = [];
  if (status !== "ALLOW") {
    reasons.push(
      byMs
        ? `Latency increased by ${roundTo(cand - base, 3)} ms (>=${threshold(crossed)} ms).`
        : Number.isFinite(increasePct)
          ? `Latency increased by ${increasePct.toFixed(1)}% (>=${threshold(crossed)}%).`
          : `Latency increased from 0 to ${cand} ms (unbounded increase, >=${threshold(crossed)}%).`,
    );
    codes.push(status === "BLOCK" ? GATE_CODES.LATENCY_BLOCK_INCREASE : GATE_CODES.LATENCY_WARN_INCREASE);
  }
  const details = { increase_pct: Number.isFinite(increasePct) ? increasePct : null, metrics };
  const title = `Latency: Delta ${signed(increasePct, 2)}%.`;
  return applyEnforcement(policyResult("latency", status, title, reasons, codes, details), config.enforce);
}
