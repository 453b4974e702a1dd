// The rule resolve decides with: the composite score's weights, the label gate and the bands.
// The shipped one is fitted on the tuning halves of the labelled sets (`pnpm bench:resolve-fit`,
// docs/resolve.md#the-decision-rule-fitted-on-data); a knowledge base may replace it with one
// refitted on its own reviewers' decisions (control-plane services/resolve-rule.ts).
import { type TDecisionRule, ZDecisionRule } from "@solserver/contracts";
import shipped from "./decision-rule.json" with { type: "json" };

export const DECISION_RULE: TDecisionRule = ZDecisionRule.parse(shipped);
