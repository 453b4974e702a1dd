// Small builders shared by the tests.
import type {
  TCandidateFlag,
  TResolveCandidate,
  TResolveProposal,
  TScoreComponents,
  TScoredCandidate,
} from "@solserver/contracts";

export function proposal(over: Partial<TResolveProposal> = {}): TResolveProposal {
  return {
    title: "Reset a Postgres password",
    delta_summary: "Use ALTER ROLE to reset the password, then restart the API.",
    tags: ["db", "ops"],
    entities: ["PostgreSQL"],
    domain: "ops",
    ...over,
  };
}

/** A candidate as the candidate index returns it: text and labels, no search score. */
export function candidate(cfb_id: string, over: Partial<TResolveCandidate> = {}): TResolveCandidate {
  return {
    cfb_id,
    title: "Postgres password reset",
    summary: "How to reset a password.",
    tags: ["db", "ops"],
    entities: ["PostgreSQL"],
    ...over,
  };
}

/**
 * Components of a scored candidate: a middling text match and no label or title match, so a test
 * of one component or reason code sets only that one.
 */
export function components(over: Partial<TScoreComponents> = {}): TScoreComponents {
  return {
    text_similarity: 0.5,
    tag_overlap: 0,
    entity_overlap: 0,
    title_similarity: 0,
    semantic_similarity: null,
    new_share: 0,
    ...over,
  };
}

/** A scored candidate with a given score; the band rules read the score and the flags only. */
export function scored(
  cfb_id: string,
  score: number,
  over: Partial<TScoreComponents> = {},
  flags: readonly TCandidateFlag[] = [],
): TScoredCandidate {
  return { cfb_id, score, components: components(over), flags: [...flags] };
}

/** decide() options under which every pair states the same facts (the seed's merge rule alone). */
export const SAME_FACTS = { sameFacts: () => true } as const;
/** decide() options under which no pair states the same facts. */
export const DISTINCT_FACTS = { sameFacts: () => false } as const;
