// @solserver/gate: the BreakPoint output gate (seed 002) as a pure library. A candidate model
// output is compared with a known-good baseline by independent policies (PII, cost, drift, and
// in full mode latency and output contract) and the results aggregate to ALLOW / WARN / BLOCK.

export { aggregate, collectMetrics, POLICY_ORDER, REPORT_ORDER } from "./aggregate";
export { GATE_CODES, type TGateCode, WARN_VARIANT } from "./codes";
export { parseGateConfig } from "./config";
export { deepMerge, resolveGateConfig, type TConfigSources, type TResolvedConfig } from "./config-document";
export { GateInputError } from "./errors";
export { type EvaluateInput, evaluate } from "./evaluate";
export { luhnCheckDigit, luhnValid } from "./luhn";
export { maskPii } from "./pii-mask";
export { jsonStrings, readableText, type TReadableText } from "./pii-read";
export { type PiiMatch, type ScanOptions, scanPii } from "./pii-scan";
export { evaluateCostPolicy } from "./policies/cost";
export { evaluateDriftPolicy } from "./policies/drift";
export { evaluateLatencyPolicy } from "./policies/latency";
export { evaluateOutputContractPolicy } from "./policies/output-contract";
export { evaluatePiiPolicy } from "./policies/pii";
export { PRESETS, type TGatePreset } from "./presets";
export { DEFAULT_PRICING, findPrice, mergePricing, resolveCost } from "./pricing";
export { parseGateRecord } from "./records";
export { applyEnforcement } from "./result";
export { type SimilarityKind, similarity } from "./similarity";
export { applyWaivers, evaluationTime, waiverEnd } from "./waivers";
