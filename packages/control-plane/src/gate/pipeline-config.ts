import { GATE_POLICIES, type TGateConfig, type TGateConfigInput, ZGateConfig } from "@solserver/contracts";
import { ENVELOPE_SCHEMA } from "../model/envelope-schema";

// The output gate on every model attempt of a turn (seed 002 in the pipeline). PII and the
// OutputEnvelope contract block: a leaking or malformed answer is never delivered and never
// becomes a proposal. Cost, drift and latency compare with the thread's previous answer, which
// answered a different question, so by default they can only warn. An operator's config file
// (SOLSERVER_GATE_CONFIG, docs/gate.md) overrides any of it except the envelope contract.

const PIPELINE_DEFAULTS: TGateConfigInput = {
  cost: { enforce: "warn" },
  drift: { enforce: "warn" },
  latency: { enforce: "warn" },
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
