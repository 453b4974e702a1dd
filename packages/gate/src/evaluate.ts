// evaluate(): the seed's whole flow. Validate both records and the config, run the policies the
// mode calls for (skipping those switched off), apply waivers, aggregate. Pure and deterministic:
// the same input always gives the same decision, with no clock, randomness or I/O involved (the
// evaluation time that waivers expire against is an input).

import type {
  TGateConfig,
  TGateConfigInput,
  TGateDecision,
  TGateMode,
  TGatePolicyName,
  TGatePresetName,
  TGateRecord,
  TPolicyResult,
} from "@solserver/contracts";
import { aggregate, collectMetrics, POLICY_ORDER } from "./aggregate";
import { resolveGateConfig } from "./config-document";
import { GateInputError } from "./errors";
import { evaluateCostPolicy } from "./policies/cost";
import { evaluateDriftPolicy } from "./policies/drift";
import { evaluateLatencyPolicy } from "./policies/latency";
import { evaluateOutputContractPolicy } from "./policies/output-contract";
import { evaluatePiiPolicy } from "./policies/pii";
import { parseGateRecord } from "./records";
import { applyWaivers, evaluationTime } from "./waivers";

export type EvaluateInput = {
  baseline: unknown;
  candidate: unknown;
  mode?: TGateMode;
  strict?: boolean;
  /**
   * Any subset of the config, or a config document with `preset` / `environments` (resolved by
   * resolveGateConfig). Keys it sets win over the preset's.
   */
  config?: TGateConfigInput | TGateConfig | Record<string, unknown>;
  /** Built-in thresholds under the config (chatbot, extraction, support). */
  preset?: TGatePresetName;
  /** The evaluation time waivers expire against; required when the config has waivers. */
  now?: Date | string;
};

/** Lite mode is the seed's default trio; full mode adds latency and the output contract. */
const MODE_POLICIES: Record<TGateMode, ReadonlySet<TGatePolicyName>> = {
  lite: new Set(["pii", "cost", "drift"]),
  full: new Set(POLICY_ORDER),
};

export function evaluate(input: EvaluateInput): TGateDecision {
  if (input === null || typeof input !== "object") {
    throw new GateInputError("input", "evaluate() takes { baseline, candidate, mode?, strict?, config? }");
  }
  const mode = input.mode ?? "lite";
  if (mode !== "lite" && mode !== "full") throw new GateInputError("mode", 'mode must be "lite" or "full"');
  const strict = input.strict ?? false;
  if (typeof strict !== "boolean") throw new GateInputError("strict", "strict must be a boolean");
  const baseline = parseGateRecord("baseline", input.baseline);
  const candidate = parseGateRecord("candidate", input.candidate);
  const { config } = resolveGateConfig({ document: input.config, preset: input.preset });

  const results: TPolicyResult[] = [];
  for (const policy of POLICY_ORDER) {
    if (!MODE_POLICIES[mode].has(policy) || config[policy].enforce === "off") continue;
    results.push(runPolicy(policy, baseline, candidate, config, mode));
  }
  const waived = waive(results, config, input.now);

  return {
    ...aggregate(waived.results, strict),
    metrics: collectMetrics(results),
    metadata: {
      mode,
      strict,
      baseline_model: baseline.model ?? null,
      candidate_model: candidate.model ?? null,
      policies: results.map((r) => r.policy),
    },
    policies: waived.results,
    ...(waived.outcome ? { waivers: waived.outcome } : {}),
  };
}

function waive(results: TPolicyResult[], config: TGateConfig, now: Date | string | undefined) {
  if (config.waivers.length === 0) return { results, outcome: null };
  if (now === undefined) {
    throw new GateInputError("now", "the config has waivers: pass the evaluation time they expire against");
  }
  const { results: kept, applied, expired } = applyWaivers(results, config.waivers, evaluationTime(now));
  return { results: kept, outcome: { applied, expired } };
}

function runPolicy(
  policy: TGatePolicyName,
  baseline: TGateRecord,
  candidate: TGateRecord,
  config: TGateConfig,
  mode: TGateMode,
): TPolicyResult {
  switch (policy) {
    case "pii":
      return evaluatePiiPolicy(baseline, candidate, config.pii);
    case "cost":
      return evaluateCostPolicy(baseline, candidate, config.cost);
    case "drift":
      return evaluateDriftPolicy(baseline, candidate, config.drift, mode);
    case "latency":
      return evaluateLatencyPolicy(baseline, candidate, config.latency);
    case "output_contract":
      return evaluateOutputContractPolicy(baseline, candidate, config.output_contract);
  }
}
