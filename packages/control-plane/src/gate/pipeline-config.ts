import { GATE_POLICIES, type TGateConfig, type TGateConfigInput } from "@solserver/contracts";
import { parseGateConfig } from "@solserver/gate";
import { ENVELOPE_SCHEMA } from "../model/envelope-schema";

// The output gate on every model attempt of a turn (seed 002 in the pipeline). PII and the
// OutputEnvelope contract block: a leaking or malformed answer is never delivered and never
// becomes a proposal. Cost and drift compare with the thread's previous answer, which answered
// a different question, so by default they can only warn. Latency is off: one attempt's latency
// against the previous answer's says more about the network than about the output (and the
// offline model's 0-2 ms would warn at random). An operator's config file
// (SOLSERVER_GATE_CONFIG, docs/pipeline.md) overrides any of it except the envelope contract.

const PIPELINE_DEFAULTS: TGateConfigInput = {
  cost: { enforce: "warn" },
  drift: { enforce: "warn" },
  latency: { enforce: "off" },
};

/** The pipeline's gate config: its defaults, the operator's overrides per policy, the envelope contract. */
export function pipelineGateConfig(overrides: TGateConfigInput = {}): TGateConfig {
  const merged: Record<string, unknown> = {};
  for (const policy of GATE_POLICIES) {
    merged[policy] = { ...PIPELINE_DEFAULTS[policy], ...overrides[policy] };
  }
  merged.output_contract = { enforce: "block", json: true, json_schema: ENVELOPE_SCHEMA };
  // An operator's waivers (e.g. a known support address while the allowlist change ships)
  // expire against the turn's clock; parseGateConfig also checks their codes exist.
  merged.waivers = overrides.waivers ?? [];
  return parseGateConfig(merged);
}
