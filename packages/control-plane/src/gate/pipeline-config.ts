import { GATE_POLICIES, type TGateConfig, type TGateConfigInput, ZGateConfig } from "@solserver/contracts";
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
  return ZGateConfig.parse(merged);
}
