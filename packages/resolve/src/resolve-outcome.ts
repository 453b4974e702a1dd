// Resolve for one proposal and its candidates, start to end, pure: every text profiled once,
// every candidate scored, the top pair checked for being one CFB written twice, then decided.
import type {
  TResolveCandidate,
  TResolveDecisionKind,
  TResolveOutcome,
  TResolveProposal,
  TScoredCandidate,
} from "@solserver/contracts";
import { decide, OUTCOME_SCORES } from "./decide";
import { compareScored, SEMANTIC_SCALE, scoreCandidate, type TSemanticScale } from "./score";
import { cachedTextProfile, type TTextProfile, textProfile } from "./text/profile";
import { dice, sameFacts } from "./text/text-match";

/** Every candidate scored against the proposal, best first; a CFB listed twice counts once, with its best score. */
export function scoreCandidates(
  p: TResolveProposal,
  candidates: readonly TResolveCandidate[],
  profiles: Map<string, TTextProfile> = new Map(),
  scale: TSemanticScale = SEMANTIC_SCALE,
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
    .map((c) => ({ c, s: scoreCandidate(p, pText, c, profileOf(c), false, scale) }))
    .sort((a, b) => compareScored(a.s, b.s))
    .filter(({ s }) => {
      if (seen.has(s.cfb_id)) return false; // sorted best first: the first one seen is the best
      seen.add(s.cfb_id);
      return true;
    });
  return ranked.map(({ c, s }, i) => (i < OUTCOME_SCORES ? scoreCandidate(p, pText, c, profileOf(c), true, scale) : s));
}

/**
 * The decision for a proposal against its candidates: update / review / create / merge with every
 * score and reason. `previous` is the last decision for the same fingerprint (hysteresis).
 */
export function resolveOutcome(
  p: TResolveProposal,
  candidates: readonly TResolveCandidate[],
  previous?: { decision: TResolveDecisionKind } | null,
  opts: { semanticScale?: TSemanticScale } = {},
): TResolveOutcome {
  const profiles = new Map<string, TTextProfile>();
  const scored = scoreCandidates(p, candidates, profiles, opts.semanticScale);
  const pText = textProfile(p.title, p.delta_summary);
  return decide(scored, previous, {
    specifics: (id) => {
      const c = profiles.get(id);
      return c ? dice(pText.specifics, c.specifics) : 0;
    },
    sameFacts: (a, b) => {
      const pa = profiles.get(a);
      const pb = profiles.get(b);
      return pa !== undefined && pb !== undefined && sameFacts(pa, pb);
    },
  });
}
