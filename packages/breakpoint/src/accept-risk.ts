import { GATE_POLICIES, type TGateDecision, type TGatePolicyName } from "@solserver/contracts";
import { aggregate } from "@solserver/gate";

// `--accept-risk <policy>` (repeatable), as the original library's flag: for this one run, a
// named policy's WARN or BLOCK is accepted: it reads ALLOW, its reasons and codes leave the
// decision, and what was accepted is listed (the text report's summary, `accepted_risks` in
// JSON) so the override is never silent. Nothing is stored: the next run judges again.

export const RISK_POLICIES = GATE_POLICIES;

export type TAcceptedRisk = { policy: TGatePolicyName; was: "WARN" | "BLOCK"; reasons: string[] };
export type TDecisionWithRisks = TGateDecision & { accepted_risks: TAcceptedRisk[] };

export function acceptRisks(decision: TGateDecision, policies: readonly TGatePolicyName[]): TDecisionWithRisks {
  const wanted = new Set(policies);
  const accepted: TAcceptedRisk[] = [];
  const results = decision.policies.map((p) => {
    if (!wanted.has(p.policy) || p.status === "ALLOW") return p;
    accepted.push({ policy: p.policy, was: p.status, reasons: p.reasons });
    return {
      ...p,
      status: "ALLOW" as const,
      reasons: [],
      codes: [],
      details: { ...p.details, accepted_risk: p.status },
    };
  });
  if (accepted.length === 0) return { ...decision, accepted_risks: [] };
  return { ...decision, ...aggregate(results, decision.metadata.strict), policies: results, accepted_risks: accepted };
}
