// The seed's rule (001 §6.2–6.3: 0.50 / 0.25 / 0.20 / 0.05, bands 0.55 and 0.75, merge gap 0.06,
// buffer 0.05) with the label gate and contradiction floor of the first evaluation. The tests of
// the decision's logic run on it, numbers a reader can check by hand; the shipped rule is fitted
// on data (decision-rule.json) and tested as such in decision-rule.test.ts.
import type { TDecisionRule } from "@solserver/contracts";

export const SEED_RULE: TDecisionRule = {
  weights: { text: 0.5, tag: 0.25, entity: 0.2, title: 0.05 },
  labelGate: 0.4,
  bands: { low: 0.55, high: 0.75, mergeGap: 0.06, hysteresis: 0.05, contradiction: 0.45 },
};
