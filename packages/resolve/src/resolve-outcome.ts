// Resolve for one proposal and its candidates, start to end, pure: every text profiled once,
// every candidate scored, the top pair checked for being one CFB written twice, then decided.
import type {
  TDecisionRule,
  TResolveCandidate,
  TResolveDecisionKind,
  TResolveOutcome,
  TResolveProposal,
  TScoredCandidate,
} from "@solserver/contracts";
import { decide, OUTCOME_SCORES, type TDecideOptions } from "./decide";
import { DECISION_RULE } from "./decision-rule";
import { orderReasonCodes, type TResolveReasonCode } from "./reason-codes";
import { compareScored, compositeScore, SEMANTIC_SCALE, scoreCandidate, type TSemanticScale } from "./score";
import { cachedTextProfile, type TTextProfile, textProfile } from "./text/profile";
import { namesSubject } from "./text/subject";
import { dice, sameFacts } from "./text/text-match";

/** Every candidate scored against the proposal, best first; a CFB listed twice counts once, with its best score. */
export function scoreCandidates(
  p: TResolveProposal,
  candidates: readonly TResolveCandidate[],
  profiles: Map<string, TTextProfile> = new Map(),
  scale: TSemanticScale = SEMANTIC_SCALE,
  rule: TDecisionRule = DECISION_RULE,
): TScoredCandidate[] {
  const pText = textProfile(p.title, p.delta_summary);
  const profileOf = (c: TResolveCandidate) => {
    let profile = profiles.get(c.cfb_id);
    if (!profile) {
      profile = cachedTextProfile(c.title, c.summary);
      profiles.set(c.cfb_id, profile);
    }
    return profile;
  };
  // Ranked on the score, which needs no detail; then the best few (all a decision or the
  // dashboard reads) scored again with new_share and the change cues.
  const seen = new Set<string>();
  const ranked = candidates
    .map((c) => ({ c, s: scoreCandidate(p, pText, c, profileOf(c), false, scale, rule) }))
    .sort((a, b) => compareScored(a.s, b.s))
    .filter(({ s }) => {
      if (seen.has(s.cfb_id)) return false; // sorted best first: the first one seen is the best
      seen.add(s.cfb_id);
      return true;
    });
  return ranked.map(({ c, s }, i) =>
    i < OUTCOME_SCORES ? scoreCandidate(p, pText, c, profileOf(c), true, scale, rule) : s,
  );
}

/**
 * The decision for a proposal against its candidates: update / review / create / merge with every
 * score and reason. `previous` is the last decision for the same fingerprint (hysteresis).
 */
export function resolveOutcome(
  p: TResolveProposal,
  candidates: readonly TResolveCandidate[],
  previous?: { decision: TResolveDecisionKind } | null,
  opts: { semanticScale?: TSemanticScale; rule?: TDecisionRule } = {},
): TResolveOutcome {
  const rule = opts.rule ?? DECISION_RULE;
  const profiles = new Map<string, TTextProfile>();
  const scored = scoreCandidates(p, candidates, profiles, opts.semanticScale, rule);
  return decideOptions(p, profiles).decide(scored, previous, rule);
}

/**
 * How a proposal's scored candidates are decided, with what the decision reads from the texts
 * (numbers and names in common, pairs that state the same facts, whether the proposal names a
 * subject). Scores do not depend on these, so a fit can score once and decide under many rules.
 */
export function decideOptions(p: TResolveProposal, profiles: ReadonlyMap<string, TTextProfile>) {
  const pText = textProfile(p.title, p.delta_summary);
  const subject = namesSubject(p.title, p.delta_summary);
  const opts: TDecideOptions = {
    specifics: (id) => {
      const c = profiles.get(id);
      return c ? dice(pText.specifics, c.specifics) : 0;
    },
    sameFacts: (a, b) => {
      const pa = profiles.get(a);
      const pb = profiles.get(b);
      return pa !== undefined && pb !== undefined && sameFacts(pa, pb);
    },
  };
  return {
    decide(
      scored: readonly TScoredCandidate[],
      previous: { decision: TResolveDecisionKind } | null | undefined,
      rule: TDecisionRule,
    ): TResolveOutcome {
      const outcome = decide(scored, previous, { ...opts, rule });
      // A proposal naming no subject cannot be matched to knowledge, nor stand as new knowledge.
      if (subject) return outcome;
      return {
        ...outcome,
        decision: "review",
        target_cfb_id: outcome.scores[0]?.cfb_id ?? null,
        merge_cfb_ids: [],
        reason_codes: orderReasonCodes([...(outcome.reason_codes as TResolveReasonCode[]), "NO_SUBJECT"]),
      };
    },
  };
}

/**
 * A stored decision taken again under another rule, from its stored scores' components and flags
 * (a refit compares rules on the decisions reviewers made). The texts are not at hand, so two
 * close top CFBs are never a merge here: the pair goes to review.
 */
export function redecide(
  scores: readonly TScoredCandidate[],
  rule: TDecisionRule,
  previous?: { decision: TResolveDecisionKind } | null,
): TResolveOutcome {
  return decide(
    scores.map((s) => ({ ...s, score: compositeScore(s.components, rule) })),
    previous,
    { rule },
  );
}
