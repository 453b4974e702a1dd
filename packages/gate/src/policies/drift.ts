// Drift policy (seed "Policy 3"): the candidate's output changed shape compared with the
// baseline: empty, much longer or shorter, or (full mode) about something else entirely.
//
// Lengths are in Unicode code points, the seed's characters: an emoji outside the BMP counts 1
// (JavaScript's `.length` counts it 2, which flipped decisions on emoji-rich answers).

import type { TGateConfig, TGateMode, TGateRecord, TGateStatus, TPolicyResult } from "@solserver/contracts";
import { GATE_CODES } from "../codes";
import { COMPARE_DECIMALS, codePointLength, roundTo, signed, threshold } from "../numbers";
import { applyEnforcement, type Metrics, policyResult, worst } from "../result";
import { similarity } from "../similarity";

/** The length thresholds for this direction: its own when set, else the shared length delta. */
function lengthLimits(config: TGateConfig["drift"], direction: "expanded" | "compressed") {
  return direction === "expanded"
    ? {
        warn: config.warn_expansion_pct ?? config.warn_length_delta_pct,
        block: config.block_expansion_pct ?? config.block_length_delta_pct,
      }
    : {
        warn: config.warn_compression_pct ?? config.warn_length_delta_pct,
        block: config.block_compression_pct ?? config.block_length_delta_pct,
      };
}

export function evaluateDriftPolicy(
  baseline: TGateRecord,
  candidate: TGateRecord,
  config: TGateConfig["drift"],
  mode: TGateMode = "lite",
): TPolicyResult {
  const baseLen = codePointLength(baseline.output);
  const candLen = codePointLength(candidate.output);
  const metrics: Metrics = { baseline_length: baseLen, candidate_length: candLen };

  if (candidate.output.trim().length === 0) {
    // Nothing to compare: an empty (or whitespace-only) answer is always a regression.
    return applyEnforcement(
      policyResult(
        "drift",
        "BLOCK",
        "Output drift: Empty output.",
        ["Candidate output is empty."],
        [GATE_CODES.DRIFT_BLOCK_EMPTY_OUTPUT],
        { metrics },
      ),
      config.enforce,
    );
  }

  let status: TGateStatus = "ALLOW";
  const reasons: string[] = [];
  const codes: string[] = [];

  // Signed change in percent. An empty baseline with a non-empty candidate is an unbounded
  // expansion (+Infinity): it BLOCKs, like any expansion past the BLOCK threshold.
  const signedPct =
    baseLen === 0 ? Number.POSITIVE_INFINITY : roundTo(((candLen - baseLen) / baseLen) * 100, COMPARE_DECIMALS);
  const deltaPct = Math.abs(signedPct);
  if (Number.isFinite(deltaPct)) metrics.length_delta_pct = roundTo(deltaPct, 2);
  const direction: "expanded" | "compressed" = candLen >= baseLen ? "expanded" : "compressed";
  const describe = (limit: number) =>
    Number.isFinite(deltaPct)
      ? `Output length ${direction} by ${deltaPct.toFixed(2)}% (>=${threshold(limit)}%).`
      : `Output length expanded from 0 to ${candLen} characters (unbounded change, >=${threshold(limit)}%).`;

  const limits = lengthLimits(config, direction);
  if (deltaPct >= limits.block) {
    status = worst(status, "BLOCK");
    reasons.push(describe(limits.block));
    codes.push(GATE_CODES.DRIFT_BLOCK_LENGTH_DELTA);
  } else if (deltaPct >= limits.warn) {
    status = worst(status, "WARN");
    reasons.push(describe(limits.warn));
    codes.push(GATE_CODES.DRIFT_WARN_LENGTH_DELTA);
  }

  if (baseLen > 0) {
    const shortRatio = roundTo(candLen / baseLen, COMPARE_DECIMALS);
    metrics.short_ratio = roundTo(shortRatio, 4);
    if (shortRatio < config.warn_short_ratio) {
      // Only ever a WARN: with the default thresholds a ratio under 0.35 is also a length delta
      // over 65%, so this mostly adds the explicit "much shorter" finding next to it.
      status = worst(status, "WARN");
      reasons.push(
        `Output is much shorter than the baseline: ${candLen} vs ${baseLen} characters (ratio ${shortRatio.toFixed(2)} < ${threshold(config.warn_short_ratio)}).`,
      );
      codes.push(GATE_CODES.DRIFT_WARN_SHORT_OUTPUT);
    }
  }

  let sim: number | null = null;
  if (mode === "full") {
    sim = roundTo(similarity(baseline.output, candidate.output, config.similarity, config.ngram), COMPARE_DECIMALS);
    metrics.similarity = roundTo(sim, 4);
    if (sim < config.warn_similarity) {
      status = worst(status, "WARN");
      reasons.push(
        `Output similarity ${sim.toFixed(2)} is below ${threshold(config.warn_similarity)} (${config.similarity}).`,
      );
      codes.push(GATE_CODES.DRIFT_WARN_LOW_SIMILARITY);
    }
  }

  let title = "Output drift: No issues.";
  if (status !== "ALLOW") {
    title =
      codes.length === 1 && codes[0] === GATE_CODES.DRIFT_WARN_LOW_SIMILARITY && sim !== null
        ? `Output drift: Similarity ${sim.toFixed(2)}.`
        : `Output drift: Length delta ${signed(signedPct, 2)}%.`;
  }
  const details: Record<string, unknown> = {
    length_delta_pct: Number.isFinite(deltaPct) ? deltaPct : null,
    direction,
    metrics,
  };
  if (sim !== null) details.similarity_kind = config.similarity;
  return applyEnforcement(policyResult("drift", status, title, reasons, codes, details), config.enforce);
}
